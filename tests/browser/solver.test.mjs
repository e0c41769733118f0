// The solver bridge in the browser: interpolation of SMT-LIB scripts on the worker's Z3 gives
// the same answers (and sends the same SMT-LIB text) as `cpa itp` on the native z3, and the
// query-mix benchmark runs. Needs the native `cpa` binary (scripts/test-browser.sh builds it;
// CPA_BIN overrides the path) and `z3` on PATH (the independent checker below).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, execFileSync } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { usePlayground } from './harness.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DATA = join(ROOT, 'solver-bridge', 'tests', 'data', 'itp');
const CPA = process.env.CPA_BIN || join(ROOT, 'target', 'release', 'cpa');

const STRATEGIES = ['farkas', 'forward-qe', 'forward-qe-min', 'backward-qe', 'auto'];
// Strategies whose answers must be identical in the browser and natively, on every file: all
// of them, since the native z3 is the version the npm z3-solver build is made from (5.1.0,
// scripts/setup.sh). (With Z3 4.8.12 natively, `(apply qe)` answered differently on some
// inputs.) The SMT-LIB text sent is identical as well.
const EXACT = new Set(STRATEGIES);
// The 1- and 3-iteration loop paths, disjunctive blocks, and the rest of the data files.
const FILES = [
  'loop1.smt2', 'loop3.smt2', 'disjunctive.smt2', 'disjunctive_path.smt2', 'ite_block.smt2',
  'ssa_simple.smt2', 'two_vars.smt2', 'tightening.smt2', 'integer_only.smt2', 'mod_div.smt2',
  'sat_path.smt2',
];

let page;
let browser;
const ctx = usePlayground({}, { setup: async (c) => {
  browser = c.browser;
  assert.ok(existsSync(CPA), `${CPA} is missing: run cargo build --release -p cpa-cli`);
  ({ page } = c);
  // Records every status the engine worker goes through (a crash restarts it).
  await page.evaluate(() => {
    const el = document.querySelector('[data-testid="engine-status"]');
    self.__engineStatus = [];
    new MutationObserver(() => self.__engineStatus.push(el.className))
      .observe(el, { attributes: true, attributeFilter: ['class'] });
  });
} });

/**
 * `cpa itp FILE --strategy S --log`: the printed lines or the error message, and the log of
 * round trips (`{query, reply}`, as the worker's `log`).
 */
function nativeItp(file, strategy) {
  const path = join(DATA, file);
  const r = spawnSync(CPA, ['itp', path, '--strategy', strategy, '--log'], { encoding: 'utf8' });
  if (r.error) throw r.error;
  const errorPrefix = `${path}: error: `;
  const log = [];
  let target = null;
  let errorMessage = null;
  for (const line of r.stderr.split('\n')) {
    if (line.startsWith(errorPrefix)) {
      errorMessage = line.slice(errorPrefix.length);
      break;
    }
    if (/^; query \d+$/.test(line)) {
      log.push({ query: [], reply: [] });
      target = log.at(-1).query;
    } else if (line === '; reply') {
      target = log.at(-1).reply;
    } else if (line.startsWith('; error: ')) {
      log.at(-1).reply.push(`error: ${line.slice(9)}`);
      target = null;
    } else if (target) {
      target.push(line);
    }
  }
  const entries = log.map((e) => ({ query: e.query.join('\n').trimEnd(), reply: e.reply.join('\n').trimEnd() }));
  if (r.status === 0) return { ok: true, lines: r.stdout.trimEnd().split('\n'), log: entries };
  assert.equal(r.status, 1, `cpa itp ${file} --strategy ${strategy}: ${r.stderr}`);
  assert.ok(errorMessage, `no error line from cpa itp ${file}: ${r.stderr}`);
  return { ok: false, message: errorMessage, log: entries };
}

