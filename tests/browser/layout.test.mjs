// The page's look on a phone and in dark mode: screenshots for review, and the layout facts
// that make it usable there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, baseUrl, ARTIFACTS } from './harness.mjs';

test('on a phone the views stack under the editor; dark mode applies', async () => {
  const browser = await launch({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    colorScheme: 'dark',
  });
  try {
    const page = await browser.page();
    await page.goto(baseUrl(), { waitUntil: 'load' });
    await page.waitForSelector('[data-testid="lbe-view"] .graph-canvas[aria-busy="false"] svg', { timeout: 30_000 });
    const box = async (id) => page.locator(`[data-testid="${id}"]`).boundingBox();
    const editor = await box('editor');
    const cfa = await box('cfa-view');
    assert.ok(cfa.y > editor.y + editor.height, 'the CFA view is below the editor');
    assert.ok(cfa.width <= 390 && editor.width <= 390, 'nothing is wider than the screen');
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scrollWidth <= 390, `no horizontal scrolling (${scrollWidth}px)`);
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r, g, b] = bg.match(/\d+/g).map(Number);
    assert.ok(r + g + b < 150, `dark background, got ${bg}`);
    await page.screenshot({ path: join(ARTIFACTS, 'phone-dark.png'), fullPage: false });
  } finally {
    await browser.close();
  }
});
