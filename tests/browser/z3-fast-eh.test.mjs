// static/z3-fast-eh.js (Z3's C++ exception trampolines in wasm) on the npm z3-solver build in
// Node, without a browser: Z3 gives the same replies with the trampolines as with
// Emscripten's JS ones, the C++ exceptions Z3 throws and catches internally (resource limits)
// go through them, and an exception that is not a C++ exception passes through unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BUILD = join(ROOT, 'node_modules', 'z3-solver', 'build');
const require = createRequire(import.meta.url);
const fastEh = require(join(ROOT, 'static', 'z3-fast-eh.js'));
const initZ3 = require(join(BUILD, 'z3-built.js'));
const WASM = readFileSync(join(BUILD, 'z3-built.wasm'));

/** A Z3 module with (fast) or without the wasm trampolines, and one context on it. */
async function z3(fast) {
  let eh = null;
  const config = { print() {}, printErr() {} };
  if (fast) {
    config.instantiateWasm = (imports, receive) => {
      eh = fastEh.prepare(imports);
      WebAssembly.instantiate(WASM, imports).then(({ instance, module }) => {
        eh.attach(instance);
        receive(instance, module);
      });
      return {};
    };
  }
  const M = await initZ3(config);
  const cfg = M.ccall('Z3_mk_config', 'number', [], []);
  const ctx = M.ccall('Z3_mk_context', 'number', ['number'], [cfg]);
  M.ccall('Z3_del_config', null, ['number'], [cfg]);
  return {
    eh,
    eval(text) {
      eh?.reset();
      return M.ccall('Z3_eval_smtlib2_string', 'string', ['number', 'string'], [ctx, text]);
    },
  };
}

// Queries as the engine sends them, and ones that run into Z3's resource limit (Z3 throws a
// C++ exception at the limit and catches it to answer `unknown` or fail the tactic).
const SCRIPTS = [
  `(set-option :produce-models true)(set-option :produce-unsat-cores true)
   (declare-fun x () Int)(declare-fun y () Int)
   (push 1)(assert (and (> x 0) (< y x) (= (+ x y) 10)))(check-sat)(get-value (x y))(pop 1)
   (push 1)(assert (! (> x 5) :named a1))(assert (! (< x 3) :named a2))(check-sat)
   (get-unsat-core)(pop 1)`,
  `(reset)(set-option :rlimit 20000)
   (declare-fun a () (_ BitVec 64))(declare-fun b () (_ BitVec 64))(declare-fun c () (_ BitVec 64))
   (assert (= (bvmul a (bvmul b c)) #x0000000012345679))
   (assert (bvugt a #x0000000000000001))(assert (bvugt b #x0000000000000001))
   (assert (bvugt c #x0000000000000001))(check-sat)(get-info :reason-unknown)`,
  `(reset)(set-option :rlimit 3000)(declare-fun p () Int)(declare-fun q () Int)
   (assert (exists ((z Int)) (and (> (* z z) p) (< (* 3 z) q) (> (* z p) q))))(apply qe)`,
  `(set-option :rlimit 0)(check-sat)`,
  `(reset)(set-option :produce-models true)(declare-fun r () Real)(assert (= (* r r) 2.0))
   (check-sat)(get-model)`,
];

test('the trampolines are installed and Z3 answers exactly as with the JS ones', async () => {
  const slow = await z3(false);
  const fast = await z3(true);
  assert.ok(fast.eh.replaced > 50, `only ${fast.eh.replaced} invoke_* imports replaced`);
  for (const script of SCRIPTS) {
    const before = fast.eh.caught();
    assert.equal(fast.eval(script), slow.eval(script), script);
    if (script.includes(':rlimit 20000')) {
      assert.match(fast.eval('(get-info :reason-unknown)'), /resource limit/);
      assert.ok(fast.eh.caught() > before, 'no C++ exception went through the trampolines');
    }
  }
  assert.ok(fast.eh.caught() > 10, `${fast.eh.caught()} C++ exceptions caught`);
});

test('an exception that is not a C++ exception leaves Z3 unchanged', async () => {
  // The parser's C++ exception is caught inside Z3, whose default error handler then calls
  // exit(1): Emscripten throws its ExitStatus through every wasm frame, which the trampolines
  // must rethrow, not take for a C++ exception.
  const fast = await z3(true);
  assert.throws(() => fast.eval('(assert (> undeclared 0))'), (e) => e.name === 'ExitStatus');
  // Emscripten's exit in Node also sets this process's exit code: the exit was expected.
  process.exitCode = 0;
  assert.ok(fast.eh.caught() > 0, 'the parser error went through the trampolines');
});
