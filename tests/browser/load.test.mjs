// Loading the page as a class does: the editor, the CFA and the LBE summary work while Z3 (8 MB
// gzipped of the page's 11) is still on its way, with its download shown; after the first
// visit the service worker has the whole application, so a second visit downloads nothing but
// index.html, and the page works offline (a verification to its verdict).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ARTIFACTS, PlaygroundPage, baseUrl, id, launch } from './harness.mjs';

test('the editor, the CFA and the LBE summary work before Z3 has arrived, and its download is shown', async () => {
  // Without the service worker: its fetches would pass by the route that holds Z3 back.
  const b = await launch({ viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' });
  try {
    const page = await b.page();
    let release;
    const held = new Promise((r) => { release = r; });
    let z3Requests = 0;
    await page.route('**/z3-built-*.wasm', async (route) => {
      z3Requests += 1;
      await held;
      await route.continue();
    });
    await page.goto(baseUrl(), { waitUntil: 'load' });
    // The status says Z3 is loading (not "ready") before a byte of it has arrived.
    await page.waitForSelector(`${id('engine-status')}.loading progress`, { timeout: 30_000 });
    assert.match(await page.textContent(id('engine-status')), /Loading Z3… 0 of 33 MB/);
    // The default example's CFA, then another example's CFA and its LBE summary.
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="cfa-node-count"]')?.textContent) > 0, null, { timeout: 30_000 });
    await page.selectOption(id('example-select'), 'lbe-figure1');
    await page.waitForFunction(() => document.querySelector('[data-testid="cfa-node-count"]')?.textContent === '32', null, { timeout: 30_000 });
    assert.equal(await page.textContent(id('lbe-node-count')), '3');
    // An edit is parsed and its CFA built (the CFA does not wait behind the run's start).
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\nint extra(int a) { if (a) return 1; return 0; }\n');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="cfa-node-count"]')?.textContent) > 32, null, { timeout: 30_000 });
    assert.match(await page.textContent(id('engine-status')), /Loading Z3… 0 of 33 MB/, 'Z3 is still held back');
    await page.screenshot({ path: join(ARTIFACTS, 'load-before-z3.png') });
    release();
    await page.waitForSelector(`${id('engine-status')}.ready`, { timeout: 60_000 });
    assert.equal(z3Requests, 1, 'Z3 is downloaded once');
    await page.click(id('btn-end'));
    await page.waitForFunction(() => ['TRUE', 'FALSE'].includes(document.querySelector('[data-testid="verdict"]')?.textContent.trim()), null, { timeout: 60_000 });
  } finally {
    if (process.exitCode) console.log(b.logs.join('\n'));
    await b.close();
  }
});

test('after the first visit the application comes from the service worker: a second visit downloads only index.html, and offline it verifies', async () => {
  const b = await launch({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await b.page();
    const pg = new PlaygroundPage(page);
    await pg.load();
    // Once Z3 is in, the page asks the service worker to cache the whole build.
    const cached = await page.waitForFunction(() => window.cpaCached, null, { timeout: 60_000 }).then((h) => h.jsonValue());
    assert.equal(cached.failed, 0, JSON.stringify(cached));
    assert.ok(cached.files >= 10, JSON.stringify(cached));
    // Second visit: every file but index.html is answered by the service worker (the
    // worker's own fetches count: Z3 is fetched by the engine worker).
    const responses = [];
    b.context.on('response', (r) => responses.push({ path: new URL(r.url()).pathname, sw: r.fromServiceWorker() }));
    await pg.load();
    const network = responses.filter((r) => !r.sw).map((r) => r.path);
    assert.ok(network.every((p) => p === '/' || p === '/index.html' || p === '/sw.js'), `from the network: ${network.join(', ')}`);
    const cachedPaths = responses.filter((r) => r.sw).map((r) => r.path);
    for (const f of [/^\/z3-built-[0-9a-f]{8,16}\.wasm$/, /^\/cpa-worker_bg-[0-9a-f]{8,16}\.wasm$/, /^\/cpa-page-[0-9a-f]{8,16}\.js$/]) {
      assert.ok(cachedPaths.some((p) => f.test(p)), `${f} from the service worker: ${cachedPaths.join(', ')}`);
    }
    // Offline: the page loads, builds a CFA and runs a verification to its verdict.
    await b.context.setOffline(true);
    await page.reload({ waitUntil: 'load' });
    await page.waitForSelector(`${id('engine-status')}.ready`, { timeout: 60_000 });
    assert.equal(await page.evaluate(() => self.crossOriginIsolated), true);
    await pg.open('max-bug', 'bmc');
    await page.click(id('btn-end'));
    await page.waitForFunction(() => document.querySelector('[data-testid="verdict"]')?.textContent.trim() === 'FALSE', null, { timeout: 60_000 });
    await page.screenshot({ path: join(ARTIFACTS, 'load-offline.png') });
  } finally {
    await b.context.setOffline(false).catch(() => {});
    if (process.exitCode) console.log(b.logs.join('\n'));
    await b.close();
  }
});
