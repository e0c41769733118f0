// Runs the worker's `solver-bench` request (the solver bridge's query mix on the browser's Z3)
// in headless Chromium and prints one JSON line per repetition, after one "cold" run. Used by scripts/solver-bench.sh.
// Usage: node scripts/solver-bench.mjs URL ROUNDS REPEATS
import { launch } from '../tests/browser/harness.mjs';

const [url, rounds = '400', repeats = '3'] = process.argv.slice(2);
if (!url) {
  console.error('usage: node scripts/solver-bench.mjs URL [ROUNDS] [REPEATS]');
  process.exit(2);
}
const browser = await launch();
try {
  const page = await browser.page();
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('[data-testid="engine-status"].ready', { timeout: 60_000 });
  const version = await page.evaluate(() => cpaDebug.z3Query('(get-info :version)'));
  console.log(`browser-z3 ${version.trim()}`);
  console.log(`browser-ua ${await page.evaluate(() => navigator.userAgent)}`);
  // The first run after a page load is slower: Chromium starts Z3's 35 MB of wasm on its
  // baseline compiler and optimizes it in the background. It is reported apart ("cold").
  const cold = await page.evaluate((n) => cpaDebug.solverBench(n), Number(rounds));
  console.log(`browser-cold-json ${JSON.stringify(cold)}`);
  for (let i = 0; i < Number(repeats); i += 1) {
    // Each call loads Z3 if needed (not timed), warms up, then times ROUNDS rounds.
    const r = await page.evaluate((n) => cpaDebug.solverBench(n), Number(rounds));
    console.log(`browser-json ${JSON.stringify(r)}`);
  }
} catch (e) {
  console.error(`error: ${e.message}\n${browser.logs.join('\n')}`);
  process.exitCode = 1;
} finally {
  await browser.close();
}
