// The page's look on a phone, on a projector and in dark mode: screenshots for review, and the
// layout facts that make it usable there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ARTIFACTS, PlaygroundPage, baseUrl, launch } from './harness.mjs';

const box = (page, id) => page.locator(`[data-testid="${id}"]`).first().boundingBox();

/** The default example at the end of its first refinement (the page loaded if `load`; on a
 *  phone the refinements are in a tab not shown, so `state` is 'attached' there). */
async function atFirstRefinement(page, { load = true, state = 'visible' } = {}) {
  const pg = new PlaygroundPage(page);
  if (load) await pg.load(baseUrl(), { ready: false });
  await page.waitForFunction(() => window.cpaDebug?.run()?.phase === 'Idle', null, { timeout: 30_000 });
  await pg.nextRefinement({ state });
}

test('on a phone one view at a time, chosen by tabs; stepping works; nothing is wider than the screen; dark mode applies', async () => {
  const browser = await launch({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    colorScheme: 'dark',
  });
  try {
    const page = await browser.page();
    await page.goto(baseUrl(), { waitUntil: 'load' });
    await page.waitForSelector('[data-testid="cfa-view"] .graph-canvas[aria-busy="false"] svg', { state: 'attached', timeout: 30_000 });
    // Run to a refinement so that every view has content.
    await atFirstRefinement(page, { load: false, state: 'attached' });
    const views = {
      'phone-tab-program': ['editor'],
      'phone-tab-arg': ['explain', 'arg-view'],
      'phone-tab-details': ['interpolants'],
      'phone-tab-graphs': ['cfa-view'],
    };
    const all = Object.values(views).flat();
    for (const [tab, shown] of Object.entries(views)) {
      await page.click(`[data-testid="${tab}"]`);
      for (const id of all) {
        const visible = await page.locator(`[data-testid="${id}"]`).first().isVisible();
        assert.equal(visible, shown.includes(id), `${tab}: ${id} ${shown.includes(id) ? 'shown' : 'hidden'}`);
      }
      for (const id of [...shown, 'btn-step', 'step-index']) {
        const b = await box(page, id);
        assert.ok(b.x >= 0 && b.x + b.width <= 390.5, `${tab}: ${id} fits the screen: ${JSON.stringify(b)}`);
      }
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(scrollWidth <= 390, `${tab}: no horizontal scrolling (${scrollWidth}px)`);
      await page.screenshot({ path: join(ARTIFACTS, `phone-dark-${tab.slice(10)}.png`), fullPage: false });
    }
    // Stepping works from the ARG view.
    await page.click('[data-testid="phone-tab-arg"]');
    const k = await page.evaluate(() => window.cpaDebug?.run().position);
    await page.click('[data-testid="btn-step"]');
    await page.waitForFunction((k) => window.cpaDebug?.run().position === k + 1, k);
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r, g, b] = bg.match(/\d+/g).map(Number);
    assert.ok(r + g + b < 150, `dark background, got ${bg}`);
    await page.screenshot({ path: join(ARTIFACTS, 'phone-dark.png'), fullPage: false });
    await page.screenshot({ path: join(ARTIFACTS, 'phone-dark-full.png'), fullPage: true });
  } finally {
    await browser.close();
  }
});

test('on a projector (1280×720) the stage fits one screen', async () => {
  const browser = await launch({ viewport: { width: 1280, height: 720 } });
  try {
    const page = await browser.page();
    await atFirstRefinement(page);
    const size = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]);
    assert.deepEqual(size, [1280, 720], 'no scrolling');
    for (const id of ['btn-step', 'step-index', 'explain', 'arg-view', 'editor', 'interpolants']) {
      const b = await box(page, id);
      assert.ok(b && b.y >= 0 && b.y + b.height <= 720.5 && b.x + b.width <= 1280.5, `${id} is on screen: ${JSON.stringify(b)}`);
    }
    assert.ok((await box(page, 'arg-view')).height >= 250, 'the ARG has room');
    await page.keyboard.press('p');
    await page.screenshot({ path: join(ARTIFACTS, 'projector-presentation.png') });
    await page.keyboard.press('p');
    await page.keyboard.press('d');
    await page.screenshot({ path: join(ARTIFACTS, 'projector-dark.png') });
  } finally {
    await browser.close();
  }
});

