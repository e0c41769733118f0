// The playground runs and steps the analyses in the browser: the same verdicts, statistics
// and events as `cpa verify` natively (the determinism contract), stepping forward and back,
// next refinement, pause, the counterexample, the keyboard, bad input and a worker crash.
// Screenshots of every view go to tests/browser/artifacts/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARTIFACTS, baseUrl, id, launch, usePlayground } from './harness.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CPA = join(ROOT, 'target', 'release', 'cpa');
const PRESETS = ['predicate-lbe', 'predicate-sbe', 'predicate-abel', 'impact', 'bmc', 'kinduction', 'value', 'symbolic', 'theta-pred-bw', 'theta-expl-multiseq', 'portfolio', 'execution'];
// Gallery examples and their files: one safe, one unsafe.
const SAFE = { key: 'unifying-fig2', file: 'tests/verdicts/unifying-fig2.c' };
const UNSAFE = { key: 'max-bug', file: 'examples/max-bug.c' };
// The memory examples of the gallery (arrays, pointers, structs, undefined behaviour), each with
// the preset it opens with.
const MEMORY = [
  ['mem-swap', 'examples/swap.c', 'predicate-lbe'],
  ['mem-array-init', 'examples/array-init.c', 'predicate-lbe'],
  ['mem-linear-search', 'examples/linear-search.c', 'predicate-lbe'],
  ['mem-binary-search', 'examples/binary-search.c', 'bmc'],
  ['mem-bubble-pass', 'examples/bubble-pass.c', 'symbolic'],
  ['mem-struct-counters', 'examples/struct-counters.c', 'value'],
  ['mem-buffer-overflow', 'examples/buffer-overflow.c', 'bmc'],
];

let page;
let pg;
const ctx = usePlayground({ viewport: { width: 1280, height: 720 } }, { setup: (c) => { ({ page, pg } = c); } });

const text = (t) => pg.text(t);
const num = (t) => pg.number(t);

function native(file, preset, extra = []) {
  const out = execFileSync(CPA, ['verify', join(ROOT, file), '--config', preset, '--json', '--events', ...extra], { encoding: 'utf8', maxBuffer: 1 << 28 });
  return JSON.parse(out);
}

const open = (key, preset) => pg.open(key, preset);
const toVerdict = (timeout) => pg.toVerdict(timeout);
const argCounts = () => pg.argCounts();

test('every preset gives the CLI verdict, statistics and events on a safe and an unsafe program', async () => {
  for (const ex of [SAFE, UNSAFE]) {
    for (const preset of PRESETS) {
      const want = native(ex.file, preset);
      await open(ex.key, preset);
      const verdict = await toVerdict();
      const expected = { true: 'TRUE', false: 'FALSE' }[want.verdict] ?? `UNKNOWN (${want.reason})`;
      assert.equal(verdict, expected, `${ex.key} ${preset}`);
      const stats = JSON.parse(await page.getAttribute(id('stats'), 'data-stats'));
      for (const k of ['steps', 'states', 'refinements', 'solver_queries', 'cache_hits', 'solver_work', 'abstractions', 'abstraction_states', 'predicates', 'bound']) {
        assert.equal(stats[k], want.stats[k], `${ex.key} ${preset}: ${k}`);
      }
      const events = await page.evaluate(() => window.cpaDebug.events());
      assert.deepEqual(events, want.events, `${ex.key} ${preset}: the same events`);
      assert.equal(await num('step-index'), want.events.length);
      if (want.verdict === 'false') {
        // The counterexample's lines are the CLI's.
        const lines = await page.$$eval(`${id('counterexample')} ${id('cex-step')}`, (ls) => ls.map((l) => Number(l.dataset.line)));
        assert.deepEqual(lines, want.counterexample.map((s) => s.line), `${ex.key} ${preset}: counterexample lines`);
      }
    }
  }
});

