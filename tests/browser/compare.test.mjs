// Compare mode: a second analysis of the same program beside the first, in its own worker.
// Both sides give the events and verdicts of two separate `cpa verify --json --events` runs;
// stepping by refinement lands each side on its own k-th refinement; each side steps alone
// too; the difference strip names the first event where the runs part.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARTIFACTS, id, inFreshProfile, usePlayground } from './harness.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CPA = join(ROOT, 'target', 'release', 'cpa');

function native(file, preset) {
  const out = execFileSync(CPA, ['verify', '--json', '--events', '--config', preset, join(ROOT, file)], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const d = JSON.parse(out);
  const refined = d.events.flatMap((e, i) => (e.type === 'refined' ? [i + 1] : []));
  return { verdict: d.verdict, events: d.events, refined };
}

const side = (page, which) => page.$eval(id(`compare-${which}`), (s) => ({
  preset: s.dataset.preset, position: Number(s.dataset.position), verdict: s.dataset.verdict,
}));

let page;
let pg;
const ctx = usePlayground({ viewport: { width: 1280, height: 800 } }, { setup: (c) => { ({ page, pg } = c); } });

test('both sides run as the CLI, step together by event or by refinement, and alone', async () => {
  await pg.open('refine-loop');
  await page.click(id('btn-compare'));
  await page.waitForSelector(id('compare-right'));
  assert.equal((await side(page, 'left')).preset, 'predicate-lbe');
  assert.equal((await side(page, 'right')).preset, 'predicate-sbe');
  const left = native('examples/refine-loop.c', 'predicate-lbe');
  const right = native('examples/refine-loop.c', 'predicate-sbe');

  // By refinement: each side at its own k-th refinement.
  await page.selectOption(id('compare-sync'), 'refinement');
  for (let k = 1; k <= 3; k++) {
    await page.click(id('btn-next-refinement'));
    await page.waitForFunction(([a, b]) => {
      const l = document.querySelector('[data-testid="compare-left"]');
      const r = document.querySelector('[data-testid="compare-right"]');
      return Number(l.dataset.position) === a && Number(r.dataset.position) === b;
    }, [left.refined[k - 1], right.refined[k - 1]], { timeout: 60_000 });
  }
  // The strip names where the runs part: the first event that differs, as the CLI's logs say.
  const want = left.events.findIndex((e, i) => JSON.stringify(e) !== JSON.stringify(right.events[i])) + 1;
  const diverge = Number(await page.getAttribute(id('compare-diff'), 'data-diverge'));
  assert.equal(diverge, want);
  await page.locator(id('compare')).screenshot({ path: join(ARTIFACTS, 'view-compare.png') });
  // The exports: the strip's figures step by step as CSV, and states over events as SVG.
  const download = async (testid) => {
    const [d] = await Promise.all([page.waitForEvent('download'), page.click(id(testid))]);
    return readFileSync(await d.path(), 'utf8');
  };
  const csv = (await download('compare-export-csv')).trim().split('\n');
  assert.equal(csv[0], 'side,preset,event,steps,states,refinements,solver_queries,abstractions,solver_ms');
  const lastOf = (s) => csv.filter((l) => l.startsWith(`${s},`)).at(-1).split(',');
  for (const [s, f] of [['left', await side(page, 'left')], ['right', await side(page, 'right')]]) {
    const row = lastOf(s);
    assert.equal(row[1], f.preset);
    assert.ok(Number(row[2]) <= f.position, `${s}: ${row}`);
  }
  const strip = await page.$$eval(`${id('compare-diff')} tbody tr`, (rs) => rs.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)));
  assert.equal(lastOf('left')[4], strip[0][1], 'states, left');
  assert.equal(lastOf('right')[4], strip[1][1], 'states, right');
  const svg = await download('compare-export-svg');
  assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.equal((svg.match(/<polyline/g) ?? []).length, 2);
  assert.ok(svg.includes('>predicate-sbe<'));

  // The right side alone: one more event there, the left side stays.
  const before = await side(page, 'left');
  const r0 = (await side(page, 'right')).position;
  await page.click(id('compare-step'));
  await page.waitForFunction((k) => Number(document.querySelector('[data-testid="compare-right"]').dataset.position) === k, r0 + 1, { timeout: 30_000 });
  assert.deepEqual(await side(page, 'left'), before);

  // By event, to the verdicts: both sides end as the CLI's runs, with as many events.
  await page.selectOption(id('compare-sync'), 'event');
  await page.click(id('btn-end'));
  await page.waitForFunction(() => ['left', 'right'].every((w) => document.querySelector(`[data-testid="compare-${w}"]`).dataset.verdict !== ''), null, { timeout: 120_000 });
  assert.deepEqual(await side(page, 'left'), { preset: 'predicate-lbe', position: left.events.length, verdict: left.verdict });
  assert.deepEqual(await side(page, 'right'), { preset: 'predicate-sbe', position: right.events.length, verdict: right.verdict });
  // Event for event, each side is the CLI's run.
  assert.deepEqual(await page.evaluate(() => window.cpaDebug.events()), left.events);
  assert.deepEqual(await page.evaluate(() => window.cpaDebug.events('right')), right.events);

  // Another analysis on the right; closing compare mode leaves the left run as it is.
  await page.selectOption(id('compare-preset'), 'kinduction');
  await page.waitForFunction(() => document.querySelector('[data-testid="compare-right"]').dataset.preset === 'kinduction'
    && !document.querySelector('[data-testid="compare-end"]').disabled, null, { timeout: 30_000 });
  await page.click(id('compare-end'));
  const k = native('examples/refine-loop.c', 'kinduction');
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid="compare-right"]').dataset.position) === n, k.events.length, { timeout: 120_000 });
  assert.equal((await side(page, 'right')).verdict, k.verdict);
  await page.click(id('btn-compare'));
  await page.waitForSelector(id('compare'), { state: 'detached' });
  assert.equal((await pg.run()).position, left.events.length);
});

