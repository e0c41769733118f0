// Every example of the gallery builds and renders, and every frame of a replay lays out
// (viz.js has trapped on some DOT input before: see web/src/dot.rs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { usePlayground } from './harness.mjs';

let page;
const ctx = usePlayground({}, { setup: (c) => { ({ page } = c); } });

/** Node and edge counts shown, and drawn, by a view once its layout is current. */
async function viewState(id) {
  // The LBE view may be in a hidden tab: laid out all the same.
  await ctx.pg.graphSettled(id);
  return page.evaluate((id) => {
    const v = document.querySelector(`[data-testid="${id}"]`);
    const count = (what) => Number(v.querySelector(`[data-testid="${id.replace('-view', '')}-${what}-count"]`).textContent);
    return {
      shown: [count('node'), count('edge')],
      drawn: [v.querySelectorAll('svg g.node:not(.eliminated)').length, v.querySelectorAll('svg g.edge:not(.removed)').length],
      error: v.querySelector('.graph-error')?.textContent ?? null,
    };
  }, id);
}

test('every example builds a CFA and both views render it', async () => {
  const keys = await page.$$eval('[data-testid="example-select"] option', (os) => os.map((o) => o.value));
  assert.ok(keys.length >= 8, `gallery: ${keys}`);
  for (const key of keys) {
    await page.selectOption('[data-testid="example-select"]', key);
    const file = await page.textContent('.editor-panel h2');
    // The views show this example once they carry its file name.
    await page.waitForSelector(`[data-testid="cfa-view"][data-file="${file}"]`, { state: 'attached', timeout: 30_000 });
    assert.equal(await page.locator('[data-testid="diagnostics"] li').count(), 0, `${key} parses`);
    for (const id of ['cfa-view', 'lbe-view']) {
      const s = await viewState(id);
      assert.equal(s.error, null, `${key} ${id}`);
      assert.ok(s.shown[0] > 0, `${key} ${id} has nodes`);
      assert.deepEqual(s.drawn, s.shown, `${key} ${id}: drawn = counted`);
    }
  }
});

test('every frame of the Figure 1 replay lays out', async () => {
  await page.selectOption('[data-testid="example-select"]', 'lbe-figure1');
  await page.waitForFunction(() => document.querySelector('[data-testid="cfa-node-count"]')?.textContent === '32');
  await page.click('[data-testid="tab-lbe"]');
  await page.click('[data-testid="lbe-step-reset"]');
  const total = Number((await page.textContent('[data-testid="lbe-step-label"]')).match(/\/(\d+)$/)[1]);
  let previous = await viewState('lbe-view');
  assert.deepEqual(previous.shown, [32, 39]);
  for (let k = 1; k <= total; k++) {
    await page.click('[data-testid="lbe-step-forward"]');
    const s = await viewState('lbe-view');
    assert.equal(s.error, null, `frame ${k}`);
    assert.deepEqual(s.drawn, s.shown, `frame ${k}: drawn = counted`);
    // Each rule application removes at least one edge (that is why the rules terminate).
    assert.ok(s.shown[1] < previous.shown[1] || (await page.textContent('[data-testid="lbe-step-label"]')).startsWith('Rule 0'), `frame ${k} shrinks`);
    previous = s;
  }
  assert.deepEqual(previous.shown, [3, 2]);
});
