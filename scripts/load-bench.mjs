// The page's first and second visit (docs/web-bench.md, issue 54 section 4): dist/ served by
// scripts/serve.py (isolation headers, gzip twins, year-long caching of hashed files) with its
// byte counter; a fresh Chromium profile visits the playground, and then visits it again.
// Measured per visit: the bytes the server sent (bodies, so gzip-compressed where the build has
// a twin), the requests it answered, and the times from navigation to the CFA shown, to Z3
// ready, and to the default example's verdict. The first visit's count includes the service
// worker's precache (from the browser's HTTP cache, so it should add nothing).
//
// Usage: node scripts/load-bench.mjs [ROUNDS] (default 3; dist/ must be built).
import { spawn } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, id, freePort } from '../tests/browser/harness.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.argv[2] || 3);

async function server() {
  const port = await freePort();
  const child = spawn('python3', [join(ROOT, 'scripts', 'serve.py'), join(ROOT, 'dist'), String(port), '--quiet', '--count-bytes'], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(`${url}__served`);
      return { url, stop: () => child.kill() };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  child.kill();
  throw new Error('serve.py did not start');
}

const served = async (url) => (await fetch(`${url}__served`)).json();

/** One visit in `page`: milliseconds to the CFA, to Z3 ready and to the verdict. */
async function visit(page, url) {
  const t0 = Date.now();
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="cfa-node-count"]')?.textContent) > 0, null, { timeout: 120_000 });
  const cfa = Date.now() - t0;
  await page.waitForSelector(`${id('engine-status')}.ready`, { timeout: 120_000 });
  const ready = Date.now() - t0;
  await page.waitForFunction(() => window.cpaDebug?.run()?.phase === 'Idle', null, { timeout: 120_000 });
  await page.click(id('btn-end'));
  await page.waitForFunction(() => ['TRUE', 'FALSE'].includes(document.querySelector('[data-testid="verdict"]')?.textContent.trim()), null, { timeout: 120_000 });
  const verdict = Date.now() - t0;
  return { cfa, ready, verdict };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const s = await server();
const rows = { first: [], second: [] };
try {
  for (let round = 0; round < ROUNDS; round++) {
    const b = await launch({ viewport: { width: 1280, height: 800 } });
    try {
      await served(s.url);
      let page = await b.page();
      const first = await visit(page, s.url);
      await page.waitForFunction(() => window.cpaCached, null, { timeout: 120_000 });
      rows.first.push({ ...first, ...(await served(s.url)) });
      await page.close();
      page = await b.context.newPage();
      const second = await visit(page, s.url);
      rows.second.push({ ...second, ...(await served(s.url)) });
    } finally {
      await b.close();
    }
  }
} finally {
  s.stop();
}

console.log(`| visit | bytes served | requests | CFA shown | Z3 ready | first verdict |`);
console.log(`| --- | --- | --- | --- | --- | --- |`);
for (const [name, rs] of Object.entries(rows)) {
  const m = (k) => median(rs.map((r) => r[k]));
  console.log(`| ${name} | ${(m('bytes') / 1e6).toFixed(2)} MB (${m('bytes')}) | ${m('requests')} | ${m('cfa')} ms | ${m('ready')} ms | ${m('verdict')} ms |`);
}
console.log(`\n(${ROUNDS} rounds, each a fresh profile; medians.)`);
console.log(JSON.stringify(rows));