/** The worker's `smt-interpolate` through `cpaDebug.interpolate`, in `cpa itp`'s line format. */
async function browserItp(script, strategy) {
  const r = await page.evaluate(([s, st]) => cpaDebug.interpolate(s, st, { log: true }).then(
    (reply) => ({ ok: true, reply }), (e) => ({ ok: false, message: String(e) })), [script, strategy]);
  if (!r.ok) return r;
  const { status } = r.reply;
  const lines = status === 'unsat' ? ['unsat', ...r.reply.interpolants]
    : status === 'sat' ? ['sat', ...r.reply.model]
      : [`unknown (${r.reply.reason})`];
  const log = (r.reply.log || []).map((e) => ({ query: e.query.trimEnd(), reply: e.reply.trimEnd() }));
  return { ok: true, lines, log };
}

/**
 * Compares two round-trip logs: the SMT-LIB text sent must be identical up to (and including)
 * the first query the two Z3 builds answer differently; after that the queries may differ
 * (they depend on the answers). Returns a problem description or null, and that index.
 */
function compareLogs(web, native) {
  const n = Math.min(web.length, native.length);
  for (let i = 0; i < n; i += 1) {
    if (web[i].query !== native[i].query) {
      return { problem: `query ${i} differs:\n  browser: ${web[i].query}\n  native:  ${native[i].query}`, firstDiff: i };
    }
    if (web[i].reply !== native[i].reply) return { problem: null, firstDiff: i };
  }
  if (web.length !== native.length) {
    return { problem: `${web.length} round trips in the browser, ${native.length} natively, with the same replies`, firstDiff: n };
  }
  return { problem: null, firstDiff: null };
}

/** The SMT-LIB declarations and the assertion bodies of a data file (one command a line). */
function splitScript(text) {
  const lines = text.split('\n').map((l) => l.trim());
  const decls = lines.filter((l) => l.startsWith('(declare-'));
  const phis = lines.filter((l) => l.startsWith('(assert ')).map((l) => l.slice(8, -1));
  const names = decls.map((d) => d.split(/\s+/)[1]);
  return { decls, phis, names };
}

/**
 * Checks `taus` (tau_1..tau_(n-1)) against the definition of sequence interpolants with the
 * native z3 directly (independent of the bridge): every `tau_(i-1) /\ phi_i /\ not tau_i`
 * unsatisfiable, and every symbol of `tau_i` shared between `phi_1..phi_i` and the rest.
 * Returns the list of violations.
 */
function checkSequence(text, inner) {
  const { decls, phis, names } = splitScript(text);
  const taus = ['true', ...inner, 'false'];
  const problems = [];
  if (taus.length !== phis.length + 1) {
    return [`${inner.length} interpolants for ${phis.length} formulas`];
  }
  const symbols = (t) => new Set(t.split(/[\s()]+/).filter((s) => names.includes(s)));
  let query = '';
  for (let i = 1; i <= phis.length; i += 1) {
    query += `(push 1)(assert ${taus[i - 1]})(assert ${phis[i - 1]})(assert (not ${taus[i]}))(check-sat)(pop 1)\n`;
    const before = new Set(phis.slice(0, i).flatMap((p) => [...symbols(p)]));
    const afterwards = new Set(phis.slice(i).flatMap((p) => [...symbols(p)]));
    for (const s of symbols(taus[i])) {
      if (!before.has(s) || !afterwards.has(s)) problems.push(`tau_${i} mentions ${s}, which is not shared`);
    }
  }
  const out = execFileSync('z3', ['-in'], { input: `${decls.join('\n')}\n${query}`, encoding: 'utf8' })
    .trim().split('\n');
  out.forEach((answer, k) => {
    if (answer !== 'unsat') problems.push(`tau_${k} /\\ phi_${k + 1} does not imply tau_${k + 1} (${answer})`);
  });
  if (out.length !== phis.length) problems.push(`z3 answered ${out.join(' ')}`);
  return problems;
}

test('the independent checker accepts good sequences and rejects bad ones', () => {
  const text = readFileSync(join(DATA, 'loop3.smt2'), 'utf8');
  const good = ['(<= x@0 0)', '(<= x@1 1)', '(<= x@2 2)', '(<= x@3 3)', 'false'];
  assert.deepEqual(checkSequence(text, good), []);
  const weak = [...good];
  weak[1] = 'true';
  assert.match(checkSequence(text, weak).join('; '), /tau_2 .* does not imply tau_3/);
  const unshared = [...good];
  unshared[0] = '(<= x@1 0)';
  assert.match(checkSequence(text, unshared).join('; '), /tau_1 mentions x@1/);
  assert.notDeepEqual(checkSequence(text, good.slice(1)), []);
});

