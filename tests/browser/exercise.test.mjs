// The invariant exercise in the page: a candidate invariant at a loop is checked in the worker
// with the engine function `cpa check-invariant` runs natively; the parts and the
// counterexamples to induction are the CLI's, value for value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARTIFACTS, id, usePlayground } from './harness.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CPA = join(ROOT, 'target', 'release', 'cpa');

/** `cpa check-invariant`'s parts: status and the before/after lines of each. */
function native(file, line, inv) {
  let out;
  try {
    out = execFileSync(CPA, ['check-invariant', join(ROOT, file), '--line', String(line), inv], { encoding: 'utf8' });
  } catch (e) {
    out = e.stdout;
  }
  const parts = {};
  let current = null;
  for (const l of out.split('\n')) {
    const m = l.match(/^ {2}(initiation|consecution|sufficiency) +(holds|fails|unknown)/);
    if (m) {
      current = m[1];
      parts[current] = { status: m[2], before: null, after: null };
      continue;
    }
    const v = l.match(/^ +(before|after): +(.*)$/);
    if (v && current) parts[current][v[1]] = v[2];
  }
  return parts;
}

let page;
let pg;
const ctx = usePlayground({ viewport: { width: 1280, height: 800 } }, { setup: (c) => { ({ page, pg } = c); } });

test('candidate invariants are checked as natively, with the counterexamples to induction', async () => {
  await pg.open('kinduction-proves');
  await page.click(id('tab-invariant'));
  assert.deepEqual(await page.$$eval(`${id('invariant-line')} option`, (os) => os.map((o) => o.value)), ['8']);
  for (const inv of ['i <= n', 'i < n', 'i == 0', 'i >= 0']) {
    const want = native('examples/kinduction-proves.c', 8, inv);
    await page.fill(id('invariant-input'), inv);
    await page.click(id('invariant-check'));
    await page.waitForFunction((t) => document.querySelector('[data-testid="invariant-result"] .for code')?.textContent === t
      && !document.querySelector('[data-testid="invariant-check"]').textContent.includes('checking'), inv, { timeout: 30_000 });
    const got = await page.$$eval(`${id('invariant-result')} .part`, (ps) => Object.fromEntries(ps.map((p) => {
      const cti = (k) => [...p.querySelectorAll('.cti')].find((c) => c.querySelector('.label').textContent === k)?.querySelector('code').textContent ?? null;
      return [p.dataset.part, { status: p.dataset.status, before: cti('before'), after: cti('after') }];
    })));
    assert.deepEqual(got, want, inv);
    const proves = Object.values(want).every((p) => p.status === 'holds');
    assert.equal(await page.getAttribute(id('invariant-result'), 'data-proves'), String(proves), inv);
  }
  assert.equal(native('examples/kinduction-proves.c', 8, 'i <= n').sufficiency.status, 'holds');
  await page.locator(id('invariant-panel')).screenshot({ path: join(ARTIFACTS, 'view-invariant.png') });
  // Not a C expression over the variables in scope: said, no crash.
  await page.fill(id('invariant-input'), 'k == 1');
  await page.click(id('invariant-check'));
  await page.waitForFunction(() => /invariant/.test(document.querySelector('[data-testid="invariant-result"] .error')?.textContent ?? ''), null, { timeout: 30_000 });
});

/** `cpa verify --json` with the predicate exercise's knobs. */
function nativeRun(file, preds) {
  const out = execFileSync(CPA, ['verify', join(ROOT, file), '--config', 'predicate-lbe', '--set', `predicates=${preds}`,
    '--set', 'max-refinements=0', '--json'], { encoding: 'utf8' });
  return JSON.parse(out);
}

test('the predicate exercise runs exactly the predicates picked or typed, as natively', async () => {
  await pg.open('unifying-fig2');
  await page.click(id('tab-invariant'));
  assert.equal(await page.inputValue(id('predicate-line')), '8');
  assert.deepEqual(await page.$$eval(id('predicate-suggestion'), (bs) => bs.map((b) => b.textContent)), ['x < 2', 'x != y']);
  // Typed, added with Enter: x == y at the loop head proves the program without refinement.
  await page.fill(id('predicate-input'), 'x == y');
  await page.press(id('predicate-input'), 'Enter');
  assert.equal(await page.getAttribute(id('predicate-list'), 'data-knob'), '8: x == y');
  await page.click(id('predicate-run'));
  await page.waitForSelector(`${id('predicate-result')}[data-verdict]`, { timeout: 60_000 });
  let want = nativeRun('tests/verdicts/unifying-fig2.c', '8: x == y');
  assert.equal(want.verdict, 'true');
  assert.equal(await page.getAttribute(id('predicate-result'), 'data-verdict'), want.verdict);
  assert.equal((await pg.argCounts()).nodes, want.stats.states);
  assert.equal(await page.$$eval(id('refinement'), (r) => r.length), 0, 'no refinement');
  await page.locator(id('predicate-result')).scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(ARTIFACTS, 'view-predicates.png') });
  // Picked from the program's conditions instead: too weak, the run stops at the path it lets through.
  await page.click(id('predicate-remove'));
  await page.click(`${id('predicate-suggestion')}:has-text("x < 2")`);
  assert.equal(await page.getAttribute(id('predicate-list'), 'data-knob'), '8: x < 2');
  assert.equal(await page.$$eval(id('predicate-result'), (r) => r.length), 0, 'the old result is not shown for other predicates');
  await page.click(id('predicate-run'));
  await page.waitForSelector(`${id('predicate-result')}[data-verdict]`, { timeout: 60_000 });
  want = nativeRun('tests/verdicts/unifying-fig2.c', '8: x < 2');
  assert.equal(want.verdict, 'unknown');
  assert.equal(await page.getAttribute(id('predicate-result'), 'data-verdict'), 'unknown');
  assert.ok((await pg.text('verdict')).includes(want.reason), `${await pg.text('verdict')} vs ${want.reason}`);
  assert.equal((await pg.argCounts()).nodes, want.stats.states);
  assert.equal(await page.inputValue(id('config-select')), 'predicate-lbe');
});

test('a proof shows the invariants at their loops, as the correctness witness states them', async () => {
  await pg.open('kinduction-proves', 'predicate-lbe');
  assert.match(await pg.toVerdict(), /TRUE/);
  const w = join(ROOT, 'target', 'kinduction-proves.yml');
  execFileSync(CPA, ['verify', join(ROOT, 'examples/kinduction-proves.c'), '--config', 'predicate-lbe', '--witness', w]);
  const { readFileSync } = await import('node:fs');
  const yaml = readFileSync(w, 'utf8');
  const value = yaml.match(/value: (.*)$/m)[1].replace(/^'|'$/g, '');
  const line = yaml.match(/line: (\d+)/)[1];
  await page.waitForFunction(() => /Invariant at the loop of line/.test(document.querySelector('[data-testid="explain"]').textContent),
    null, { timeout: 10_000 });
  const shown = await pg.text('explain');
  assert.ok(shown.includes(`Invariant at the loop of line ${line}: ${value}`), `${shown} vs ${line}: ${value}`);
});
