// The main layouts compared with committed reference screenshots (tests/browser/references/):
// the desktop after a refinement, a phone at 390 px, presentation mode on a projector, and
// dark mode. A layout regression changes many pixels and fails here; the tolerance absorbs
// antialiasing. After an intended change of the page's look, look at the new screenshots
// (tests/browser/artifacts/screen-*.png) and record them with
// `CPA_UPDATE_REFERENCES=1 scripts/test-browser.sh tests/browser/screens.test.mjs`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import pixelmatch from 'pixelmatch';
import { ARTIFACTS, PlaygroundPage, baseUrl, launch } from './harness.mjs';

const REFERENCES = join(dirname(fileURLToPath(import.meta.url)), 'references');
// A pixel differs when its colour distance (YIQ, 0..1) exceeds this.
const THRESHOLD = 0.1;
// At most this share of the pixels may differ.
const MAX_DIFFERENT = 0.005;

const LAYOUTS = [
  { name: 'desktop', options: { viewport: { width: 1280, height: 800 } } },
  { name: 'phone', options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }, phoneTab: 'phone-tab-arg' },
  { name: 'presentation', options: { viewport: { width: 1280, height: 720 } }, query: '?present' },
  { name: 'dark', options: { viewport: { width: 1280, height: 800 }, colorScheme: 'dark' } },
];

/** The default example at the end of its first refinement, with nothing hovered or focused. */
async function shoot(layout) {
  const browser = await launch({ deviceScaleFactor: 1, ...layout.options });
  try {
    const page = await browser.page();
    const pg = new PlaygroundPage(page);
    await pg.load(`${baseUrl()}${layout.query ?? ''}`);
    await page.waitForFunction(() => window.cpaDebug?.run()?.phase === 'Idle', null, { timeout: 30_000 });
    await pg.graphSettled('cfa-view');
    await pg.nextRefinement({ state: 'attached' });
    await pg.settledAt(await page.evaluate(() => window.cpaDebug?.run().position));
    if (layout.phoneTab) await page.click(`[data-testid="${layout.phoneTab}"]`);
    await page.mouse.move(0, 0);
    await page.evaluate(() => document.activeElement?.blur());
    // The ARG glides into place: let it finish.
    await page.waitForTimeout(600);
    return await page.screenshot({ animations: 'disabled', caret: 'hide' });
  } finally {
    await browser.close();
  }
}

for (const layout of LAYOUTS) {
  test(`the ${layout.name} layout looks like its reference`, async () => {
    const shot = await shoot(layout);
    writeFileSync(join(ARTIFACTS, `screen-${layout.name}.png`), shot);
    const ref = join(REFERENCES, `${layout.name}.png`);
    if (process.env.CPA_UPDATE_REFERENCES) {
      mkdirSync(REFERENCES, { recursive: true });
      writeFileSync(ref, shot);
      return;
    }
    assert.ok(existsSync(ref), `${ref} is missing: record it with CPA_UPDATE_REFERENCES=1`);
    const a = PNG.sync.read(readFileSync(ref));
    const b = PNG.sync.read(shot);
    assert.deepEqual([b.width, b.height], [a.width, a.height], 'the same size');
    const diff = new PNG({ width: a.width, height: a.height });
    const n = pixelmatch(a.data, b.data, diff.data, a.width, a.height, { threshold: THRESHOLD });
    const share = n / (a.width * a.height);
    if (share > MAX_DIFFERENT) {
      writeFileSync(join(ARTIFACTS, `screen-${layout.name}-diff.png`), PNG.sync.write(diff));
    }
    assert.ok(share <= MAX_DIFFERENT,
      `${layout.name}: ${n} pixels (${(100 * share).toFixed(2)} %) differ from the reference; see artifacts/screen-${layout.name}-diff.png`);
  });
}