const show = (r) => (r.ok ? r.lines.join(' | ') : `error: ${r.message}`);
// file -> strategy -> 'exact' | 'replies differ at query K: ...'
const matrix = {};

for (const file of FILES) {
  test(`${file}: the browser's answers equal cpa itp's`, async (t) => {
    const text = readFileSync(join(DATA, file), 'utf8');
    const problems = [];
    matrix[file] = {};
    for (const strategy of STRATEGIES) {
      const what = `${file} [${strategy}]`;
      const native = nativeItp(file, strategy);
      const web = await browserItp(text, strategy);
      const same = show(web) === show(native);
      // Determinism: the same SMT-LIB text goes to both Z3s until they answer differently.
      // (An error reply carries no log.)
      const { problem, firstDiff } = web.ok ? compareLogs(web.log, native.log) : {};
      if (problem) problems.push(`${what}: ${problem}`);
      if (web.ok && firstDiff === null && !same) {
        problems.push(`${what}: the same replies but different answers: ${show(web)} vs ${show(native)}`);
      }
      matrix[file][strategy] = same ? 'exact'
        : `differs (Z3 replies first differ at round trip ${firstDiff}): browser ${show(web)}; native ${show(native)}`;
      t.diagnostic(`[${strategy}] ${matrix[file][strategy]}`);
      if (EXACT.has(strategy)) {
        if (!same) problems.push(`${what}: browser ${show(web)}\n  native ${show(native)}`);
      } else {
        // Z3 builds may eliminate quantifiers differently: same status, and valid.
        if (web.ok !== native.ok || (web.ok && web.lines[0] !== native.lines[0])) {
          problems.push(`${what}: browser ${show(web)}\n  native ${show(native)}`);
        }
      }
      if (web.ok && web.lines[0] === 'unsat') {
        for (const p of checkSequence(text, web.lines.slice(1))) problems.push(`${what}: browser: ${p}`);
      }
      if (native.ok && native.lines[0] === 'unsat') {
        for (const p of checkSequence(text, native.lines.slice(1))) problems.push(`${what}: native: ${p}`);
      }
    }
    assert.deepEqual(problems, []);
  });
}

test("Z3's C++ exceptions are caught in wasm, not in JS (static/z3-fast-eh.js)", async () => {
  await page.evaluate(() => cpaDebug.z3Query('(check-sat)'));
  const line = browser.logs.find((l) => /C\+\+ exception trampolines in wasm/.test(l));
  assert.ok(line, `the worker did not report its trampolines:\n${browser.logs.join('\n')}`);
  assert.ok(Number(line.match(/z3: (\d+) /)[1]) > 50, line);
});

test('answers do not depend on what the worker did before (a fresh Z3 context per reset)', async () => {
  const text = (f) => readFileSync(join(DATA, f), 'utf8');
  const first = await browserItp(text('ite_block.smt2'), 'forward-qe-min');
  assert.ok(first.ok, first.message);
  // Other quantifier eliminations in between, and raw queries on the shared context.
  for (const f of ['mod_div.smt2', 'disjunctive_path.smt2', 'two_vars.smt2']) {
    for (const s of ['forward-qe', 'backward-qe']) assert.ok((await browserItp(text(f), s)).ok);
  }
  await page.evaluate(() => cpaDebug.z3Query('(declare-const y Int)(declare-const z Int)(assert (> y z))(check-sat)'));
  const again = await browserItp(text('ite_block.smt2'), 'forward-qe-min');
  assert.deepEqual(again, first);
});

test('bit-vector scripts are answered (QE may fail) and what is answered is valid', async () => {
  const text = readFileSync(join(DATA, 'bitvector.smt2'), 'utf8');
  for (const strategy of STRATEGIES) {
    const web = await browserItp(text, strategy);
    if (web.ok) {
      assert.equal(web.lines[0], 'unsat');
      assert.deepEqual(checkSequence(text, web.lines.slice(1)), [], `[${strategy}] ${web.lines.join(' | ')}`);
    } else {
      assert.ok(web.message.length > 0);
    }
  }
});

