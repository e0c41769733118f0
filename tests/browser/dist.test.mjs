// `make dist` on a static host that sends no special headers (like GitHub Pages): dist/ served
// by Python's plain http.server. The page's service worker (static/sw.js) makes it cross-origin isolated
// (one reload), Z3 loads, and a share link runs a verification to its verdict.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, ARTIFACTS, freePort } from './harness.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

async function plainServer() {
  const port = await freePort();
  const child = spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', join(ROOT, 'dist')], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 100; i++) {
    try {
      const r = await fetch(url);
      assert.equal(r.headers.get('cross-origin-opener-policy'), null, 'no isolation headers');
      return { url, stop: () => child.kill() };
    } catch (e) {
      if (e.code === 'ERR_ASSERTION') throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  child.kill();
  throw new Error('the static server did not start');
}

test('dist/ on a plain static server runs a verification to its verdict', async () => {
  const server = await plainServer();
  const browser = await launch({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await browser.page();
    // The max-bug example with bmc, at step 0 (a committed v1 link).
    await page.goto(`${server.url}#v1=q1aqULJSyk2s0E0qTVfSUUoG8pJyk4GsEiArOb80ryS1KLUiMbcgJ1WpFgA`, { waitUntil: 'load' });
    await page.waitForFunction(() => self.crossOriginIsolated === true, null, { timeout: 30_000 });
    await page.waitForSelector('[data-testid="engine-status"].ready', { timeout: 60_000 });
    assert.equal(await page.inputValue('[data-testid="config-select"]'), 'bmc');
    await page.waitForFunction(() => window.cpaDebug?.run()?.phase === 'Idle', null, { timeout: 60_000 });
    await page.click('[data-testid="btn-end"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="verdict"]')?.textContent.trim() === 'FALSE', null, { timeout: 120_000 });
    await page.screenshot({ path: join(ARTIFACTS, 'dist-plain-server.png') });
  } finally {
    if (process.exitCode) console.log(browser.logs.join('\n'));
    await browser.close();
    server.stop();
  }
});
