// The lesson player: a bundled lesson opens its example with its analysis, Back and Next move
// the run to each section's anchor at the very event `cpa lesson check` resolves natively,
// a question is answered and judged, and a link to "lesson L, section S" opens there in a
// fresh profile. Screenshots of a lesson on a projector and on a phone go to artifacts/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARTIFACTS, baseUrl, id, inFreshProfile, launch, PlaygroundPage, usePlayground } from './harness.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CPA = join(ROOT, 'target', 'release', 'cpa');

/** The positions of a lesson's sections and their questions' answers, as the CLI checks them. */
function native(key) {
  const out = execFileSync(CPA, ['lesson', 'check', join(ROOT, 'lessons', `${key}.md`)], { encoding: 'utf8' });
  return out.split('\n').filter((l) => l.startsWith('  ok')).map((l) => {
    const m = l.match(/^ {2}ok {2}event +(\d+) {2}(.*?)(?:; answer (.*))?$/);
    return { position: Number(m[1]), title: m[2], answer: m[3] ?? null };
  });
}

let page;
let pg;
const ctx = usePlayground({ viewport: { width: 1280, height: 800 } }, { setup: (c) => { ({ page, pg } = c); } });

/** Waits until the lesson shows `section` (from 0) with the run idle at its anchor. */
async function atSection(p, section, position) {
  await p.page.waitForSelector(`${id('lesson-panel')}[data-section="${section}"][aria-busy="false"]`, { timeout: 60_000 });
  await p.settledAt(position);
}

test('Next and Back put the run at each anchor, at the events the CLI resolves', async () => {
  for (const key of ['one-cegar-loop', 'unifying-view', 'lbe-blocks']) {
    const want = native(key);
    await page.selectOption(id('lesson-select'), key);
    await atSection(pg, 0, want[0].position);
    const run = await pg.run();
    assert.equal(run.preset, { 'one-cegar-loop': 'predicate-lbe', 'unifying-view': 'kinduction', 'lbe-blocks': 'predicate-sbe' }[key]);
    for (let s = 1; s < want.length; s++) {
      await page.click(id('lesson-next'));
      await atSection(pg, s, want[s].position);
      assert.equal(await pg.number('step-index'), want[s].position, `${key} section ${s}`);
      assert.match(await pg.text('lesson-panel'), new RegExp(want[s].title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      if (key === 'one-cegar-loop' && want[s].title.startsWith('Refinement 1')) {
        // What the section names in code is marked where the Refinements tab shows it.
        await page.click(id('tab-refinements'));
        const named = await page.$$eval(`${id('interpolants')} code.named`, (cs) => cs.map((c) => c.textContent));
        assert.deepEqual(named, ['x = y', 'x < y', 'y < x']);
        await page.locator(`${id('interpolants')} code.named`).first().scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(ARTIFACTS, 'lesson-named-formulas.png') });
      }
    }
    await page.click(id('lesson-back'));
    await atSection(pg, want.length - 2, want[want.length - 2].position);
  }
});

test('a question is judged against the run: a wrong answer says why, the right one is confirmed', async () => {
  const want = native('one-cegar-loop');
  const asked = want.findIndex((s) => s.answer);
  const right = want[asked].answer.match(/answer: (\d+)/)[1];
  await page.selectOption(id('lesson-select'), 'one-cegar-loop');
  await atSection(pg, 0, 0);
  for (let s = 1; s <= asked; s++) await page.click(id('lesson-next'));
  await atSection(pg, asked, want[asked].position);
  // What the section names is highlighted: "the new state sits at line 12" selects line 12
  // in the editor, and the text's reference is a link to it.
  assert.ok(await page.locator(`${id('lesson-ref')}[data-ref="line 12"]`).isVisible());
  await page.waitForFunction(() => [...document.querySelectorAll('.cm-line.cm-cpa-highlight')].some((l) => l.textContent.includes('reach_error')),
    null, { timeout: 10_000 });
  const choices = await page.$$eval(id('lesson-answer'), (bs) => bs.map((b) => b.dataset.value));
  assert.ok(choices.includes(right) && choices.length >= 2, `choices ${choices}`);
  const wrong = choices.find((c) => c !== right);
  await page.click(`${id('lesson-answer')}[data-value="${wrong}"]`);
  assert.match(await pg.text('lesson-feedback'), new RegExp(`^Not quite \\(${wrong}\\): the answer is state ${right}\\.`));
  await page.click(`${id('lesson-answer')}[data-value="${right}"]`);
  assert.match(await pg.text('lesson-feedback'), new RegExp(`^Right: state ${right}\\.`));
  // Stepping on shows the state the question asked about being expanded.
  await page.locator(id('explain')).click();
  await page.keyboard.press('ArrowRight');
  await pg.settledAt(want[asked].position + 1);
  assert.match(await pg.text('explain'), new RegExp(`\\b${right}\\b`));
});

