// The page's look on a phone, on a projector and in dark mode: screenshots for review, and the
// layout facts that make it usable there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, baseUrl, ARTIFACTS } from './harness.mjs';

const box = (page, id) => page.locator(`[data-testid="${id}"]`).first().boundingBox();

test('on a phone the views stack under the editor; nothing is wider than the screen; dark mode applies', async () => {
  const browser = await launch({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    colorScheme: 'dark',
  });
  try {
    const page = await browser.page();
    await page.goto(baseUrl(), { waitUntil: 'load' });
    await page.waitForSelector('[data-testid="cfa-view"] .graph-canvas[aria-busy="false"] svg', { timeout: 30_000 });
    // Run to a refinement so that every view has content.
    await page.waitForFunction(() => window.cpaDebug.run()?.phase === 'Idle', null, { timeout: 30_000 });
    await page.click('[data-testid="btn-next-refinement"]');
    await page.waitForSelector('[data-testid="refinement"]', { timeout: 30_000 });
    const editor = await box(page, 'editor');
    const cfa = await box(page, 'cfa-view');
    const arg = await box(page, 'arg-view');
    assert.ok(cfa.y > editor.y + editor.height, 'the CFA view is below the editor');
    assert.ok(arg.y > editor.y + editor.height, 'the ARG is below the editor');
    for (const id of ['editor', 'cfa-view', 'arg-view', 'explain', 'interpolants']) {
      const b = await box(page, id);
      assert.ok(b.x >= 0 && b.x + b.width <= 390.5, `${id} fits the screen: ${JSON.stringify(b)}`);
    }
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scrollWidth <= 390, `no horizontal scrolling (${scrollWidth}px)`);
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
    await page.goto(baseUrl(), { waitUntil: 'load' });
    await page.waitForFunction(() => window.cpaDebug.run()?.phase === 'Idle', null, { timeout: 30_000 });
    await page.click('[data-testid="btn-next-refinement"]');
    await page.waitForSelector('[data-testid="refinement"]', { timeout: 30_000 });
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