test('every control has a name; ARG states and their details are reachable by keyboard', async () => {
  const browser = await launch({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await browser.page();
    await atFirstRefinement(page);
    for (const open of [null, '[data-testid="btn-knobs"]', '[data-testid="btn-share"]']) {
      if (open) await page.click(open);
      const unnamed = await page.evaluate(() => [...document.querySelectorAll('button, select, input, textarea, [role="tab"], [role="button"], a[href]')]
        .filter((e) => e.getClientRects().length > 0)
        .filter((e) => !((e.getAttribute('aria-label') || '').trim() || (e.textContent || '').trim() || (e.getAttribute('title') || '').trim() || (e.labels && e.labels.length) || (e.closest('label') && e.closest('label').textContent.trim())))
        .map((e) => e.outerHTML.slice(0, 160)));
      assert.deepEqual(unnamed, [], `controls without a name${open ? ` (${open} open)` : ''}`);
      if (open) await page.keyboard.press('Escape');
      await page.waitForSelector('[data-testid="knobs"], [data-testid="share-dialog"]', { state: 'detached' });
    }
    // Tab reaches the ARG's states; Enter opens the state's details.
    await page.focus('[data-testid="arg-view"] g.arg-node');
    const state = await page.evaluate(() => document.activeElement.dataset.id);
    assert.ok(state !== undefined, 'an ARG state takes the focus');
    const position = await page.evaluate(() => window.cpaDebug?.run().position);
    await page.keyboard.press('Enter');
    await page.waitForFunction((s) => document.querySelector('[data-testid="node-details"]')?.dataset.state === s, state);
    assert.equal(await page.getAttribute('[data-testid="tab-node"]', 'aria-selected'), 'true');
    assert.equal(await page.evaluate(() => window.cpaDebug?.run().position), position, 'Enter on a state does not step');
    await page.keyboard.press(' ');
    assert.equal(await page.evaluate(() => window.cpaDebug?.run().position), position, 'nor does Space');
  } finally {
    await browser.close();
  }
});

test('the ARG pans by dragging, zooms with the wheel and by pinching, and a click still selects a state', async () => {
  const browser = await launch({ viewport: { width: 1280, height: 800 }, hasTouch: true });
  try {
    const page = await browser.page();
    await atFirstRefinement(page);
    const transform = () => page.evaluate(() => {
      const m = new DOMMatrix(getComputedStyle(document.querySelector('.arg-layer')).transform);
      return { x: m.e, y: m.f, k: m.a };
    });
    const canvas = await page.locator('.arg-canvas').boundingBox();
    const cx = canvas.x + canvas.width / 2;
    const cy = canvas.y + canvas.height / 2;
    await page.waitForTimeout(400);
    const t0 = await transform();
    // Two fingers moving apart zoom in (touch events, as a phone sends them).
    const cdp = await page.context().newCDPSession(page);
    const touch = (type, d) => cdp.send('Input.dispatchTouchEvent', {
      type,
      touchPoints: type === 'touchEnd' ? [] : [{ x: cx - d, y: cy, id: 1 }, { x: cx + d, y: cy, id: 2 }],
    });
    await touch('touchStart', 20);
    for (const d of [25, 30, 35, 40]) await touch('touchMove', d);
    await touch('touchEnd', 0);
    await page.waitForTimeout(100);
    const t1 = await transform();
    assert.ok(t1.k > t0.k * 1.3, `pinch: scale ${t0.k} -> ${t1.k}`);
    // The wheel zooms out around the pointer.
    await page.mouse.move(cx, cy);
    await page.mouse.wheel(0, 300);
    await page.waitForTimeout(100);
    const t2 = await transform();
    assert.ok(t2.k < t1.k / 1.2, `wheel: scale ${t1.k} -> ${t2.k}`);
    // A drag on the background pans, and selects nothing (d3-zoom ignores the mouse for
    // 500 ms after a touch, as browsers emulate mouse events then).
    await page.waitForTimeout(600);
    const selected = () => page.locator('[data-testid="arg-view"] g.arg-node.selected').count();
    await page.mouse.move(canvas.x + 8, canvas.y + 8);
    await page.mouse.down();
    await page.mouse.move(canvas.x + 68, canvas.y + 48, { steps: 5 });
    await page.mouse.up();
    const t3 = await transform();
    assert.ok(Math.abs(t3.x - t2.x - 60) < 2 && Math.abs(t3.y - t2.y - 40) < 2, `drag: ${JSON.stringify([t2, t3])}`);
    assert.equal(await selected(), 0);
    // The fit button brings the whole graph back; a click on a state selects it.
    await page.click('.arg-tools button:has-text("fit")');
    await page.waitForTimeout(400);
    await page.locator('[data-testid="arg-view"] g.arg-node').first().click();
    assert.equal(await selected(), 1);
  } finally {
    await browser.close();
  }
});
