//! The page's side of the engine worker: sends requests, routes each reply to the code that
//! asked (typed: a request's handler gets its [`Ask::Answer`]), and replaces the worker when it
//! dies or a run must be cancelled.

use crate::protocol::{
    answer_of, Ask, Batch, PageMessage, Reply, Request, RequestEnvelope, WorkerMessage, CANCELLED,
};
use crate::state::EngineStatus;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::{ErrorEvent, MessageEvent, Worker};

pub type PageReply = Reply<crate::protocol::CfaReport>;
type Handler = Box<dyn FnOnce(Result<PageReply, String>)>;
type BatchHandler = Box<dyn FnMut(Batch)>;

struct Inner {
    script: String,
    worker: Option<Worker>,
    next_id: u64,
    pending: HashMap<u64, Handler>,
    /// Streaming requests: what to do with each `events` message before the reply.
    streams: HashMap<u64, BatchHandler>,
    on_status: yew::Callback<EngineStatus>,
    // Kept alive as long as the worker they are attached to.
    _onmessage: Option<Closure<dyn FnMut(MessageEvent)>>,
    _onerror: Option<Closure<dyn FnMut(ErrorEvent)>>,
}

#[derive(Clone)]
pub struct EngineClient {
    inner: Rc<RefCell<Inner>>,
}

impl PartialEq for EngineClient {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.inner, &other.inner)
    }
}

impl EngineClient {
    /// Starts the worker from `script` (a classic worker script URL).
    pub fn new(script: &str, on_status: yew::Callback<EngineStatus>) -> EngineClient {
        let client = EngineClient {
            inner: Rc::new(RefCell::new(Inner {
                script: script.to_string(),
                worker: None,
                next_id: 1,
                pending: HashMap::new(),
                streams: HashMap::new(),
                on_status,
                _onmessage: None,
                _onerror: None,
            })),
        };
        client.spawn();
        client
    }

    /// A second client with a worker of its own, from the same script (the race runs there,
    /// beside the run being stepped).
    pub fn sibling(&self, on_status: yew::Callback<EngineStatus>) -> EngineClient {
        let script = self.inner.borrow().script.clone();
        EngineClient::new(&script, on_status)
    }

