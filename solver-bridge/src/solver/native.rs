//! `z3 -in` as a long-lived child process, one per `NativeZ3`.
//!
//! After the caller's text the backend sends `(echo "<sentinel>")` and reads until that line, so
//! it knows where the reply ends without guessing from the commands. A process that dies is
//! restarted and the death reported (the caller's assertions are gone with it).

use super::{validate_query, Solver, SolverError};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

const SENTINEL: &str = "cpa-solver-bridge:end-of-reply";

struct Process {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

/// The Z3 version `scripts/setup.sh` installs: the one the browser's `z3-solver` package is
/// built from, so that a run natively and one in the page ask the same solver.
pub const PINNED_Z3_VERSION: &str = "5.1.0";

/// The solver program: the one `CPA_Z3` names; otherwise the pinned Z3 that `scripts/setup.sh`
/// unpacks into the cargo target directory (`target/z3-<version>/bin/z3`, found from this
/// executable's location, so `target/release/cpa` and the test binaries use it); otherwise
/// `z3` from `PATH`.
pub fn default_program() -> String {
    if let Ok(p) = std::env::var("CPA_Z3") {
        return p;
    }
    if let Ok(exe) = std::env::current_exe() {
        for dir in exe.ancestors().skip(1) {
            let pinned = dir
                .join(format!("z3-{PINNED_Z3_VERSION}"))
                .join("bin")
                .join("z3");
            if pinned.is_file() {
                return pinned.to_string_lossy().into_owned();
            }
        }
    }
    "z3".to_string()
}

/// The native Z3 backend.
pub struct NativeZ3 {
    program: String,
    args: Vec<String>,
    process: Option<Process>,
    restarts: u32,
}

impl NativeZ3 {
    /// Starts `z3 -in` from [`default_program`].
    pub fn new() -> Result<NativeZ3, SolverError> {
        NativeZ3::with_program(&default_program(), &["-in"])
    }

    /// Starts `program args...`, which must read SMT-LIB from stdin like `z3 -in`.
    pub fn with_program(program: &str, args: &[&str]) -> Result<NativeZ3, SolverError> {
        let mut z = NativeZ3 {
            program: program.to_string(),
            args: args.iter().map(|s| s.to_string()).collect(),
            process: None,
            restarts: 0,
        };
        z.process = Some(z.spawn()?);
        Ok(z)
    }

    fn spawn(&self) -> Result<Process, SolverError> {
        let mut child = Command::new(&self.program)
            .args(&self.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| SolverError::NotFound {
                program: self.program.clone(),
                message: if e.kind() == std::io::ErrorKind::NotFound {
                    if self.program.contains('/') {
                        "no such file (CPA_Z3 or the pinned Z3 names it)".to_string()
                    } else {
                        format!(
                            "not found: no z3-{PINNED_Z3_VERSION}/bin/z3 in a directory above \
                             this program and no z3 on PATH (run `make setup`, or set CPA_Z3 \
                             to a z3 binary)"
                        )
                    }
                } else {
                    e.to_string()
                },
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(SolverError::Io {
                message: "no pipes to the solver process".into(),
            });
        };
        Ok(Process {
            child,
            stdin,
            stdout: BufReader::new(stdout),
        })
    }

    /// The operating-system id of the current solver process.
    pub fn pid(&self) -> Option<u32> {
        self.process.as_ref().map(|p| p.child.id())
    }

    /// How many times the process was restarted after dying.
    pub fn restarts(&self) -> u32 {
        self.restarts
    }

    /// Reaps the dead process, starts a new one, and describes what happened.
    fn died(&mut self, what: &str) -> SolverError {
        let status = self.process.take().map(|mut p| {
            let _ = p.child.kill();
            p.child
                .wait()
                .map(|s| s.to_string())
                .unwrap_or_else(|e| e.to_string())
        });
        let message = format!(
            "{what}; {} {}",
            self.program,
            status.unwrap_or_else(|| "was not running".into())
        );
        match self.spawn() {
            Ok(p) => {
                self.process = Some(p);
                self.restarts += 1;
                SolverError::Died {
                    message,
                    restarted: true,
                }
            }
            Err(e) => SolverError::Died {
                message: format!("{message}; restart failed: {e}"),
                restarted: false,
            },
        }
    }
}

impl Solver for NativeZ3 {
    fn eval(&mut self, text: &str) -> Result<String, SolverError> {
        validate_query(text)?;
        if self.process.is_none() {
            self.process = Some(self.spawn()?);
            self.restarts += 1;
        }
        let Some(p) = self.process.as_mut() else {
            return Err(SolverError::Io {
                message: "no solver process".into(),
            });
        };
        // One write (the pipe is unbuffered): each write wakes the solver, which reads and
        // parses what has arrived, so the query and its sentinel go together.
        let mut message = String::with_capacity(text.len() + SENTINEL.len() + 12);
        message.push_str(text);
        message.push_str("\n(echo \"");
        message.push_str(SENTINEL);
        message.push_str("\")\n");
        let sent = p
            .stdin
            .write_all(message.as_bytes())
            .and_then(|_| p.stdin.flush());
        if let Err(e) = sent {
            return Err(self.died(&format!("writing the query failed: {e}")));
        }
        let mut reply = String::new();
        let mut line = String::new();
        loop {
            line.clear();
            match p.stdout.read_line(&mut line) {
                Ok(0) => return Err(self.died("the solver closed its output")),
                Ok(_) => {
                    if line.trim_end() == SENTINEL {
                        break;
                    }
                    reply.push_str(&line);
                }
                Err(e) => return Err(self.died(&format!("reading the reply failed: {e}"))),
            }
        }
        let trimmed = reply.trim_end().len();
        reply.truncate(trimmed);
        Ok(reply)
    }
}

impl Drop for NativeZ3 {
    fn drop(&mut self) {
        if let Some(mut p) = self.process.take() {
            let _ = p.stdin.write_all(b"(exit)\n");
            let _ = p.stdin.flush();
            let _ = p.child.kill();
            let _ = p.child.wait();
        }
    }
}