test('in step by CFA location, the right side goes to its own next state where the left one is', async () => {
  await pg.open('refine-loop');
  await page.click(id('btn-compare'));
  await page.waitForSelector(id('compare-right'));
  await page.selectOption(id('compare-sync'), 'location');
  const left = native('examples/refine-loop.c', 'predicate-lbe');
  const right = native('examples/refine-loop.c', 'predicate-sbe');
  const newest = (events, k) => events.slice(0, k).findLast((e) => e.type === 'state_added')?.location;
  let want = (await side(page, 'right')).position;
  let moved = 0;
  for (let k = 1; k <= 14; k++) {
    await page.click(id('btn-step'));
    const loc = newest(left.events, k);
    if (loc !== undefined && newest(right.events, want) !== loc && want < right.events.length) {
      const j = right.events.findIndex((e, i) => i >= want && e.type === 'state_added' && e.location === loc);
      want = j === -1 ? right.events.length : j + 1;
      moved += 1;
    }
    await page.waitForFunction(([a, b]) => {
      const l = document.querySelector('[data-testid="compare-left"]');
      const r = document.querySelector('[data-testid="compare-right"]');
      return Number(l.dataset.position) === a && Number(r.dataset.position) === b;
    }, [k, want], { timeout: 30_000 });
  }
  assert.ok(moved >= 3, `the right side followed ${moved} times`);
  assert.equal(await page.inputValue(id('compare-sync')), 'location');
  await page.click(id('btn-compare'));
  await page.waitForSelector(id('compare'), { state: 'detached' });
});

