// Driven by scripts/web-bench.sh: measures the playground in headless Chromium and prints
// Markdown tables (docs/web-bench.md). Usage: node scripts/web-bench.mjs URL [REPEATS]
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const url = process.argv[2];
const repeats = Number(process.argv[3] || 3);
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const id = (t) => `[data-testid="${t}"]`;

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const f1 = (x) => x.toFixed(1);

async function browser() {
  const profile = mkdtempSync(join(tmpdir(), 'cpa-bench-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CPA_CHROMIUM || '/usr/bin/chromium', headless: true, args: FLAGS,
    viewport: { width: 1280, height: 720 },
  });
  const page = context.pages()[0] || await context.newPage();
  return { page, async close() { await context.close(); rmSync(profile, { recursive: true, force: true }); } };
}

/** A fresh page: ms from navigation to interactive (the session of the default example
 * started), and to the verdict of the default example run to the end at once. */
async function loadToVerdict() {
  const b = await browser();
  try {
    const { page } = b;
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.cpaDebug?.run()?.phase === 'Idle', null, { timeout: 60_000, polling: 5 });
    const interactive = await page.evaluate(() => performance.now());
    await page.click(id('btn-end'));
    await page.waitForFunction(() => document.querySelector('[data-testid="verdict"]')?.textContent.length > 0, null, { timeout: 60_000, polling: 5 });
    const verdict = await page.evaluate(() => performance.now());
    return { interactive, verdict, text: (await page.textContent(id('verdict'))).trim() };
  } finally {
    await b.close();
  }
}

/** Puts `source` into the editor and picks `preset`; waits for the session. */
async function program(page, source, preset) {
  await page.selectOption(id('config-select'), preset);
  await page.click('.cm-content');
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(source);
  await page.waitForTimeout(400);
  await page.waitForFunction(() => window.cpaDebug?.run()?.phase === 'Idle' && window.cpaDebug?.run().position === 0, null, { timeout: 60_000 });
}

/** Time from a click to the next frame painted with its result (the frame's rendering
 * callback, then a task after the paint). */
async function timedClick(page, testid) {
  return page.evaluate(async (t) => {
    const t0 = performance.now();
    document.querySelector(`[data-testid="${t}"]`).click();
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    return performance.now() - t0;
  }, testid);
}

async function stepLatency(page) {
  const src = readFileSync(join(ROOT, 'tests/verdicts/nested-bmc-forward-unsafe.c'), 'utf8');
  await program(page, src, 'bmc');
  await page.click(id('btn-end'));
  await page.waitForFunction(() => document.querySelector('[data-testid="verdict"]')?.textContent.length > 0, null, { timeout: 120_000 });
  await page.waitForTimeout(500);
  const nodes = Number(await page.textContent(id('arg-node-count')));
  const back = [];
  const fwd = [];
  for (let i = 0; i < 150; i++) back.push(await timedClick(page, 'btn-step-back'));
  for (let i = 0; i < 150; i++) fwd.push(await timedClick(page, 'btn-step'));
  const after = Number(await page.textContent(id('arg-node-count')));
  return { nodes, after, back, fwd, all: back.concat(fwd) };
}

/** Compare mode: the same ~600-state ARG on both sides (bmc on the left and on the right),
 * both run to the verdict, then 150 steps back and 150 forward of the step bar, which moves
 * both sides (sync by event); each timed to the next painted frame. */
async function compareStepLatency(page) {
  const src = readFileSync(join(ROOT, 'tests/verdicts/nested-bmc-forward-unsafe.c'), 'utf8');
  await program(page, src, 'bmc');
  await page.click(id('btn-compare'));
  await page.waitForSelector(id('compare-right'));
  await page.selectOption(id('compare-preset'), 'bmc');
  await page.waitForFunction(() => document.querySelector('[data-testid="compare-right"]')?.dataset.preset === 'bmc', null, { timeout: 60_000 });
  await page.waitForTimeout(300);
  await page.click(id('btn-end'));
  await page.waitForFunction(() => ['left', 'right'].every((w) => document.querySelector(`[data-testid="compare-${w}"]`)?.dataset.verdict), null, { timeout: 120_000 });
  await page.waitForTimeout(500);
  const nodes = await page.$$eval('[data-testid="arg-node-count"]', (ns) => ns.map((n) => Number(n.textContent)));
  const all = [];
  for (let i = 0; i < 150; i++) all.push(await timedClick(page, 'btn-step-back'));
  for (let i = 0; i < 150; i++) all.push(await timedClick(page, 'btn-step'));
  await page.click(id('btn-compare'));
  return { nodes, all };
}

/** The race on the default example: ms from the click to the last row, and the sum of the
 * native `cpa verify --json` times of the presets (one run each). */
