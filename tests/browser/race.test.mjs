// The race (details tab "Race"): every preset runs on the program in a second worker; each
// row's verdict, steps, states, refinements and solver queries equal `cpa verify --json` for
// that preset, on three gallery examples. A row opens its preset's run; a race is
// cancellable at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARTIFACTS, id, usePlayground } from './harness.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CPA = join(ROOT, 'target', 'release', 'cpa');

function native(file, preset) {
  const out = execFileSync(CPA, ['verify', '--json', '--config', preset, join(ROOT, file)], { encoding: 'utf8' });
  const d = JSON.parse(out);
  const s = d.stats;
  return { verdict: d.verdict, steps: s.steps, states: s.states, refinements: s.refinements, queries: s.solver_queries };
}

async function rows(page) {
  return page.$$eval(`${id('race-row')}`, (rs) => rs.map((r) => ({
    preset: r.dataset.preset,
    verdict: r.dataset.verdict,
    steps: Number(r.dataset.steps),
    states: Number(r.dataset.states),
    refinements: Number(r.dataset.refinements),
    queries: Number(r.dataset.queries),
  })));
}

let page;
let pg;
const ctx = usePlayground({ viewport: { width: 1280, height: 800 } }, { setup: (c) => { ({ page, pg } = c); } });

test('every preset in the race gives the CLI verdict and statistics', async () => {
  for (const [ex, file] of [['mem-swap', 'swap'], ['max-bug', 'max-bug'], ['lbe-figure2', 'lbe-figure2']]) {
    await pg.open(ex);
    await page.click(id('tab-race'));
    await page.click(id('btn-race'));
    await page.waitForFunction(() => document.querySelector('[data-testid="race-table"]')?.dataset.running === 'false', null, { timeout: 240_000 });
    const got = await rows(page);
    assert.equal(got.length, 12, ex);
    for (const r of got) {
      const want = native(`examples/${file}.c`, r.preset);
      const { preset, ...figures } = r;
      assert.deepEqual(figures, want, `${ex} ${preset}`);
    }
    if (ex === 'mem-swap') await page.locator(id('race-panel')).screenshot({ path: join(ARTIFACTS, 'view-race.png') });
  }
  // Sorting by states keeps every row; a row opens its preset's run.
  await page.click('.race-table thead th:nth-child(4) button');
  const sorted = (await rows(page)).map((r) => r.states);
  assert.deepEqual(sorted, [...sorted].sort((a, b) => a - b));
  await page.click(`${id('race-row')}[data-preset="impact"]`);
  await page.waitForFunction(() => document.querySelector('[data-testid="config-select"]')?.value === 'impact', null, { timeout: 10_000 });
});

test('a race is cancelled at once', async () => {
  await pg.open('kinduction-proves');
  await page.click(id('tab-race'));
  await page.click(id('btn-race'));
  // predicate-sbe, second in the table, runs for longer than a minute on this program.
  await page.waitForSelector(`${id('race-row')}[data-preset="predicate-sbe"][data-verdict="running"]`, { timeout: 60_000 });
  const t0 = Date.now();
  await page.click(id('btn-race-cancel'));
  await page.waitForFunction(() => document.querySelector('[data-testid="race-table"]')?.dataset.running === 'false', null, { timeout: 5_000 });
  assert.ok(Date.now() - t0 < 5_000);
  const got = await rows(page);
  assert.equal(got.find((r) => r.preset === 'predicate-lbe').verdict, 'true');
  assert.ok(got.filter((r) => r.verdict === 'cancelled').length >= 10);
  // The run being stepped is untouched: its worker is another one.
  await pg.steps(3);
});