test('the memory examples give the CLI verdict, statistics and events (arrays, pointers, structs)', async () => {
  for (const [key, file, preset] of MEMORY) {
    const want = native(file, preset);
    await open(key);
    assert.equal(await page.inputValue(id('config-select')), preset, `${key} opens with ${preset}`);
    const verdict = await toVerdict(120_000);
    const expected = { true: 'TRUE', false: 'FALSE' }[want.verdict] ?? `UNKNOWN (${want.reason})`;
    assert.equal(verdict, expected, key);
    const stats = JSON.parse(await page.getAttribute(id('stats'), 'data-stats'));
    // Not solver_work: Z3's resource count differs between its native and WebAssembly builds
    // (binary-search.c with bmc: 6,979,868 natively, 8,140,658 in the page for the same
    // queries; docs/benchmarks.md, "Every run ends").
    for (const k of ['steps', 'states', 'refinements', 'solver_queries', 'predicates', 'bound']) {
      assert.equal(stats[k], want.stats[k], `${key}: ${k}`);
    }
    const events = await page.evaluate(() => window.cpaDebug.events());
    assert.deepEqual(events, want.events, `${key}: the same events`);
  }
  // The overflow is undefined behaviour, named with its line, never a verdict.
  assert.match(await text('verdict'), /^UNKNOWN \(line 12: an invalid memory access/);
});

test('the portfolio hands over to its next component as natively and names the one that decided', async () => {
  // Concrete execution meets a second input while the first is still a class, k-induction's
  // bound (k-max=6) ends before the bug's depth, predicate abstraction's budget of 3000 queries before its proof or bug (with
  // wrap-around and with overflow checks); symbolic execution finds the bug.
  const want = native('examples/bmc-deep-bug.c', 'portfolio');
  assert.equal(want.decided_by, 'symbolic');
  await open('bmc-deep-bug', 'portfolio');
  assert.equal(await toVerdict(), 'FALSE');
  const events = await page.evaluate(() => window.cpaDebug.events());
  assert.deepEqual(events, want.events, 'the same events, the switch of component included');
  assert.deepEqual(events.filter((e) => e.type === 'component').map((e) => e.preset), ['execution', 'kinduction', 'predicate-lbe', 'predicate-lbe', 'symbolic']);
  assert.equal(await text('decided-by'), 'by symbolic');
  const stats = JSON.parse(await page.getAttribute(id('stats'), 'data-stats'));
  assert.equal(stats.solver_queries, want.stats.solver_queries);
  await page.screenshot({ path: join(ARTIFACTS, 'portfolio-switch.png') });
});

test('IMPACT with forced covering (the fcover knob) gives the CLI events and explains the covering', async () => {
  const want = native('tests/verdicts/unifying-fig2.c', 'impact', ['--set', 'fcover=true']);
  const forced = want.events.findIndex((e, i) => e.type === 'covered' && want.events[i - 1]?.type === 'strengthened' && want.events[i - 1].state === e.state);
  assert.ok(forced > 0, 'natively, a state is strengthened and covered at once');
  await open('unifying-fig2', 'impact');
  await page.click(id('btn-knobs'));
  await page.selectOption('[data-knob="fcover"]', 'true');
  await page.click(`${id('knobs')} .close`);
  await page.waitForFunction(() => {
    const r = window.cpaDebug?.run();
    return r && r.phase === 'Idle' && r.position === 0 && !r.stale;
  }, null, { timeout: 30_000 });
  assert.equal(await toVerdict(), 'TRUE');
  const events = await page.evaluate(() => window.cpaDebug.events());
  assert.deepEqual(events, want.events, 'the same events, the forced covering included');
  // Back to the covering event: the explanation names forced covering.
  await page.click(id('btn-reset'));
  await page.waitForFunction(() => window.cpaDebug?.run()?.position === 0, null, { timeout: 30_000 });
  for (let i = 0; i <= forced; i++) await page.click(id('btn-step'));
  await page.waitForFunction((want) => Number(document.querySelector('[data-testid="step-index"]').textContent) === want, forced + 1);
  assert.match(await text('explain'), /Forced covering strengthened it/);
  await page.screenshot({ path: join(ARTIFACTS, 'impact-fcover.png') });
  await page.click(id('btn-knobs'));
  await page.selectOption('[data-knob="fcover"]', 'false');
  await page.click(`${id('knobs')} .close`);
});

test('concrete execution skips loops by acceleration, as natively, and explains the jump', async () => {
  const want = native('examples/accel-nested.c', 'execution');
  assert.equal(want.verdict, 'false');
  const jump = want.events.findIndex((e) => e.type === 'accelerated' && e.iterations > 1000);
  assert.ok(jump > 0, 'natively, the outer loop is accelerated');
  await open('accel-nested', 'execution');
  assert.equal(await toVerdict(), 'FALSE');
  const events = await page.evaluate(() => window.cpaDebug.events());
  assert.deepEqual(events, want.events, 'the same events, the jumps included');
  const lines = await page.$$eval(`${id('counterexample')} ${id('cex-step')}`, (ls) => ls.map((l) => Number(l.dataset.line)));
  assert.deepEqual(lines, want.counterexample.map((s) => s.line));
  const steps = await page.$$eval(`${id('counterexample')} ${id('cex-step')}`, (ls) => ls.map((l) => l.textContent));
  assert.ok(steps.some((t) => /268435453 more iterations/.test(t)), 'the counterexample shows the skipped iterations');
  await page.click(id('btn-reset'));
  await page.waitForFunction(() => window.cpaDebug?.run()?.position === 0, null, { timeout: 30_000 });
  for (let i = 0; i <= jump; i++) await page.click(id('btn-step'));
  await page.waitForFunction((want) => Number(document.querySelector('[data-testid="step-index"]').textContent) === want, jump + 1);
  assert.match(await text('explain'), /Acceleration: .*268435453 more iterations/);
  await page.screenshot({ path: join(ARTIFACTS, 'execution-acceleration.png') });
});

test('the unifying-view example reads as its paper: no wrap-around where none can happen, x = y with the prefix interpolants', async () => {
  const itps = async () => {
    await page.click(id('btn-next-refinement'));
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="interpolants"] [data-testid="refinement"]').length === 1, null, { timeout: 30_000 });
    const shown = await page.$$eval(`${id('interpolants')} code.itp`, (cs) => cs.map((c) => [c.textContent, c.title]));
    const preds = await page.$$eval(`${id('interpolants')} .preds code`, (cs) => cs.map((c) => c.textContent));
    return { shown, preds };
  };
  await open('unifying-fig2', 'predicate-lbe');
  // The preset's weakest precondition, without the wrap-arounds the loop head's ranges rule
  // out; the exact formula (with them) is the tooltip.
  let { shown, preds } = await itps();
  assert.deepEqual(shown.map(([t]) => t), ['true', 'x = y ∨ x ≥ 2', 'false']);
  assert.match(shown[1][1], /^\(not \(and \(or .*ite \(>= \|main::x#1\| 2147483647\)/);
  assert.deepEqual(preds, ['x < y', 'y < x', 'x < 2', 'false']);
  // Interpolants as strong as the path's start allows: the paper's x = y.
  await page.click(id('btn-knobs'));
  await page.selectOption('[data-knob="interpolation"]', 'backward-auto-prefix');
  await page.click(`${id('knobs')} .close`);
  await page.waitForFunction(() => {
    const r = window.cpaDebug?.run();
    return r && r.phase === 'Idle' && r.position === 0 && !r.stale;
  }, null, { timeout: 30_000 });
  ({ shown, preds } = await itps());
  assert.deepEqual(shown.map(([t]) => t), ['true', 'x = y', 'false']);
  assert.deepEqual(preds, ['x < y', 'y < x', 'false']);
  await page.locator(id('interpolants')).screenshot({ path: join(ARTIFACTS, 'interpolants-fig2.png') });
});

test('the value analysis shows tracked variables, value interpolants and value labels', async () => {
  await open('refine-loop', 'value');
  await page.click(id('btn-next-refinement'));
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="interpolants"] [data-testid="refinement"]').length === 1, null, { timeout: 30_000 });
  const entry = page.locator(`${id('interpolants')} ${id('refinement')}`).first();
  assert.match(await entry.textContent(), /Variables tracked/);
  assert.match(await entry.textContent(), /edge into it/);
  await page.click(id('btn-next-refinement'));
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="interpolants"] [data-testid="refinement"]').length === 2, null, { timeout: 30_000 });
  // Some state of the refined ARG knows a value (its label is an assignment).
  const labels = await page.evaluate(() => window.cpaDebug.events().filter((e) => e.type === 'state_added').map((e) => e.label));
  assert.ok(labels.some((l) => /=/.test(l)), labels.slice(0, 20).join(' | '));
  await page.screenshot({ path: join(ARTIFACTS, 'value-refinement.png') });
  assert.equal(await toVerdict(), 'TRUE');
});

test('a value state shows memory as a student reads it: a struct as its fields, no temporaries', async () => {
  await open('mem-struct-counters', 'value');
  await toVerdict();
  await page.locator(`${id('arg-view')} g.arg-node`, { hasText: 'c.odd' }).first().click();
  await page.click(id('tab-node'));
  const known = await text('known-values');
  assert.match(known, /c = \{(even: -?\d+, )?odd: -?\d+\}/, known);
  assert.doesNotMatch(known, /c = 2097152|__tmp/, known);
  await page.locator(id('node-details')).screenshot({ path: join(ARTIFACTS, 'view-node-memory.png') });
  await page.click(id('tab-refinements'));
});

test('theta-pred-bw explains its backward binary interpolant', async () => {
  await open('refine-loop', 'theta-pred-bw');
  await page.click(id('btn-next-refinement'));
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="interpolants"] [data-testid="refinement"]').length === 1, null, { timeout: 30_000 });
  // Back from the end of the refinement to its interpolant.
  for (let i = 0; i < 8 && !/BW_BIN_ITP/.test(await text('explain')); i++) await page.click(id('btn-step-back'));
  const said = await text('explain');
  assert.match(said, /One binary interpolant \(BW_BIN_ITP\)/);
  assert.match(said, /longest feasible suffix/);
  assert.match(said, /Efficient Strategies for CEGAR-Based Model Checking/);
});

test('concrete execution splits an input into classes, as natively, and explains a class state', async () => {
  const want = native('examples/input-split.c', 'execution');
  assert.equal(want.verdict, 'true');
  const classState = want.events.findIndex((e) => e.type === 'state_added' && e.label.startsWith('input t ∈ [2, 100]'));
  assert.ok(classState > 0, 'natively, a state stands for the class of inputs 2 to 100');
  await open('input-split', 'execution');
  assert.equal(await toVerdict(), 'TRUE');
  const events = await page.evaluate(() => window.cpaDebug.events());
  assert.deepEqual(events, want.events, 'the same events, the splits included');
  await page.click(id('btn-reset'));
  await page.waitForFunction(() => window.cpaDebug?.run()?.position === 0, null, { timeout: 30_000 });
  for (let i = 0; i <= classState; i++) await page.click(id('btn-step'));
  await page.waitForFunction((want) => Number(document.querySelector('[data-testid="step-index"]').textContent) === want, classState + 1);
  assert.match(await text('explain'), /stands for the runs of every input value t/);
  // Once the moves have glided (0.25 s), no two states or their line labels overlap.
  await page.waitForTimeout(500);
  const overlaps = await page.evaluate(() => {
    const parts = [...document.querySelectorAll('[data-testid="arg-view"] .arg-node')].map((g) => ({
      id: g.dataset.id,
      boxes: [g.querySelector('rect'), g.querySelector('text.sub')].filter((e) => e.tagName === 'rect' || e.textContent !== '').map((e) => e.getBoundingClientRect()),
    }));
    const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
    const found = [];
    for (let i = 0; i < parts.length; i++) {
      for (let j = i + 1; j < parts.length; j++) {
        if (parts[i].boxes.some((a) => parts[j].boxes.some((b) => meet(a, b)))) found.push(`${parts[i].id}/${parts[j].id}`);
      }
    }
    return found;
  });
  assert.deepEqual(overlaps, [], 'ARG states drawn over each other');
  await page.screenshot({ path: join(ARTIFACTS, 'execution-input-split.png') });
});

test('symbolic execution shows symbolic values, path constraints and satisfiability checks', async () => {
  await open('lbe-figure1', 'symbolic');
  assert.equal(await toVerdict(), 'TRUE');
  const events = await page.evaluate(() => window.cpaDebug.events());
  // Some state knows a symbolic value (a fresh identifier), and constraints were checked.
  const labels = events.filter((e) => e.type === 'state_added').map((e) => e.label);
  assert.ok(labels.some((l) => /\$s\d+/.test(l)), labels.slice(0, 20).join(' | '));
  assert.ok(events.some((e) => e.type === 'sat_check'), 'satisfiability checks are events');
  const entry = page.locator(`${id('interpolants')} ${id('refinement')}`).first();
  assert.match(await entry.textContent(), /Variables tracked/);
  await page.screenshot({ path: join(ARTIFACTS, 'symbolic-refinement.png') });
});

test('stepping forward n events and back n gives the same ARG', async () => {
  await open('refine-loop', 'predicate-lbe');
  await page.locator(id('explain')).click();
  const n = 40;
  for (let k = 0; k < 15; k++) await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="step-index"]').textContent) === 15);
  const before15 = await argCounts();
  // The CFA view marks the locations of the current event (and the edges of its step): only
  // the marks that change are touched at a step, so none may linger.
  const cfaMarks = () => page.$$eval(`${id('cfa-view')} svg .current, ${id('cfa-view')} svg .in-step`,
    (es) => es.map((e) => `${e.id}.${e.getAttribute('class')}`).sort());
  const marks15 = await cfaMarks();
  const seen = new Set();
  for (let k = 0; k < n; k++) {
    await page.click(id('btn-step'));
    seen.add(JSON.stringify(await cfaMarks()));
  }
  await page.waitForFunction((want) => Number(document.querySelector('[data-testid="step-index"]').textContent) === want, 15 + n);
  const forward = await argCounts();
  assert.notDeepEqual(forward, before15, 'the ARG changed');
  assert.ok(seen.size > 3, `the CFA marks follow the steps (${seen.size} different sets)`);
  for (let k = 0; k < n; k++) await page.click(id('btn-step-back'));
  assert.equal(await num('step-index'), 15);
  assert.deepEqual(await argCounts(), before15);
  assert.deepEqual(await cfaMarks(), marks15, 'the CFA marks of step 15 again, no other');
  assert.ok(before15.drawn > 0 && before15.drawn <= before15.nodes, 'the states in view are drawn');
});

test('next refinement stops after a refinement with a new entry in the interpolants view', async () => {
  await open('refine-loop', 'predicate-lbe');
  await page.click(id('btn-next-refinement'));
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="interpolants"] [data-testid="refinement"]').length === 1, null, { timeout: 30_000 });
  assert.match(await text('explain'), /Refinement 1 is done/);
  const first = await num('step-index');
  await page.click(id('btn-next-refinement'));
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="interpolants"] [data-testid="refinement"]').length === 2, null, { timeout: 30_000 });
  assert.ok(await num('step-index') > first);
  assert.match(await text('explain'), /Refinement 2 is done/);
  // The entry lists the interpolants and the predicates added.
  const entry = page.locator(`${id('interpolants')} ${id('refinement')}`).first();
  assert.match(await entry.textContent(), /Predicates added/);
  // Screenshots of every view after a refinement.
  await page.screenshot({ path: join(ARTIFACTS, 'after-refinement.png') });
  await page.locator(id('arg-view')).screenshot({ path: join(ARTIFACTS, 'view-arg.png') });
  await page.locator(id('explain')).screenshot({ path: join(ARTIFACTS, 'view-explain.png') });
  await page.locator(id('interpolants')).screenshot({ path: join(ARTIFACTS, 'view-interpolants.png') });
  await page.click(id('tab-log'));
  const queries = await page.locator(`${id('solver-log')} ${id('solver-query')}`).count();
  const stats = JSON.parse(await page.getAttribute(id('stats'), 'data-stats'));
  assert.equal(Number(await page.getAttribute(id('solver-log'), 'data-total')), stats.solver_queries);
  assert.equal(queries, Math.min(200, stats.solver_queries), 'one entry per solver query');
  await page.locator(`${id('solver-log')} ${id('solver-query')} summary`).first().click();
  await page.locator(id('solver-log')).screenshot({ path: join(ARTIFACTS, 'view-solver-log.png') });
  await page.click(id('tab-stats'));
  await page.locator(id('stats')).screenshot({ path: join(ARTIFACTS, 'view-stats.png') });
  await page.click(id('tab-cfa'));
  await page.locator(id('cfa-view')).screenshot({ path: join(ARTIFACTS, 'view-cfa.png') });
  await page.click(id('tab-lbe'));
  await page.locator(id('lbe-view')).screenshot({ path: join(ARTIFACTS, 'view-lbe.png') });
  await page.click(id('tab-cfa'));
  // A click on a state links it: details, CFA location, source line.
  await page.locator(`${id('arg-view')} g.arg-node`).first().click();
  await page.waitForSelector(`${id('node-details')}[data-state]`);
  assert.ok(await page.locator(`${id('cfa-view')} g.node.selected`).count() === 1, 'its CFA location is marked');
  assert.ok(await page.locator('.cm-line.cm-cpa-highlight').count() >= 1, 'its line is highlighted');
  await page.locator(id('node-details')).screenshot({ path: join(ARTIFACTS, 'view-node.png') });
  const covered = JSON.parse(await page.getAttribute(id('coverage'), 'data-lines'));
  assert.ok(covered.length >= 1, `coverage: ${covered}`);
  assert.ok(await page.locator('.cm-cpa-coverage-mark').count() >= 1);
});

