// Share links: a link made at a step of a run opens in a fresh browser profile at the same
// step with the same ARG, statistics and verdict (the engine is deterministic); gallery links
// are short; the committed v1 links still open; bad links say why and start empty; the
// address bar follows the state (back and forward); embed and presentation modes; the theme
// is remembered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARTIFACTS, PlaygroundPage, baseUrl, id, inFreshProfile, usePlayground } from './harness.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

let page;
let pg;
const ctx = usePlayground({ viewport: { width: 1280, height: 800 } }, { setup: (c) => { ({ page, pg } = c); } });

const settledAt = (p, position, timeout) => new PlaygroundPage(p).settledAt(position, timeout);
const snapshot = (p) => new PlaygroundPage(p).snapshot();
const shareUrl = () => pg.shareUrl();
const open = (key, preset) => pg.open(key, preset);
const steps = (n) => pg.steps(n);
const openInFreshProfile = (url, check) => inFreshProfile(url, (other) => check(other.page));

const CASES = [
  { key: 'unifying-fig2', preset: 'predicate-lbe', steps: 25 },
  { key: 'refine-loop', preset: 'impact', steps: 60 },
  { key: 'max-bug', preset: 'bmc', steps: null },
  { key: 'kinduction-proves', preset: 'kinduction', steps: null },
  { key: 'gcd', preset: 'predicate-sbe', steps: 200, edit: true },
];