async function raceTime(page) {
  await page.selectOption(id('example-select'), 'unifying-fig2');
  await page.waitForFunction(() => window.cpaDebug?.run()?.phase === 'Idle', null, { timeout: 60_000 });
  await page.click(id('tab-race'));
  const race = () => page.evaluate(async () => {
    const t0 = performance.now();
    document.querySelector('[data-testid="btn-race"]').click();
    await new Promise((r) => setTimeout(r, 50));
    while (document.querySelector('[data-testid="race-table"]')?.dataset.running !== 'false') await new Promise((r) => setTimeout(r, 5));
    return performance.now() - t0;
  });
  // The first race starts the race's worker (engine and Z3); the second finds it ready.
  const first = await race();
  const ms = await race();
  const rows = await page.$$eval(id('race-row'), (rs) => rs.map((r) => [r.dataset.preset, r.dataset.verdict]));
  let native = 0;
  for (const [preset] of rows) {
    const out = execFileSync(join(ROOT, 'target/release/cpa'), ['verify', join(ROOT, 'tests/verdicts/unifying-fig2.c'), '--config', preset, '--json'], { encoding: 'utf8' });
    native += JSON.parse(out).stats.total_ms;
  }
  return { first, ms, native, rows };
}

/** Lays out and draws a synthetic ARG of n states in a panel the size of the ARG view. */
async function drawArg(page, n) {
  return page.evaluate(async (n) => {
    const host = document.createElement('div');
    host.style.cssText = 'position:fixed;left:0;top:0;width:780px;height:320px;background:#fff;z-index:99';
    host.className = 'arg-canvas';
    document.body.appendChild(host);
    // A tree like an ARG: chains with branching every few states, some coverage.
    const nodes = [];
    const covers = [];
    for (let i = 0; i < n; i++) {
      const parent = i === 0 ? [] : [i < 4 ? i - 1 : Math.floor((i * 7919) % i)];
      nodes.push({ id: i, parents: parent, kind: i % 3 ? 'intermediate' : 'abstraction', cls: i % 11 === 0 ? 'covered' : 'waiting', label: String(i), sub: `l.${i % 40}`, title: `state ${i}` });
      if (i % 11 === 0 && i > 0) covers.push([i, Math.floor(i / 2)]);
    }
    const view = window.CpaPage.createArgView(host, () => {});
    const t0 = performance.now();
    window.CpaPage.updateArgView(view, { nodes, covers, edgeTitles: {}, focus: n - 1 });
    host.getBoundingClientRect();
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const full = performance.now() - t0;
    // One more state: the incremental update of a step.
    nodes.push({ id: n, parents: [n - 1], kind: 'intermediate', cls: 'waiting', label: String(n), sub: '', title: '' });
    const t1 = performance.now();
    window.CpaPage.updateArgView(view, { nodes, covers, edgeTitles: {}, focus: n });
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const incremental = performance.now() - t1;
    host.remove();
    return { full, incremental };
  }, n);
}

const TASKS = [
  ['refine-loop', 'examples/refine-loop.c', 'predicate-lbe'],
  ['gcd', 'examples/gcd.c', 'predicate-lbe'],
  ['impact-vs-lazy', 'tests/verdicts/impact-example.c', 'impact'],
  ['bmc-deep-bug', 'examples/bmc-deep-bug.c', 'bmc'],
  ['svcomp-hhk2008', 'tests/svcomp/loop-lit/hhk2008.i', 'predicate-lbe'],
];

// One run of a task in the page to its verdict: the time from the click on "run to the
// verdict" to the verdict shown, and the page's statistics.
async function browserRun(page, [key, , preset]) {
  // Consecutive runs are of different tasks: selecting the example starts a fresh session.
  await page.selectOption(id('example-select'), key);
  await page.selectOption(id('config-select'), preset);
  await page.waitForFunction(() => window.cpaDebug?.run()?.phase === 'Idle' && window.cpaDebug?.run().position === 0, null, { timeout: 60_000 });
  const ms = await page.evaluate(async () => {
    const t0 = performance.now();
    document.querySelector('[data-testid="btn-end"]').click();
    while (!document.querySelector('[data-testid="verdict"]')?.textContent) await new Promise((r) => setTimeout(r, 2));
    return performance.now() - t0;
  });
  const verdict = (await page.textContent(id('verdict'))).trim();
  const stats = JSON.parse(await page.getAttribute(id('stats'), 'data-stats'));
  return { ms, verdict, states: stats.states, queries: stats.solver_queries, solverMs: stats.solver_ms };
}

// The native run of a task: the median of 3 `cpa verify --json`.
function nativeRun([, file, preset]) {
  const natives = [];
  for (let i = 0; i < 3; i++) {
    const out = execFileSync(join(ROOT, 'target/release/cpa'), ['verify', join(ROOT, file), '--config', preset, '--json'], { encoding: 'utf8' });
    natives.push(JSON.parse(out).stats);
  }
  natives.sort((a, b) => a.total_ms - b.total_ms);
  return natives[1];
}

function sizes() {
  const dist = join(ROOT, 'dist');
  return readdirSync(dist).filter((f) => /\.(wasm|js|css)$/.test(f)).map((f) => {
    const data = readFileSync(join(dist, f));
    return { f, bytes: statSync(join(dist, f)).size, gz: gzipSync(data).length };
  }).sort((a, b) => b.bytes - a.bytes);
}