test('pause during a run to the end answers within 100 ms and keeps the step', async () => {
  // BMC cannot finish this one quickly: 40 bounds.
  await open('kinduction-proves', 'bmc');
  await page.click(id('btn-end'));
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="step-index"]').textContent) > 300, null, { timeout: 30_000 });
  const ms = await page.evaluate(async () => {
    // The button is re-rendered with every batch: take it when it is there (under load a
    // render may be in between), then time the pause from the click.
    const wait = performance.now();
    let pause;
    while (!(pause = document.querySelector('[data-testid="btn-pause"]'))) {
      if (performance.now() - wait > 5000) return 'no pause button while running';
      await new Promise((r) => setTimeout(r, 1));
    }
    const t0 = performance.now();
    pause.click();
    while (!document.querySelector('[data-testid="btn-run"]')) await new Promise((r) => setTimeout(r, 1));
    return performance.now() - t0;
  });
  assert.ok(typeof ms === 'number' && ms < 100, `pause took ${ms} ms`);
  const k = await num('step-index');
  await page.waitForTimeout(500);
  assert.equal(await num('step-index'), k, 'the step shown stays');
  // The fresh worker replays the run; stepping on continues exactly there.
  await page.waitForFunction(() => window.cpaDebug?.run().phase === 'Idle', null, { timeout: 60_000 });
  await page.click(id('btn-step'));
  await page.waitForFunction((k) => Number(document.querySelector('[data-testid="step-index"]').textContent) === k + 1, k, { timeout: 30_000 });
  const events = await page.evaluate(() => window.cpaDebug.events());
  const want = native('examples/kinduction-proves.c', 'bmc', ['--max-steps', '400']).events;
  const n = Math.min(events.length, want.length - 1);
  assert.deepEqual(events.slice(0, n), want.slice(0, n), 'the replayed run is the same run');
});