test('a link opens the same run at the same step in a fresh browser profile', async () => {
  for (const c of CASES) {
    await open(c.key, c.preset);
    if (c.edit) {
      // A program that is no longer the gallery's: the link carries its text.
      await page.locator('.cm-content').click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type('\n// edited\n');
      // The CFA is rebuilt 300 ms after the last keystroke, and a new run starts.
      await page.waitForTimeout(1000);
      await settledAt(page, 0, 30_000);
    }
    if (c.steps === null) {
      await page.click(id('btn-end'));
      await settledAt(page, null);
    } else {
      await steps(c.steps);
    }
    await page.click(id('tab-stats'));
    const made = await snapshot(page);
    const url = await shareUrl();
    assert.match(url, /#v1=[A-Za-z0-9_-]+$/);
    // The address bar follows the state (its entry is rewritten at most every 250 ms).
    await page.waitForFunction((h) => location.hash === h, url.slice(url.indexOf('#')), { timeout: 2_000 });
    const fragment = url.slice(url.indexOf('#') + 1);
    console.log(`# ${c.key} ${c.preset} at ${made.step}: fragment of ${fragment.length} characters`);
    if (!c.edit) assert.ok(fragment.length < 120, `a gallery link is short: ${fragment.length}`);
    const opened = await openInFreshProfile(url, async (p) => {
      await p.waitForSelector(`${id('engine-status')}.ready`, { timeout: 30_000 });
      await settledAt(p, c.steps, 120_000);
      await p.waitForFunction(() => document.querySelector('[data-testid="tab-stats"]')?.getAttribute('aria-selected') === 'true');
      if (c.key === 'gcd') await p.screenshot({ path: join(ARTIFACTS, 'share-opened.png') });
      return snapshot(p);
    });
    assert.deepEqual(opened, made, `${c.key} ${c.preset}`);
  }
});

test('stepping rewrites the address bar at most every 250 ms, and it ends on the state shown', async () => {
  await open('refine-loop', 'predicate-lbe');
  await page.evaluate(() => {
    window.__replaced = 0;
    const replace = history.replaceState.bind(history);
    history.replaceState = (...a) => { window.__replaced += 1; return replace(...a); };
  });
  const t0 = Date.now();
  await steps(40);
  const elapsed = Date.now() - t0;
  await page.waitForTimeout(400);
  const replaced = await page.evaluate(() => window.__replaced);
  assert.ok(replaced >= 1 && replaced <= Math.ceil(elapsed / 250) + 2, `${replaced} rewrites in ${elapsed} ms of 40 steps`);
  const url = await shareUrl();
  assert.equal(await page.evaluate(() => location.hash), url.slice(url.indexOf('#')));
  await page.evaluate(() => { delete history.replaceState; });
});

test('the committed v1 links still open', async () => {
  const fixtures = readFileSync(join(ROOT, 'web', 'tests', 'links', 'v1.tsv'), 'utf8')
    .split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split('\t'));
  for (const [fragment, summary] of fixtures) {
    await page.goto(`${baseUrl()}#${fragment}`, { waitUntil: 'load' });
    const step = Number(summary.match(/step (\d+)/)[1]);
    const preset = summary.match(/; ([a-z-]+) \[/)[1];
    await settledAt(page, step, 120_000);
    assert.equal(await page.inputValue(id('config-select')), preset, summary);
    const example = summary.match(/^example ([a-z0-9_-]+)/)?.[1];
    if (example) assert.equal(await page.inputValue(id('example-select')), example, summary);
    else assert.equal(await page.textContent('.editor-panel h2'), summary.match(/^text (\S+)/)[1]);
    assert.equal(await page.locator(id('link-error')).count(), 0);
  }
});

test('a bad link says why and opens an empty playground', async () => {
  const good = readFileSync(join(ROOT, 'web', 'tests', 'links', 'v1.tsv'), 'utf8').split('\n').find((l) => l.startsWith('v1=')).split('\t')[0];
  const bad = [
    [good.slice(0, good.length - 9), /damaged/],
    ['v9=' + good.slice(3), /newer release \(schema v9\)/],
    ['hello', /not a playground link/],
    ['v1=' + 'A'.repeat(70_000), /too long/],
    ['v1=<img src=x onerror=alert(1)>', /damaged/],
  ];
  for (const [fragment, why] of bad) {
    const errors = ctx.browser.logs.length;
    await page.goto(`${baseUrl()}#${fragment}`, { waitUntil: 'load' });
    await page.waitForSelector(id('link-error'), { timeout: 30_000 });
    assert.match(await page.textContent(id('link-error')), why);
    assert.equal((await page.locator('.cm-content').innerText()).trim(), '', 'the playground is empty');
    assert.equal(await page.locator(`${id('link-error')} img`).count(), 0, 'rendered as text');
    assert.ok(!ctx.browser.logs.slice(errors).some((l) => l.includes('[pageerror]')), ctx.browser.logs.slice(errors).join('\n'));
  }
  await page.screenshot({ path: join(ARTIFACTS, 'share-bad-link.png') });
});

test('back and forward walk through the programs and analyses shown, each at its step', async () => {
  await pg.load();
  /** Where the page is: the example, the analysis, the run's file and preset, the step. */
  const where = async () => {
    const r = await pg.run();
    return {
      example: await page.inputValue(id('example-select')),
      preset: await page.inputValue(id('config-select')),
      run: r && `${r.file} ${r.preset} ${r.position}`,
      step: await pg.text('step-index'),
      text: (await page.locator('.cm-content').innerText()).slice(0, 80),
    };
  };
  /** Waits until the address bar holds the state shown (it is rewritten after 250 ms). */
  const urlSettled = () => page.waitForFunction(() => {
    const r = window.cpaDebug?.run();
    return r && r.phase === 'Idle' && location.hash.length > 4;
  }).then(() => page.waitForTimeout(400));
  await open('lbe-figure1', null);
  await urlSettled();
  const first = await where();
  await open('max-bug', 'bmc');
  await steps(5);
  await urlSettled();
  const second = await where();
  assert.equal(second.run, 'max-bug.c bmc 5');
  await open('gcd', null);
  await urlSettled();
  const third = await where();
  const at = async (want, what) => {
    await page.waitForFunction((w) => {
      const r = window.cpaDebug?.run();
      return r && r.phase === 'Idle' && `${r.file} ${r.preset} ${r.position}` === w;
    }, want.run, { timeout: 20_000 }).catch(async (e) => {
      assert.fail(`${what}: ${e.message}; at ${JSON.stringify(await where())}, ${await page.evaluate(() => location.hash)}`);
    });
    assert.deepEqual(await where(), want, what);
  };
  // Picking max-bug showed it with its own analysis first: an entry of its own.
  const between = { ...first, example: 'max-bug', run: 'max-bug.c predicate-lbe 0', text: second.text };
  await page.goBack();
  await at(second, 'back to max-bug with bmc at event 5');
  await page.goBack();
  await at(between, 'back to max-bug with predicate-lbe');
  await page.goBack();
  await at(first, 'back to lbe-figure1 with predicate-lbe at event 0');
  await page.goForward();
  await page.goForward();
  await at(second, 'forward to max-bug with bmc at event 5');
  await page.goForward();
  await at(third, 'forward to gcd');
});

test('embed and presentation modes; the theme is remembered', async () => {
  await open('unifying-fig2', 'predicate-lbe');
  await steps(12);
  await page.click(id('btn-share'));
  const embed = await page.inputValue(id('share-embed-url'));
  const iframe = await page.inputValue(id('share-iframe'));
  await page.screenshot({ path: join(ARTIFACTS, 'share-dialog.png') });
  await page.keyboard.press('Escape');
  assert.match(embed, /\?embed#v1=/);
  assert.ok(iframe.startsWith('<iframe src="') && iframe.includes(embed), iframe);

  await page.goto(embed, { waitUntil: 'load' });
  await settledAt(page, 12, 60_000);
  assert.equal(await page.locator(`.app.embed`).count(), 1);
  assert.equal(await page.locator(id('example-select')).isVisible(), false);
  const full = await page.getAttribute(id('open-in-playground'), 'href');
  assert.ok(full.includes('#v1=') && !full.includes('embed'), full);
  const before = await page.locator('.cm-content').innerText();
  assert.equal(await page.getAttribute('.cm-content', 'contenteditable'), 'false');
  await page.locator('.cm-content').click();
  await page.keyboard.type('xx');
  assert.equal(await page.locator('.cm-content').innerText(), before, 'read-only');
  await page.locator(id('btn-step')).click();
  await settledAt(page, 13);
  await page.screenshot({ path: join(ARTIFACTS, 'embed.png') });

  // Chosen views: only the ARG (with its explanation) and the details.
  await page.goto(embed.replace('?embed#', '?embed=arg,details#'), { waitUntil: 'load' });
  await settledAt(page, 12, 60_000);
  for (const [view, shown] of [['editor', false], ['cfa-view', false], ['arg-view', true], ['explain', true], ['interpolants', true]]) {
    assert.equal(await page.locator(id(view)).first().isVisible(), shown, `?embed=arg,details: ${view}`);
  }
  await page.screenshot({ path: join(ARTIFACTS, 'embed-arg-details.png') });

  await page.goto(`${baseUrl()}?present${full.slice(full.indexOf('#'))}`, { waitUntil: 'load' });
  await settledAt(page, 12, 60_000);
  assert.equal(await page.locator('.app.presentation').count(), 1);
  await page.screenshot({ path: join(ARTIFACTS, 'present.png') });

  // Dark mode is remembered across visits.
  await page.goto(baseUrl(), { waitUntil: 'load' });
  const theme = () => page.evaluate(() => document.documentElement.dataset.theme ?? '');
  const first = await theme();
  await page.locator(id('explain')).click();
  await page.keyboard.press('d');
  const toggled = await theme();
  assert.notEqual(toggled, first);
  await page.reload({ waitUntil: 'load' });
  await page.waitForSelector(id('config-select'));
  assert.equal(await theme(), toggled);
});

test('exports: DOT that Graphviz lays out, SVG, and the run JSON of cpa verify --json --events', async () => {
  await page.goto(baseUrl(), { waitUntil: 'load' });
  await page.waitForSelector(`${id('engine-status')}.ready`, { timeout: 30_000 });
  await open('max-bug', 'bmc');
  await page.click(id('btn-end'));
  await settledAt(page, null);
  await page.click(id('btn-share'));
  const fetchExport = async (testid) => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(id(testid))]);
    const path = await download.path();
    return { name: download.suggestedFilename(), text: readFileSync(path, 'utf8') };
  };
  for (const g of ['cfa', 'lbe', 'arg']) {
    const dot = await fetchExport(`export-${g}-dot`);
    assert.equal(dot.name, `max-bug-${g}.dot`);
    assert.match(dot.text, /^digraph /);
    const svg = await page.evaluate((d) => window.CpaPage.renderDot(d), dot.text);
    assert.match(svg, /<svg/, `${g}: Graphviz lays the DOT out`);
    const file = await fetchExport(`export-${g}-svg`);
    assert.match(file.text, /<svg[\s\S]*<\/svg>\s*$/, `${g}.svg`);
  }
  const arg = (await fetchExport('export-arg-dot')).text;
  const states = Number(await page.textContent(id('arg-node-count')));
  assert.equal((arg.match(/^ {2}s\d+ \[id=/gm) || []).length, states, 'one DOT node per ARG state');

  const run = JSON.parse((await fetchExport('export-run-json')).text);
  const want = JSON.parse(execFileSync(join(ROOT, 'target', 'release', 'cpa'),
    ['verify', join(ROOT, 'examples', 'max-bug.c'), '--config', 'bmc', '--json', '--events'], { encoding: 'utf8', maxBuffer: 1 << 28 }));
  for (const v of [run, want]) for (const k of Object.keys(v.stats)) if (k.endsWith('_ms')) delete v.stats[k];
  assert.deepEqual(run, want);

  // The witness: what cpa verify --witness writes (but the creation time), and confirmed.
  const witness = await fetchExport('export-witness');
  assert.equal(witness.name, 'max-bug-witness.yml');
  assert.match(witness.text, /entry_type: violation_sequence/);
  const dir = mkdtempSync(join(tmpdir(), 'cpa-witness-'));
  const cli = join(dir, 'cli.yml');
  execFileSync(join(ROOT, 'target', 'release', 'cpa'),
    ['verify', join(ROOT, 'examples', 'max-bug.c'), '--config', 'bmc', '--witness', cli]);
  const noTime = (t) => t.replace(/creation_time: .*/, '');
  assert.equal(noTime(witness.text), noTime(readFileSync(cli, 'utf8')));
  const page_yml = join(dir, 'page.yml');
  writeFileSync(page_yml, witness.text);
  const said = execFileSync(join(ROOT, 'target', 'release', 'cpa'),
    ['validate-witness', join(ROOT, 'examples', 'max-bug.c'), page_yml], { encoding: 'utf8' });
  assert.equal(said.trim(), 'confirmed');
  await page.keyboard.press('Escape');

  // A TRUE: its loop invariants, confirmed inductive and sufficient.
  await open('refine-loop', 'predicate-lbe');
  await page.click(id('btn-end'));
  await settledAt(page, null);
  await page.click(id('btn-share'));
  await page.locator(id('share-dialog')).screenshot({ path: join(ARTIFACTS, 'share-dialog-witness.png') });
  const proof = await fetchExport('export-witness');
  assert.match(proof.text, /entry_type: invariant_set/);
  assert.match(proof.text, /type: loop_invariant/);
  const proof_yml = join(dir, 'proof.yml');
  writeFileSync(proof_yml, proof.text);
  const judged = execFileSync(join(ROOT, 'target', 'release', 'cpa'),
    ['validate-witness', join(ROOT, 'examples', 'refine-loop.c'), proof_yml], { encoding: 'utf8' });
  assert.equal(judged.trim(), 'confirmed');
  await page.keyboard.press('Escape');
});