test('a comparison link opens both sides at their positions in a fresh profile; ?compare=A,B opens one', async () => {
  await pg.open('refine-loop');
  await page.click(id('btn-compare'));
  await page.waitForSelector(id('compare-right'));
  await page.selectOption(id('compare-sync'), 'alone');
  await pg.steps(7);
  for (let k = 0; k < 3; k++) {
    const r = Number(await page.getAttribute(id('compare-right'), 'data-position'));
    await page.click(id('compare-step'));
    await page.waitForFunction((n) => Number(document.querySelector('[data-testid="compare-right"]').dataset.position) === n, r + 1, { timeout: 30_000 });
  }
  const want = { left: await side(page, 'left'), right: await side(page, 'right') };
  assert.deepEqual([want.left.position, want.right.position], [7, 3]);
  const url = await pg.shareUrl();
  await inFreshProfile(url, async (other) => {
    const p = other.page;
    await p.waitForFunction(([l, r]) => {
      const a = document.querySelector('[data-testid="compare-left"]');
      const b = document.querySelector('[data-testid="compare-right"]');
      return a && b && Number(a.dataset.position) === l && Number(b.dataset.position) === r;
    }, [want.left.position, want.right.position], { timeout: 60_000 });
    assert.deepEqual(await side(p, 'left'), want.left);
    assert.deepEqual(await side(p, 'right'), want.right);
    assert.equal(await p.inputValue(id('compare-sync')), 'alone');
  });
  const base = url.split('#')[0];
  const sep = base.includes('?') ? '&' : '?';
  await inFreshProfile(`${base}${sep}compare=bmc,kinduction`, async (other) => {
    const p = other.page;
    await p.waitForSelector(`${id('compare-right')}[data-preset="kinduction"]`, { timeout: 30_000 });
    assert.equal((await side(p, 'left')).preset, 'bmc');
  });
  // Embedded, the comparison stays.
  await inFreshProfile(`${base}${sep}embed#${url.split('#')[1]}`, async (other) => {
    await other.page.waitForFunction(([l, r]) => {
      const a = document.querySelector('[data-testid="compare-left"]');
      const b = document.querySelector('[data-testid="compare-right"]');
      return a && b && Number(a.dataset.position) === l && Number(b.dataset.position) === r;
    }, [want.left.position, want.right.position], { timeout: 60_000 });
  });
  await inFreshProfile(`${base}${sep}compare=bmc,nonsense`, async (other) => {
    await other.page.waitForSelector(id('link-error'), { timeout: 30_000 });
    assert.match(await other.page.textContent(id('link-error')), /'nonsense' is not an analysis/);
  });
  await page.click(id('btn-compare'));
  await page.waitForSelector(id('compare'), { state: 'detached' });
});

test('compare mode on a projector and on a phone', async () => {
  await pg.open('refine-loop');
  await page.click(id('btn-compare'));
  await page.waitForSelector(id('compare-right'));
  await page.selectOption(id('compare-sync'), 'refinement');
  await page.click(id('btn-next-refinement'));
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="compare-right"]').dataset.position) > 0, null, { timeout: 30_000 });
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.locator(id('explain')).click();
  await page.keyboard.press('p');
  await page.screenshot({ path: join(ARTIFACTS, 'compare-projector.png') });
  await page.locator(id('explain')).click();
  await page.keyboard.press('p');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.click(id('phone-tab-arg'));
  await page.screenshot({ path: join(ARTIFACTS, 'compare-phone.png'), fullPage: false });
  assert.ok(await page.locator(id('compare-diff')).isVisible());
  // On a phone the sides are tabs; the strip stays.
  assert.ok(await page.locator(id('compare-left')).isVisible());
  assert.ok(!(await page.locator(id('compare-right')).isVisible()));
  await page.click(id('compare-tab-right'));
  assert.ok(await page.locator(id('compare-right')).isVisible());
  assert.ok(!(await page.locator(id('compare-left')).isVisible()));
  await page.screenshot({ path: join(ARTIFACTS, 'compare-phone-right.png'), fullPage: false });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.click(id('btn-compare'));
});