test('the keyboard steps, and never while the editor has focus', async () => {
  await open('refine-loop', 'predicate-lbe');
  await page.locator(id('explain')).click();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('[data-testid="step-index"]').textContent === '2');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await num('step-index'), 1);
  await page.keyboard.press('Shift+ArrowRight');
  await page.waitForFunction(() => /abstraction of the block formula|precision has no predicates/.test(document.querySelector('[data-testid="explain"]').textContent), null, { timeout: 30_000 });
  await page.keyboard.press('Control+ArrowRight');
  await page.waitForFunction(() => /Refinement 1 is done/.test(document.querySelector('[data-testid="explain"]').textContent), null, { timeout: 30_000 });
  await page.keyboard.press('Home');
  assert.equal(await num('step-index'), 0);
  await page.keyboard.press('2');
  assert.equal(await page.getAttribute(id('tab-log'), 'aria-selected'), 'true');
  await page.keyboard.press('1');
  await page.keyboard.press('?');
  await page.waitForSelector(id('help'));
  await page.locator(id('help')).screenshot({ path: join(ARTIFACTS, 'view-help.png') });
  await page.keyboard.press('Escape');
  assert.equal(await page.locator(id('help')).count(), 0);
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('[data-testid="verdict"]').textContent === 'TRUE', null, { timeout: 60_000 });
  await page.keyboard.press('Home');
  await page.keyboard.press(' ');
  await page.waitForSelector(id('btn-pause'));
  await page.keyboard.press(' ');
  await page.waitForSelector(id('btn-run'));
  // In the editor, the arrows move the cursor only.
  const k = await num('step-index');
  await page.click('.cm-content');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('End');
  await page.keyboard.press('2');
  await page.waitForTimeout(200);
  assert.equal(await num('step-index'), k);
  assert.equal(await page.getAttribute(id('tab-log'), 'aria-selected'), 'false');
  await page.keyboard.press('Control+z');
});