test('an invariant question is judged by the checker: the part that fails with its states, then the right one', async () => {
  const want = native('induction-strengthening');
  const asked = want.findIndex((s) => s.answer && s.answer.startsWith('Invariant'));
  assert.ok(asked > 0, JSON.stringify(want));
  await page.selectOption(id('lesson-select'), 'induction-strengthening');
  await atSection(pg, 0, want[0].position);
  for (let s = 1; s <= asked; s++) await page.click(id('lesson-next'));
  await atSection(pg, asked, want[asked].position);
  assert.equal(await page.getAttribute(id('lesson-question'), 'data-line'), '8');
  // i < n fails where the CLI says it fails, with the same reason.
  let cli;
  try {
    cli = execFileSync(CPA, ['check-invariant', join(ROOT, 'examples/kinduction-proves.c'), '--line', '8', 'i < n'], { encoding: 'utf8' });
  } catch (e) {
    cli = e.stdout; // exit 1: the invariant does not prove the program
  }
  const failing = cli.match(/^ {2}(initiation|consecution|sufficiency) +fails: (.*)$/m);
  assert.ok(failing, cli);
  await page.fill(id('lesson-answer'), 'i < n');
  await page.press(id('lesson-answer'), 'Enter');
  await page.waitForSelector(`${id('lesson-feedback')}[data-right="false"]`, { timeout: 30_000 });
  const wrong = await pg.text('lesson-feedback');
  assert.ok(wrong.startsWith(`Not yet (i < n): ${failing[1]} fails: ${failing[2]}`), `${wrong} vs ${failing[0]}`);
  await page.fill(id('lesson-answer'), 'i <= n');
  await page.click(id('lesson-check'));
  await page.waitForSelector(`${id('lesson-feedback')}[data-right="true"]`, { timeout: 30_000 });
  assert.match(await pg.text('lesson-feedback'), /^Right: i <= n holds/);
  await page.locator(id('lesson-panel')).screenshot({ path: join(ARTIFACTS, 'lesson-invariant-question.png') });
  // Not an expression over the loop's variables: said, not judged right.
  await page.fill(id('lesson-answer'), 'k == 1');
  await page.click(id('lesson-check'));
  await page.waitForSelector(`${id('lesson-feedback')}[data-right="false"]`, { timeout: 30_000 });
  assert.match(await pg.text('lesson-feedback'), /invariant/);
});

test('a predicate question is judged by the solver: an interpolant or an equivalent predicate is right, text does not matter', async () => {
  const want = native('one-cegar-loop');
  const asked = want.findIndex((s) => s.answer && s.answer.startsWith('Predicate'));
  assert.ok(asked > 0, JSON.stringify(want));
  await page.selectOption(id('lesson-select'), 'one-cegar-loop');
  await atSection(pg, 0, want[0].position);
  for (let s = 1; s <= asked; s++) await page.click(id('lesson-next'));
  await atSection(pg, asked, want[asked].position);
  const judge = async (text) => {
    await page.fill(id('lesson-answer'), text);
    await page.click(id('lesson-check'));
    await page.waitForFunction((t) => {
      const f = document.querySelector('[data-testid="lesson-feedback"]');
      return f && f.textContent.includes(`(${t})`) || (f && f.textContent.startsWith('Right') && !document.querySelector('[data-testid="lesson-check"]').textContent.includes('checking'));
    }, text, { timeout: 30_000 });
    return { right: await page.getAttribute(id('lesson-feedback'), 'data-right'), text: await pg.text('lesson-feedback') };
  };
  let r = await judge('x <= 5');
  assert.equal(r.right, 'false', r.text);
  assert.match(r.text, /still reaches the error/);
  r = await judge('y == x');
  assert.equal(r.right, 'true', r.text);
  assert.match(r.text, /^Right: at line 8 .*interpolant/);
  r = await judge('x + 1 >= y + 1');
  assert.equal(r.right, 'true', r.text);
  assert.match(r.text, /negation of a predicate refinement 1 adds/);
  await page.locator(id('lesson-panel')).screenshot({ path: join(ARTIFACTS, 'lesson-predicate-question.png') });
  // The run stays where the section put it.
  assert.equal(await pg.number('step-index'), want[asked].position);
});