    fn spawn(&self) {
        let weak = Rc::downgrade(&self.inner);
        let onmessage = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            if let Some(inner) = weak.upgrade() {
                EngineClient { inner }.on_message(e.data().as_string().unwrap_or_default());
            }
        });
        let weak = Rc::downgrade(&self.inner);
        let onerror = Closure::<dyn FnMut(ErrorEvent)>::new(move |e: ErrorEvent| {
            // An uncaught error in the worker (a stack overflow in the engine's wasm, say) may
            // leave its wasm instance unusable: fail what is open and start a fresh worker,
            // after this handler has returned (restarting drops this closure).
            let message = format!("engine worker error: {}", e.message());
            let weak = weak.clone();
            wasm_bindgen_futures::spawn_local(async move {
                if let Some(inner) = weak.upgrade() {
                    EngineClient { inner }.restart(&message);
                }
            });
        });
        let script = self.inner.borrow().script.clone();
        let status = match Worker::new(&script) {
            Ok(worker) => {
                worker.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
                worker.set_onerror(Some(onerror.as_ref().unchecked_ref()));
                let mut inner = self.inner.borrow_mut();
                inner.worker = Some(worker);
                inner._onmessage = Some(onmessage);
                inner._onerror = Some(onerror);
                EngineStatus::Starting
            }
            Err(e) => EngineStatus::Failed(format!("cannot start the engine worker: {e:?}")),
        };
        let cb = self.inner.borrow().on_status.clone();
        cb.emit(status);
    }

    /// Sends `request`; `handler` runs exactly once, with its answer or an error (the
    /// worker's error reply, a worker failure or a cancellation). Returns the request id.
    pub fn ask<A: Ask + 'static>(
        &self,
        request: A,
        handler: impl FnOnce(Result<A::Answer, String>) + 'static,
    ) -> u64 {
        self.send(
            request.into(),
            None,
            Box::new(move |r| handler(r.and_then(answer_of::<A>))),
        )
    }

    /// Like [`EngineClient::ask`], and `on_batch` receives each `events` message the request
    /// streams before its reply.
    pub fn ask_streaming<A: Ask + 'static>(
        &self,
        request: A,
        on_batch: impl FnMut(Batch) + 'static,
        handler: impl FnOnce(Result<A::Answer, String>) + 'static,
    ) -> u64 {
        self.send(
            request.into(),
            Some(Box::new(on_batch)),
            Box::new(move |r| handler(r.and_then(answer_of::<A>))),
        )
    }

    /// Sends a request that has no reply (the worker's crash test).
    pub fn tell(&self, request: Request) {
        self.send(request, None, Box::new(|_| {}));
    }

    /// Whether any request is still unanswered (the worker is busy with it or queued).
    pub fn busy(&self) -> bool {
        !self.inner.borrow().pending.is_empty()
    }

    fn send(&self, request: Request, on_batch: Option<BatchHandler>, handler: Handler) -> u64 {
        let mut inner = self.inner.borrow_mut();
        let id = inner.next_id;
        inner.next_id += 1;
        let text = serde_json::to_string(&RequestEnvelope { id, request }).unwrap_or_default();
        let sent = match &inner.worker {
            Some(w) => w
                .post_message(&JsValue::from_str(&text))
                .map_err(|e| format!("cannot reach the engine worker: {e:?}")),
            None => Err("the engine worker is not running".to_string()),
        };
        match sent {
            Ok(()) => {
                inner.pending.insert(id, handler);
                if let Some(b) = on_batch {
                    inner.streams.insert(id, b);
                }
            }
            Err(e) => {
                // The handler may send again: release the borrow first.
                drop(inner);
                handler(Err(e));
            }
        }
        id
    }

    /// Cancels everything in flight by replacing the worker, on purpose (the reducer knows,
    /// and drops the answers of what was in flight): unlike [`EngineClient::restart`] this is
    /// not reported as a failure.
    pub fn cancel(&self) {
        self.replace_worker();
        let handlers = self.take_handlers();
        for h in handlers {
            h(Err(CANCELLED.to_string()));
        }
        self.spawn();
    }

    fn replace_worker(&self) {
        if let Some(w) = self.inner.borrow_mut().worker.take() {
            // Detach first: whatever the old worker had already posted must not reach the
            // handlers, which are about to be replaced (and dropped).
            w.set_onmessage(None);
            w.set_onerror(None);
            w.terminate();
        }
    }

    fn take_handlers(&self) -> Vec<Handler> {
        let mut inner = self.inner.borrow_mut();
        let mut ids: Vec<u64> = inner.pending.keys().copied().collect();
        ids.sort_unstable();
        inner.streams.clear();
        ids.into_iter()
            .filter_map(|id| inner.pending.remove(&id))
            .collect()
    }

    /// Cancels everything in flight by replacing the worker (its synchronous work cannot be
    /// interrupted any other way).
    pub fn restart(&self, reason: &str) {
        self.replace_worker();
        self.fail_all(reason);
        self.spawn();
    }

    fn fail_all(&self, reason: &str) {
        for h in self.take_handlers() {
            h(Err(reason.to_string()));
        }
        let cb = self.inner.borrow().on_status.clone();
        cb.emit(EngineStatus::Failed(reason.to_string()));
    }

    fn on_message(&self, text: String) {
        match serde_json::from_str::<PageMessage>(&text) {
            Ok(WorkerMessage::Ready) => {
                let cb = self.inner.borrow().on_status.clone();
                cb.emit(EngineStatus::Ready);
            }
            Ok(WorkerMessage::Reply { id, reply }) => {
                let handler = {
                    let mut inner = self.inner.borrow_mut();
                    inner.streams.remove(&id);
                    inner.pending.remove(&id)
                };
                if let Some(h) = handler {
                    h(Ok(reply));
                }
            }
            Ok(WorkerMessage::Events { id, batch }) => {
                // Taken out while it runs: the handler may send requests itself.
                let stream = self.inner.borrow_mut().streams.remove(&id);
                if let Some(mut f) = stream {
                    f(batch);
                    let mut inner = self.inner.borrow_mut();
                    if inner.pending.contains_key(&id) {
                        inner.streams.insert(id, f);
                    }
                }
            }
            Ok(WorkerMessage::Z3Progress {
                loaded,
                total,
                done,
            }) => {
                let cb = self.inner.borrow().on_status.clone();
                cb.emit(EngineStatus::Z3 {
                    loaded,
                    total,
                    done,
                });
            }
            Ok(WorkerMessage::Fatal { message }) => self.restart(&message),
            Err(e) => {
                let message = format!("unreadable engine message: {e}");
                web_sys::console::error_1(&message.clone().into());
                // Answer the request it belonged to, so nothing waits for it forever.
                let id = serde_json::from_str::<serde_json::Value>(&text)
                    .ok()
                    .and_then(|v| v.get("id").and_then(|i| i.as_u64()));
                let handler = id.and_then(|id| {
                    let mut inner = self.inner.borrow_mut();
                    inner.streams.remove(&id);
                    inner.pending.remove(&id)
                });
                if let Some(h) = handler {
                    h(Err(message));
                }
            }
        }
    }
}