test('a FALSE verdict steps through the counterexample in the editor', async () => {
  await open(UNSAFE.key, 'predicate-lbe');
  assert.equal(await toVerdict(), 'FALSE');
  await page.click(id('tab-counterexample'));
  await page.click(id('cex-next'));
  await page.click(id('cex-next'));
  const line = Number(await page.getAttribute(`${id('cex-step')}.current`, 'data-line'));
  const highlighted = await page.$$eval('.cm-line.cm-cpa-highlight', (ls) => ls.length);
  assert.equal(highlighted, 1);
  const src = await page.$$eval('.cm-line', (ls) => ls.map((l) => l.textContent));
  assert.ok(src.length >= line);
  await page.locator(id('counterexample')).screenshot({ path: join(ARTIFACTS, 'view-counterexample.png') });
});

test('bad input: errors block the run with a reason, limits end with UNKNOWN, a crash is recovered', async () => {
  await open('refine-loop', 'predicate-lbe');
  await page.click('.cm-content');
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText('int main(void) {\n  float f = 1.5;\n  return (int)f;\n}\n');
  await page.waitForFunction(() => /errors/.test(document.querySelector('[data-testid="run-blocked"]')?.textContent),
    null, { timeout: 15_000 });
  assert.equal(await page.locator(id('btn-run')).isDisabled(), true);
  assert.match(await text('diagnostics'), /floating-point/i);
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText('extern void reach_error(void);\nint main(void) {\n  int x = 0;\n  while (x < 100) x++;\n  if (x != 100) reach_error();\n  return 0;\n}\n');
  await page.waitForFunction(() => !document.querySelector('[data-testid="run-blocked"]') && window.cpaDebug?.run()?.phase === 'Idle', null, { timeout: 15_000 });
  // A limit from the knobs.
  await page.click(id('btn-knobs'));
  await page.fill('[data-knob="max-steps"]', '10');
  await page.locator('[data-knob="max-steps"]').press('Enter');
  await page.locator(id('knobs')).screenshot({ path: join(ARTIFACTS, 'view-knobs.png') });
  await page.click(`${id('knobs')} .close`);
  assert.match(await toVerdict(), /^UNKNOWN \(step limit of 10 reached \(after 10 steps: .*\d+ states, \d+ solver queries\)\)$/);
  // An invalid combination is refused before anything runs.
  await page.click(id('btn-knobs'));
  await page.selectOption('[data-knob="refinement"]', 'impact');
  await page.waitForSelector(id('config-error'));
  assert.match(await text('config-error'), /representation=smt/);
  await page.selectOption('[data-knob="refinement"]', 'predicate');
  await page.fill('[data-knob="max-steps"]', '200000');
  await page.locator('[data-knob="max-steps"]').press('Enter');
  await page.click(`${id('knobs')} .close`);
  // The worker dies in the middle of a run: the page says so and recovers without a reload.
  await page.waitForFunction(() => window.cpaDebug?.run()?.phase === 'Idle', null, { timeout: 15_000 });
  await page.click(id('btn-step'));
  await page.evaluate(() => window.cpaDebug.crashWorker());
  await page.click(id('btn-end'));
  await page.waitForSelector(id('run-error'), { timeout: 15_000 });
  assert.match(await text('run-error'), /panic/);
  await page.waitForSelector('[data-testid="engine-status"].ready', { timeout: 30_000 });
  await page.click(id('btn-reset'));
  assert.equal(await toVerdict(), 'TRUE');
});