test('a lesson written in the page: sections added at steps, played, checked, downloaded and shared', async () => {
  await pg.open('unifying-fig2');
  await page.click(id('tab-author'));
  await page.locator(id('explain')).click();
  await page.keyboard.press('a'); // a section at the start, with one key
  await pg.steps(3);
  await page.click(id('lesson-add-section'));
  await pg.toVerdict();
  await page.click(id('lesson-add-section'));
  let text = await page.inputValue(id('lesson-text'));
  assert.match(text, /^---\ntitle: A new lesson\nprogram: tests\/verdicts\/unifying-fig2\.c\npreset: predicate-lbe\nknobs: interpolation=backward-auto-prefix\n---/);
  assert.deepEqual([...text.matchAll(/^## .* @ (.*)$/gm)].map((m) => m[1]), ['start', 'event 3', 'verdict']);
  // The teacher writes; the text is checked against the run once played to the end.
  text = text.replace('title: A new lesson', 'title: Equal counters').replace('What the run shows here, and why.', 'The loop keeps `x` and `y` equal.');
  await page.fill(id('lesson-text'), text);
  await page.click(id('lesson-play'));
  await page.waitForSelector(`${id('lesson-panel')}[data-section="0"][aria-busy="false"]`, { timeout: 60_000 });
  assert.match(await pg.text('lesson-panel'), /Equal counters/);
  assert.match(await pg.text('lesson-panel'), /The loop keeps x and y equal\./);
  await page.click(id('lesson-next'));
  await atSection(pg, 1, 3);
  await page.click(id('lesson-next'));
  await page.waitForSelector(`${id('lesson-panel')}[data-section="2"][aria-busy="false"]`, { timeout: 60_000 });
  await page.click(id('tab-author'));
  await page.waitForSelector(id('lesson-checked'), { timeout: 30_000 });
  assert.match(await pg.text('lesson-checked'), /all 3 sections land/);
  // Downloaded as a file for lessons/, which `cpa lesson check` accepts as it is.
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(id('lesson-download'))]);
  assert.equal(d.suggestedFilename(), 'equal-counters.md');
  const { readFileSync, writeFileSync, mkdirSync, copyFileSync } = await import('node:fs');
  assert.equal(readFileSync(await d.path(), 'utf8'), text);
  // `cpa lesson check` reads the program relative to the directory holding lessons/.
  const dir = join(ROOT, 'target', 'written-lesson');
  mkdirSync(join(dir, 'lessons'), { recursive: true });
  mkdirSync(join(dir, 'tests', 'verdicts'), { recursive: true });
  copyFileSync(join(ROOT, 'tests', 'verdicts', 'unifying-fig2.c'), join(dir, 'tests', 'verdicts', 'unifying-fig2.c'));
  writeFileSync(join(dir, 'lessons', 'equal-counters.md'), text);
  const out = execFileSync(CPA, ['lesson', 'check', join(dir, 'lessons', 'equal-counters.md')], { encoding: 'utf8' });
  assert.match(out, /Equal counters \(3 sections/);
  await page.screenshot({ path: join(ARTIFACTS, 'lesson-author.png') });
  // Shared: the link carries the text and opens at the section shown in a fresh profile.
  await page.click(id('lesson-back'));
  await atSection(pg, 1, 3);
  const url = await pg.shareUrl();
  await inFreshProfile(url, async (other) => {
    await atSection(other, 1, 3);
    assert.match(await other.text('lesson-panel'), /Equal counters/);
  });
});

test('a link to a lesson section opens there in a fresh profile', async () => {
  const want = native('symbolic-cegar');
  await page.selectOption(id('lesson-select'), 'symbolic-cegar');
  await atSection(pg, 0, 0);
  await page.click(id('lesson-next'));
  await page.click(id('lesson-next'));
  await atSection(pg, 2, want[2].position);
  const url = await pg.shareUrl();
  await inFreshProfile(url, async (other) => {
    await atSection(other, 2, want[2].position);
    assert.equal(await other.page.inputValue(id('lesson-select')), 'symbolic-cegar');
    assert.match(await other.text('lesson-panel'), /The second refinement/);
  });
  // Embedded (`?embed`), the lesson plays too: its section, and Next to the next anchor.
  const [base, fragment] = url.split('#');
  await inFreshProfile(`${base}${base.includes('?') ? '&' : '?'}embed#${fragment}`, async (other) => {
    await atSection(other, 2, want[2].position);
    assert.ok(await other.page.locator(id('lesson-panel')).isVisible());
    await other.page.click(id('lesson-next'));
    await atSection(other, 3, want[3].position);
  });
});

test('a lesson on a projector and on a phone (screenshots)', async () => {
  for (const [name, options, query] of [
    ['lesson-presentation.png', { viewport: { width: 1280, height: 720 } }, '?present'],
    ['lesson-phone.png', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }, ''],
  ]) {
    const b = await launch(options);
    try {
      const p = new PlaygroundPage(await b.page());
      await p.load(`${baseUrl()}${query}`);
      await p.page.selectOption(id('lesson-select'), 'one-cegar-loop');
      await atSection(p, 0, 0);
      await p.page.click(id('lesson-next'));
      await atSection(p, 1, native('one-cegar-loop')[1].position);
      await p.page.screenshot({ path: join(ARTIFACTS, name) });
      // The panel, its question and Next are on screen.
      for (const t of ['lesson-panel', 'lesson-question', 'lesson-next']) {
        assert.ok(await p.page.locator(id(t)).isVisible(), `${name}: ${t} visible`);
      }
    } finally {
      await b.close();
    }
  }
});