test('malformed scripts and unknown strategies are error replies, not worker crashes', async () => {
  const deep = (n) => `(declare-const x Int)(assert (> ${'(+ x '.repeat(n)}1${')'.repeat(n)} 0))`;
  const cases = [
    ['(assert', 'auto', /^script:1:\d+: error: /],
    ['(declare-const x Int)(assert (+ x true))', 'auto', /^script:1:\d+: error: /],
    ['(assert x)', 'farkas', /^script:1:\d+: error: /],
    ['(declare-fun f (Int) Int)', 'auto', /not supported/],
    [deep(499), 'auto', /^script:1:\d+: error: nesting too deep \(limit 500\)$/],
    [deep(5000), 'auto', /nesting too deep/],
    ['(assert false)', 'magic', /^unknown strategy "magic"/],
  ];
  for (const [script, strategy, expected] of cases) {
    const r = await browserItp(script, strategy);
    assert.equal(r.ok, false, `${script.slice(0, 40)}: ${JSON.stringify(r.lines)}`);
    assert.match(r.message, expected);
  }
  // At the depth limit (498 levels), the shapes that overflowed the worker's stack at depth 1990 (a sum
  // under quantifier elimination, negations under Farkas) are answered by every strategy.
  const n = 496;
  const atLimit = [
    `(declare-const x Int)(declare-const y Int)(assert (= y ${'(+ x '.repeat(n)}1${')'.repeat(n)}))(assert (and (>= x 0) (< y 0)))`,
    `(declare-const x Int)(assert ${'(not '.repeat(n)}(> x 0)${')'.repeat(n)})(assert (< x 0))(assert (> x 5))`,
  ];
  for (const script of atLimit) {
    for (const strategy of STRATEGIES) {
      const r = await browserItp(script, strategy);
      assert.ok(r.ok, `${script.slice(0, 60)} [${strategy}]: ${r.message}`);
      assert.equal(r.lines[0], 'unsat');
    }
  }
  assert.deepEqual(await page.evaluate(() => self.__engineStatus), [], 'the worker never restarted');
  assert.deepEqual(browser.logs.filter((l) => /panic|fatal/i.test(l)), []);
});

test('the query-mix benchmark runs on the worker\'s Z3', async () => {
  const text = readFileSync(join(DATA, 'loop3.smt2'), 'utf8');
  const before = await browserItp(text, 'forward-qe-min');
  const r = await page.evaluate(() => cpaDebug.solverBench(20));
  assert.equal(r.rounds, 20);
  assert.equal(r.check_sats, 100);
  assert.equal(r.sat, 40);
  assert.equal(r.unsat, 60);
  assert.equal(r.round_trips, 140, JSON.stringify(r));
  assert.ok(r.ms > 0, JSON.stringify(r));
  for (const bad of [-1, 1.5, 100_001]) {
    await assert.rejects(page.evaluate((n) => cpaDebug.solverBench(n), bad), /round/);
  }
  // What the benchmark left in the worker's Z3 context does not leak into later requests.
  assert.deepEqual(await browserItp(text, 'forward-qe-min'), before);
});

test('summary: every strategy was compared on every file, and the exact ones agree exactly', (t) => {
  const missing = [];
  for (const file of FILES) {
    for (const strategy of STRATEGIES) {
      if (!matrix[file]?.[strategy]) missing.push(`${file} [${strategy}]`);
    }
  }
  assert.deepEqual(missing, [], 'compared in the browser and natively');
  for (const strategy of STRATEGIES) {
    const differing = Object.keys(matrix).filter((f) => matrix[f][strategy] !== 'exact');
    t.diagnostic(`${strategy}: ${differing.length === 0 ? 'exact on every file'
      : `differs on ${differing.join(', ')}`}`);
    if (EXACT.has(strategy)) assert.deepEqual(differing, [], `${strategy} differs on ${differing.join(', ')}`);
  }
});