if (process.env.CPA_BENCH_ONLY === 'compare') {
  const b = await browser();
  try {
    const { page } = b;
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => window.cpaDebug?.run()?.phase === 'Idle', null, { timeout: 60_000 });
    const c = await compareStepLatency(page);
    const r = await raceTime(page);
    console.log('| measure | value | target |\n| --- | --- | --- |');
    console.log(`| compare mode: step latency, ARGs of ${c.nodes.join(' and ')} states (${c.all.length} steps of both sides): p50 / p95 / max | ${f1(pct(c.all, 0.5))} / ${f1(pct(c.all, 0.95))} / ${f1(Math.max(...c.all))} ms | p95 ≤ 50 ms |`);
    console.log(`| race of the ${r.rows.length} presets on the default example: page (first race, its worker starting / second race) / sum of native runs | ${f1(r.first)} / ${f1(r.ms)} / ${f1(r.native)} ms (${(r.first / r.native).toFixed(2)}× / ${(r.ms / r.native).toFixed(2)}×) | ≤ 2× |`);
    console.log(`\nrows: ${r.rows.map(([p, v]) => `${p} ${v}`).join(', ')}`);
  } finally {
    await b.close();
  }
  process.exit(0);
}

const loads = [];
for (let i = 0; i < repeats; i++) loads.push(await loadToVerdict());
const b = await browser();
let steps;
const draws = {};
const ratios = [];
try {
  const { page } = b;
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => window.cpaDebug?.run()?.phase === 'Idle', null, { timeout: 60_000 });
  for (const n of [100, 500, 2000]) {
    const runs = [];
    for (let i = 0; i < repeats; i++) runs.push(await drawArg(page, n));
    draws[n] = { full: median(runs.map((r) => r.full)), incremental: median(runs.map((r) => r.incremental)) };
  }
  steps = await stepLatency(page);
  // Round 1 runs each task once in the page as a user's first run of it would (Chromium
  // compiles Z3's wasm lazily, function by function, on first use); the later rounds are warm.
  const rounds = TASKS.map(() => []);
  for (let round = 0; round < Math.max(2, repeats); round++) {
    for (let i = 0; i < TASKS.length; i++) rounds[i].push(await browserRun(page, TASKS[i]));
  }
  for (let i = 0; i < TASKS.length; i++) {
    const [key, , preset] = TASKS[i];
    const [cold, ...warm] = rounds[i];
    const w = warm.sort((a, b) => a.ms - b.ms)[Math.floor((warm.length - 1) / 2)];
    const nat = nativeRun(TASKS[i]);
    ratios.push({ key, preset, cold: cold.ms, ...w, native: nat.total_ms, nativeSolver: nat.solver_ms });
  }
} finally {
  await b.close();
}

const kb = (x) => `${(x / 1024).toFixed(0)} KB`;
console.log(`## Results (${new Date().toISOString().slice(0, 10)}, ${repeats} repetitions, medians)\n`);
console.log('| measure | value | target |\n| --- | --- | --- |');
console.log(`| page load to interactive (session of the default example started) | ${f1(median(loads.map((l) => l.interactive)))} ms | |`);
console.log(`| page load to the first verdict of the default example (${loads[0].text}) | ${f1(median(loads.map((l) => l.verdict)))} ms | ≤ 2000 ms |`);
console.log(`| step latency, ARG of ${steps.nodes} states (${steps.all.length} steps back and forth): p50 / p95 / max | ${f1(pct(steps.all, 0.5))} / ${f1(pct(steps.all, 0.95))} / ${f1(Math.max(...steps.all))} ms | p95 ≤ 50 ms |`);
for (const n of [100, 500, 2000]) {
  console.log(`| lay out and draw an ARG of ${n} states (from scratch / one state added) | ${f1(draws[n].full)} / ${f1(draws[n].incremental)} ms | ${n === 500 ? '≤ 500 ms' : ''} |`);
}
console.log('\n(browser: the median of the warm rounds; first run: round 1, the first run of the task after page load.)\n');
console.log('| task | preset | verdict | states | solver queries | browser: total / in Z3 (ms) | native: total / in Z3 (ms) | browser / native: total / outside Z3 | first run in the page (ms) / native |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const r of ratios) {
  const outside = (r.ms - r.solverMs) / Math.max(1, r.native - r.nativeSolver);
  console.log(`| ${r.key} | ${r.preset} | ${r.verdict} | ${r.states} | ${r.queries} | ${f1(r.ms)} / ${f1(r.solverMs)} | ${f1(r.native)} / ${f1(r.nativeSolver)} | ${(r.ms / r.native).toFixed(2)} / ${outside.toFixed(2)} | ${f1(r.cold)} / ${(r.cold / r.native).toFixed(2)} |`);
}
console.log('\n| file | size | gzip |\n| --- | --- | --- |');
for (const s of sizes()) console.log(`| ${s.f} | ${kb(s.bytes)} | ${kb(s.gz)} |`);
