//! The engine worker's request handling, independent of the browser so it can be tested
//! natively. `bin/cpa-worker.rs` wires it to `postMessage` and to Z3.

use crate::protocol::{Reply, Request, RequestEnvelope, WorkerMessage};
use cpa_engine::report::{cfa_report, CfaReport};

/// What the worker must do for one incoming message.
#[derive(Debug, PartialEq, Eq)]
pub enum Work {
    /// Post this message (a complete `WorkerMessage` JSON text).
    Post(String),
    /// Load Z3 if needed, evaluate `text`, and answer request `id` with [`z3_reply`].
    Z3 { id: u64, text: String },
}

pub fn message_json(msg: &WorkerMessage<&CfaReport>) -> String {
    // Serializing these types cannot fail: no maps with non-string keys, no custom impls.
    serde_json::to_string(msg).unwrap_or_else(|e| {
        format!(r#"{{"type":"fatal","message":"cannot serialize a reply: {e}"}}"#)
    })
}

pub fn reply_json(id: u64, reply: Reply<&CfaReport>) -> String {
    message_json(&WorkerMessage::Reply { id, reply })
}

pub fn ready_json() -> String {
    message_json(&WorkerMessage::Ready)
}

pub fn fatal_json(message: impl Into<String>) -> String {
    message_json(&WorkerMessage::Fatal {
        message: message.into(),
    })
}

/// The reply to a Z3 query, from what `cpaZ3Eval` returned or threw.
pub fn z3_reply(id: u64, result: Result<String, String>) -> String {
    reply_json(
        id,
        match result {
            Ok(text) => Reply::Z3Reply { text },
            Err(message) => Reply::Error {
                message: format!("Z3: {message}"),
            },
        },
    )
}

pub fn handle(data: &str) -> Work {
    let envelope: RequestEnvelope = match serde_json::from_str(data) {
        Ok(e) => e,
        Err(e) => {
            // Without an id there is no request to answer; the page only sends well-formed
            // requests, so this is a protocol bug worth surfacing loudly.
            let id = serde_json::from_str::<serde_json::Value>(data)
                .ok()
                .and_then(|v| v.get("id").and_then(|i| i.as_u64()));
            return Work::Post(match id {
                Some(id) => reply_json(
                    id,
                    Reply::Error {
                        message: format!("malformed request: {e}"),
                    },
                ),
                None => fatal_json(format!("malformed request: {e}")),
            });
        }
    };
    match envelope.request {
        Request::CfaReport { file, source } => {
            let report = cfa_report(&file, &source);
            Work::Post(reply_json(
                envelope.id,
                Reply::CfaReport { report: &report },
            ))
        }
        Request::Z3Query { text } => Work::Z3 {
            id: envelope.id,
            text,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::PageMessage;

    fn post(w: Work) -> PageMessage {
        match w {
            Work::Post(text) => serde_json::from_str(&text).unwrap(),
            other => panic!("expected a post, got {other:?}"),
        }
    }

    #[test]
    fn answers_cfa_reports_with_diagnostics_or_graphs() {
        let req = r#"{"id":4,"request":{"type":"cfa-report","file":"a.c","source":"int main(void) { return 0 }"}}"#;
        match post(handle(req)) {
            WorkerMessage::Reply {
                id: 4,
                reply: Reply::CfaReport { report },
            } => {
                assert!(!report.ok);
                assert_eq!(report.diagnostics[0].severity, "error");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn z3_queries_are_deferred_and_errors_answered() {
        let req = r#"{"id":5,"request":{"type":"z3-query","text":"(check-sat)"}}"#;
        assert_eq!(
            handle(req),
            Work::Z3 {
                id: 5,
                text: "(check-sat)".into()
            }
        );
        let r: PageMessage = serde_json::from_str(&z3_reply(5, Err("boom".into()))).unwrap();
        assert!(matches!(
            r,
            WorkerMessage::Reply {
                id: 5,
                reply: Reply::Error { .. }
            }
        ));
        let r: PageMessage = serde_json::from_str(&z3_reply(5, Ok("sat\n".into()))).unwrap();
        assert!(matches!(
            r,
            WorkerMessage::Reply {
                id: 5,
                reply: Reply::Z3Reply { .. }
            }
        ));
    }

    #[test]
    fn malformed_requests_are_answered_when_possible() {
        assert!(matches!(
            post(handle(r#"{"id":6,"request":{"type":"nope"}}"#)),
            WorkerMessage::Reply {
                id: 6,
                reply: Reply::Error { .. }
            }
        ));
        assert!(matches!(
            post(handle("garbage")),
            WorkerMessage::Fatal { .. }
        ));
        assert_eq!(post(Work::Post(ready_json())), WorkerMessage::Ready);
    }
}
