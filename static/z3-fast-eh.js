// Wasm trampolines for the C++ exceptions of Z3's Emscripten build (npm z3-solver).
//
// z3-solver is built with Emscripten's JavaScript-based exception handling: every call that
// may throw a C++ exception goes out of wasm to a JS function `invoke_<sig>(index, ...args)`
// that calls the table entry `index` back in wasm inside a JS try/catch. Solving one query of
// the playground takes about 17,500 such round trips (svcomp-hhk2008, predicate-lbe: 2.9 million
// for 167 queries), which made Z3 in the browser 3-4x slower than natively.
//
// `prepare(imports)` replaces those imports, before Z3's module is instantiated, by the exports
// of a small wasm module built here that does the same inside wasm with the exception-handling
// proposal (`try ... catch_all`): save the stack pointer, call the table entry; on a C++
// exception restore the stack pointer and report it with `setThrew(1, 0)`, as the JS version
// does. Exceptions that are not C++ exceptions (an `abort`, a JS error) are rethrown unchanged.
// The three imports that throw C++ exceptions (`__cxa_throw`, `__resumeException`,
// `__cxa_rethrow`) are wrapped to flag the exception in flight, which tells the two kinds apart
// (a `catch_all` does not see the exception object). `attach(instance)` then gives the helper
// Z3's function table (mirrored on later growth) and its stack functions.
//
// If the engine lacks wasm exception handling or reference types, `prepare` changes nothing.
// Loaded with importScripts in the worker (static/worker.js) and with require in Node
// (tests/browser/z3-fast-eh.test.mjs).
(function (root) {
  'use strict';

  const VAL = { i: 0x7f, j: 0x7e, f: 0x7d, d: 0x7c };
  const ZERO = {
    i: [0x41, 0x00],
    j: [0x42, 0x00],
    f: [0x43, 0, 0, 0, 0],
    d: [0x44, 0, 0, 0, 0, 0, 0, 0, 0],
  };

  function uleb(n) {
    const out = [];
    do {
      let b = n & 0x7f;
      n >>>= 7;
      if (n !== 0) b |= 0x80;
      out.push(b);
    } while (n !== 0);
    return out;
  }
  const vec = (items) => [...uleb(items.length), ...items.flat()];
  const str = (s) => vec([...s].map((c) => c.charCodeAt(0)));
  const section = (id, bytes) => [id, ...uleb(bytes.length), ...bytes];

  /** The helper module's bytes for the given signatures (`iii`: i32 result, two i32 params). */
  function helperBytes(sigs) {
    const types = [];
    const typeIndex = new Map();
    const type = (params, results) => {
      const key = params.join(',') + '>' + results.join(',');
      if (!typeIndex.has(key)) {
        typeIndex.set(key, types.length);
        types.push([0x60, ...vec(params.map((p) => [p])), ...vec(results.map((r) => [r]))]);
      }
      return typeIndex.get(key);
    };
    const tSave = type([], [VAL.i]); // emscripten_stack_get_current, and the `caught` import
    const tRestore = type([VAL.i], []); // _emscripten_stack_restore
    const tThrew = type([VAL.i, VAL.i], []); // setThrew
    const funcs = sigs.map((sig) => {
      const result = sig[0] === 'v' ? [] : [VAL[sig[0]]];
      const params = [...sig.slice(1)].map((c) => VAL[c]);
      return {
        sig,
        result: sig[0],
        params,
        callee: type(params, result),
        own: type([VAL.i, ...params], result),
      };
    });
    const imports = vec([[...str('env'), ...str('caught'), 0x00, ...uleb(tSave)]]);
    const functions = vec(funcs.map((f) => uleb(f.own)));
    const tables = vec([
      [0x70, 0x00, ...uleb(0)], // 0: Z3's function table, mirrored by attach()
      [0x70, 0x00, ...uleb(3)], // 1: save, restore, threw
    ]);
    const exports = vec([
      ...funcs.map((f, i) => [...str('invoke_' + f.sig), 0x00, ...uleb(i + 1)]),
      [...str('table'), 0x01, 0x00],
      [...str('stack'), 0x01, 0x01],
    ]);
    const bodies = funcs.map((f) => {
      const n = f.params.length;
      const sp = n + 1;
      const code = [
        ...vec([[0x01, VAL.i]]), // one local: the saved stack pointer
        0x41, 0x00, 0x11, ...uleb(tSave), 0x01, // save()
        0x21, ...uleb(sp),
        0x06, ...(f.result === 'v' ? [0x40] : [VAL[f.result]]), // try
      ];
      for (let i = 1; i <= n; i++) code.push(0x20, ...uleb(i));
      code.push(0x20, 0x00, 0x11, ...uleb(f.callee), 0x00); // table[index](args)
      code.push(
        0x19, // catch_all
        0x10, 0x00, 0x45, 0x04, 0x40, 0x09, 0x01, 0x0b, // if !caught(): rethrow
        0x20, ...uleb(sp), 0x41, 0x01, 0x11, ...uleb(tRestore), 0x01, // restore(sp)
        0x41, 0x01, 0x41, 0x00, 0x41, 0x02, 0x11, ...uleb(tThrew), 0x01, // setThrew(1, 0)
      );
      if (f.result !== 'v') code.push(...ZERO[f.result]);
      code.push(0x0b, 0x0b); // end try, end function
      return [...uleb(code.length), ...code];
    });
    return new Uint8Array([
      0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
      ...section(1, vec(types)),
      ...section(2, imports),
      ...section(3, functions),
      ...section(4, tables),
      ...section(7, exports),
      ...section(10, vec(bodies)),
    ]);
  }

  const THROWERS = ['__cxa_throw', '__resumeException', '__cxa_rethrow'];

  /**
   * Replaces the `invoke_*` imports of Z3's module in `imports` (Emscripten's import object)
   * by wasm trampolines. Returns `{ attach(instance), reset(), caught(), replaced }`: call
   * attach with Z3's instance before any of its code runs, reset before each call into Z3.
   * With no support in the engine, replaces nothing.
   */
  function prepare(imports) {
    const env = imports.env;
    const sigs = Object.keys(env)
      .filter((k) => k.startsWith('invoke_') && /^[vijfd][ijfd]*$/.test(k.slice(7)))
      .map((k) => k.slice(7));
    const none = { attach() {}, reset() {}, caught: () => 0, replaced: 0 };
    if (!sigs.length || !THROWERS.every((t) => typeof env[t] === 'function')) return none;
    let cppInFlight = false;
    let cppCaught = 0;
    let helper;
    try {
      const bytes = helperBytes(sigs);
      if (!WebAssembly.validate(bytes)) return none;
      helper = new WebAssembly.Instance(new WebAssembly.Module(bytes), {
        env: {
          caught() {
            const c = cppInFlight;
            cppInFlight = false;
            if (c) cppCaught++;
            return c ? 1 : 0;
          },
        },
      });
    } catch (e) {
      return none;
    }
    for (const t of THROWERS) {
      const original = env[t];
      env[t] = function (...args) {
        try {
          return original.apply(this, args);
        } catch (e) {
          // A C++ exception: anything but an abort (which throws a RuntimeError).
          cppInFlight = !(e instanceof WebAssembly.RuntimeError);
          throw e;
        }
      };
    }
    for (const sig of sigs) env['invoke_' + sig] = helper.exports['invoke_' + sig];
    return {
      replaced: sigs.length,
      attach(instance) {
        const x = instance.exports;
        const theirs = x.__indirect_function_table;
        const ours = helper.exports.table;
        ours.grow(theirs.length);
        for (let i = 0; i < theirs.length; i++) ours.set(i, theirs.get(i));
        // Emscripten's addFunction grows and sets the table later: mirror it.
        const grow = WebAssembly.Table.prototype.grow;
        const set = WebAssembly.Table.prototype.set;
        theirs.grow = function (n, ...rest) {
          const r = grow.call(theirs, n, ...rest);
          grow.call(ours, n);
          for (let i = r; i < r + n; i++) set.call(ours, i, theirs.get(i));
          return r;
        };
        theirs.set = function (i, f) {
          set.call(theirs, i, f);
          set.call(ours, i, theirs.get(i));
        };
        const stack = helper.exports.stack;
        stack.set(0, x.emscripten_stack_get_current);
        stack.set(1, x._emscripten_stack_restore);
        stack.set(2, x.setThrew);
      },
      /** How many C++ exceptions the trampolines caught so far. */
      caught: () => cppCaught,
      /** Forgets a C++ exception that left Z3 through its API (before each call into Z3). */
      reset() {
        cppInFlight = false;
      },
    };
  }

  const api = { prepare, helperBytes };
  if (typeof module === 'object' && module.exports) module.exports = api;
  else root.CpaZ3FastEh = api;
})(typeof self !== 'undefined' ? self : globalThis);
