// Bootstrap of the engine worker. A classic (non-module) worker, because both wasm-bindgen's
// no-modules output (cpa-worker.js) and Z3's Emscripten build (z3-built.js) are loaded with
// importScripts. Requests arriving while the engine's wasm compiles are queued, not dropped.
'use strict';

// The files this worker loads: scripts/hash-assets.py gives each its content hash in its name
// and writes the new names here (and Z3's size in bytes, for the download's progress: a
// compressed transfer's Content-Length is not the size the stream yields).
const Z3_WASM = 'z3-built.wasm';
const Z3_WASM_BYTES = 0;
const Z3_JS = 'z3-built.js';
const Z3_FAST_EH = 'z3-fast-eh.js';
const ENGINE_JS = 'cpa-worker.js';
const ENGINE_WASM = 'cpa-worker_bg.wasm';

const queued = [];
const CFA_REQUEST = /^\{"id":\d+,"request":\{"type":"cfa-report"/;
self.onmessage = (e) => queued.push(e.data);

// ---- Z3 (npm z3-solver's z3-built.js/.wasm), loaded on first use ----
// Z3's threads need SharedArrayBuffer, so the page must be cross-origin isolated.
let z3 = null;
let z3Loading = null;
let fastEh = null;

function progress(loaded, total, done) {
  self.postMessage(JSON.stringify({ type: 'z3-progress', loaded, total, done }));
}

/**
 * Emscripten's `instantiateWasm` hook: fetches z3-built.wasm while counting the bytes (posted
 * to the page as `z3-progress` messages, at most every 100 ms) and compiles it as it streams.
 */
function instantiateWithProgress(imports, receiveInstance) {
  (async () => {
    const response = await fetch(Z3_WASM);
    if (!response.ok) throw new Error(`${Z3_WASM}: HTTP ${response.status}`);
    const total = Z3_WASM_BYTES || Number(response.headers.get('content-length')) || 0;
    let loaded = 0;
    let last = 0;
    const counted = response.body.pipeThrough(new TransformStream({
      transform(chunk, controller) {
        loaded += chunk.byteLength;
        const now = performance.now();
        if (now - last > 100) { last = now; progress(loaded, total, false); }
        controller.enqueue(chunk);
      },
    }));
    const streamed = new Response(counted, { headers: { 'Content-Type': 'application/wasm' } });
    // Z3's C++ exception trampolines in wasm instead of JS (z3-fast-eh.js).
    fastEh = CpaZ3FastEh.prepare(imports);
    const { instance, module } = await WebAssembly.instantiateStreaming(streamed, imports);
    fastEh.attach(instance);
    console.info(`z3: ${fastEh.replaced} C++ exception trampolines in wasm`);
    progress(loaded, total || loaded, false);
    receiveInstance(instance, module);
  })().catch((e) => {
    z3Failed = String(e && e.message ? e.message : e);
    fatalLoad(z3Failed);
  });
  return {};
}

let z3Failed = null;
let fatalLoad = () => {};

/** Loads Z3 once; the promise resolves when cpaZ3Eval can be called. */
self.cpaZ3Load = function () {
  if (!z3Loading) {
    // Said at once: the page shows "Loading Z3" (not "ready") before the first byte arrives.
    progress(0, Z3_WASM_BYTES, false);
    z3Loading = (async () => {
      importScripts(Z3_FAST_EH, Z3_JS);
      const M = await new Promise((resolve, reject) => {
        fatalLoad = reject;
        initZ3({
          locateFile: (f) => f,
          mainScriptUrlOrBlob: Z3_JS,
          instantiateWasm: instantiateWithProgress,
        }).then(resolve, reject);
      });
      z3 = { M, ctx: newContext(M) };
      progress(1, 1, true);
    })();
    // A failed load may be retried by the next query.
    z3Loading.catch(() => { z3Loading = null; });
  }
  return z3Loading;
};

function newContext(M) {
  const cfg = M.ccall('Z3_mk_config', 'number', [], []);
  const ctx = M.ccall('Z3_mk_context', 'number', ['number'], [cfg]);
  M.ccall('Z3_del_config', null, ['number'], [cfg]);
  // As z3-solver's own wrapper does: Z3's default error handler prints the error and calls
  // exit(1), which ends the wasm runtime (every later query then fails). With the no-op
  // handler, an error (the resource limit reached inside a tactic) is Z3's reply text, as
  // with the native `z3 -in`.
  M._set_noop_error_handler(ctx);
  return ctx;
}

/**
 * Replaces the worker's Z3 context with a new one: what `(reset)` does in `z3 -in`. (In the
 * API, `(reset)` keeps the context's term manager, and Z3's answers then depend on the terms
 * seen before.) The solver bridge's browser backend calls this for every `(reset)` it is sent.
 */
self.cpaZ3Reset = function () {
  if (!z3) throw new Error('Z3 is not loaded (call cpaZ3Load first)');
  const old = z3.ctx;
  z3.ctx = newContext(z3.M);
  z3.M.ccall('Z3_del_context', null, ['number'], [old]);
};

/**
 * Evaluates SMT-LIB text on the worker's one long-lived Z3 context and returns Z3's reply,
 * synchronously (the engine's solver trait is synchronous). Throws if Z3 is not loaded yet.
 */
self.cpaZ3Eval = function (text) {
  if (!z3) throw new Error('Z3 is not loaded (call cpaZ3Load first)');
  fastEh.reset();
  return z3.M.ccall('Z3_eval_smtlib2_string', 'string', ['number', 'string'], [z3.ctx, text]);
};

// ---- The engine (Rust, web/src/bin/cpa-worker.rs) ----
function fatal(message) {
  self.postMessage(JSON.stringify({ type: 'fatal', message: String(message) }));
}

importScripts(ENGINE_JS);
// Z3 loads while the engine compiles: the first run needs both.
self.cpaZ3Load().catch(() => {});
wasm_bindgen({ module_or_path: ENGINE_WASM }).then(
  () => {
    // One message at a time: a request that waits for Z3 must not let the next one (an
    // `advance` after a `start`, say) overtake it.
    let chain = Promise.resolve();
    const handle = (data) => {
      // A CFA needs no solver: while Z3 is still on its way it does not wait behind a run's
      // start, so the editor, the CFA and the LBE summary work before Z3 has arrived. (The
      // prefix is how the page serializes the request: web/src/protocol.rs pins it in a test.)
      if (!z3 && CFA_REQUEST.test(data)) {
        wasm_bindgen.handle_message(data).catch(fatal);
        return;
      }
      chain = chain.then(() => wasm_bindgen.handle_message(data)).catch(fatal);
    };
    self.onmessage = (e) => handle(e.data);
    queued.splice(0).forEach(handle);
  },
  (err) => fatal('the engine failed to load: ' + err),
);