test('a run always runs the program shown, also when the example and the analysis change at once', async () => {
  // A long run is busy in the worker: a change of analysis replaces the worker, which
  // cancels the new example's CFA request too. That request must be sent again, and the
  // old run must not be stepped meanwhile (it once was, with the old program's events under
  // the new program's text).
  await open('gcd', 'predicate-sbe');
  await page.click(id('btn-end'));
  await page.waitForFunction(() => window.cpaDebug?.run()?.phase === 'Busy', null, { timeout: 10_000 });
  await page.selectOption(id('example-select'), 'max-bug');
  await page.selectOption(id('config-select'), 'impact');
  await toVerdict();
  const want = native('examples/max-bug.c', 'impact');
  assert.equal(want.verdict, 'false');
  assert.equal(await text('verdict'), 'FALSE');
  const run = await page.evaluate(() => window.cpaDebug?.run());
  assert.equal(run.file, 'max-bug.c');
  assert.equal(run.total, want.events.length);
  assert.deepEqual(await page.evaluate(() => window.cpaDebug.events()), want.events);
  assert.doesNotMatch(await text('diagnostics'), /engine/);
});

test('at the verdict the ARG view shows the whole ARG, or for FALSE where the error was reached', async () => {
  const panelAndNodes = () => page.evaluate(() => {
    const p = document.querySelector('[data-testid="arg-view"]').getBoundingClientRect();
    const nodes = [...document.querySelectorAll('[data-testid="arg-view"] g.arg-node')].map((g) => {
      const r = g.getBoundingClientRect();
      return { id: Number(g.dataset.id), target: g.classList.contains('target'), in: r.right > p.x && r.left < p.x + p.width && r.bottom > p.y && r.top < p.y + p.height };
    });
    return { panel: { x: p.x, y: p.y, width: p.width, height: p.height }, nodes };
  });
  // TRUE, 44 states: all of them fit.
  await open('refine-loop', 'impact');
  await toVerdict();
  await page.waitForTimeout(800);
  let { panel, nodes } = await panelAndNodes();
  const root = await page.locator(`${id('arg-view')} g.arg-node[data-id="0"]`).boundingBox();
  assert.ok(root.x >= panel.x && root.x + root.width <= panel.x + panel.width / 3,
    `the root is at the start of the panel: ${JSON.stringify({ root, panel })}`);
  assert.ok(nodes.length >= 40, `${nodes.length} states drawn`);
  assert.deepEqual(nodes.filter((n) => !n.in).map((n) => n.id), [], 'every state is in view');
  // On a projector (presentation mode) the view stays legible (scale >= 0.8) and starts at
  // the root; the fit button gives the overview, at the smaller scale it needs.
  const scale = () => page.evaluate(() => {
    const m = document.querySelector('.arg-layer').style.transform.match(/scale\(([\d.]+)\)/);
    return Number(m[1]);
  });
  const overviewScale = await scale();
  await page.click('[aria-label="Presentation mode"]');
  await page.waitForTimeout(800);
  assert.ok(await scale() >= 0.8, `legible in presentation mode: ${await scale()}`);
  ({ panel, nodes } = await panelAndNodes());
  assert.ok(nodes.find((n) => n.id === 0).in, 'the root is in view');
  await page.click(`${id('arg-view')} button[title^="Fit the graph"]`);
  await page.waitForTimeout(800);
  assert.ok(await scale() < 0.8, `the fit button's overview needs a smaller scale: ${await scale()} (${overviewScale} on the desktop)`);
  ({ panel, nodes } = await panelAndNodes());
  assert.deepEqual(nodes.filter((n) => !n.in).map((n) => n.id), [], 'every state is in view after fit');
  await page.screenshot({ path: join(ARTIFACTS, 'presentation-arg-overview.png') });
  await page.click('[aria-label="Presentation mode"]');
  await page.waitForTimeout(300);
  // FALSE after 30 unrollings (274 states, too many to fit legibly): the newest error state.
  await open('bmc-deep-bug', 'bmc');
  await toVerdict();
  await page.waitForTimeout(800);
  ({ panel, nodes } = await panelAndNodes());
  const targets = nodes.filter((n) => n.target).map((n) => n.id);
  assert.ok(targets.length > 0, 'error states are drawn');
  const newest = Math.max(...targets);
  assert.ok(nodes.find((n) => n.id === newest).in, `state ${newest} (an error state) is in view`);
});

test('a Z3 that does not load is reported with the reason', async () => {
  // Without the service worker: its fetches would pass by the route that fails Z3.
  const b = await launch({ viewport: { width: 1280, height: 720 }, serviceWorkers: 'block' });
  try {
    const p = await b.page();
    await p.route('**/z3-built-*.wasm', (route) => route.abort('failed'));
    await p.goto(baseUrl(), { waitUntil: 'load' });
    await p.waitForSelector(id('run-error'), { timeout: 30_000 });
    assert.match(await p.textContent(id('run-error')), /cannot load Z3/);
    // The program's CFA does not need Z3.
    await p.waitForSelector(`${id('cfa-view')} svg`, { timeout: 30_000 });
  } finally {
    await b.close();
  }
});
