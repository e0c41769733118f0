//! Concrete executions for differential testing, on the engine's interpreter
//! ([`crate::concrete`]): random runs that establish ground truth (a run that reaches the error
//! makes the program FALSE), replays of recorded inputs, and replays of a reported
//! counterexample from the values it prints.

use crate::cfa::{Cfa, Edge};
use crate::concrete::accel;
use crate::concrete::{self, ExecError, Oracle, Outcome};
use crate::fuzz::Rng;
use crate::ir::{IntType, VarId};
use std::collections::BTreeMap;

/// A value of `ty`, biased towards the values that matter: 0, 1, -1, the bounds, powers of
/// two, small numbers; one draw in five is uniform over the whole type.
pub fn random_value(rng: &mut Rng, ty: IntType) -> i128 {
    let (min, max) = (ty.min_value(), ty.max_value());
    let v = match rng.weighted(&[18, 10, 6, 10, 26, 10, 20]) {
        0 => 0,
        1 => 1,
        2 => -1,
        3 => *rng.pick(&[min, max, min + 1, max - 1]),
        4 => rng.range(-16, 16),
        5 => {
            let k = rng.range(0, i128::from(ty.bits()) - 1);
            (1i128 << k) + rng.range(-1, 1)
        }
        _ => rng.range(min, max),
    };
    ty.wrap(v)
}

/// Random inputs, recorded in the order the program asks for them.
pub struct RandomOracle {
    rng: Rng,
    pub inputs: Vec<i128>,
}

impl RandomOracle {
    pub fn new(rng: Rng) -> RandomOracle {
        RandomOracle {
            rng,
            inputs: Vec::new(),
        }
    }
}

impl Oracle for RandomOracle {
    fn value(&mut self, _step: usize, _edge: &Edge, _var: VarId, ty: IntType) -> Option<i128> {
        let v = random_value(&mut self.rng, ty);
        self.inputs.push(v);
        Some(v)
    }
}

/// Recorded inputs, in order; 0 once they run out.
pub struct SequenceOracle {
    values: Vec<i128>,
    pos: usize,
}

impl SequenceOracle {
    pub fn new(values: Vec<i128>) -> SequenceOracle {
        SequenceOracle { values, pos: 0 }
    }
}

impl Oracle for SequenceOracle {
    fn value(&mut self, _step: usize, _edge: &Edge, _var: VarId, ty: IntType) -> Option<i128> {
        let v = self.values.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        Some(ty.wrap(v))
    }
}

/// What many random runs of a program showed.
#[derive(Clone, Debug, Default)]
pub struct RunsSummary {
    pub runs: usize,
    /// The inputs of the first run that reached the error.
    pub error_inputs: Option<Vec<i128>>,
    /// Runs that reached the error.
    pub errors: usize,
    pub step_limits: usize,
    /// The first execution failure other than a failed assumption (undefined behaviour, a
    /// missing value): the program is outside what the generator promises.
    pub failure: Option<String>,
}

/// `runs` random executions of at most `max_steps` edges each, seeded from `seed`.
pub fn random_runs(cfa: &Cfa, seed: u64, runs: usize, max_steps: usize) -> RunsSummary {
    let mut s = RunsSummary {
        runs,
        ..RunsSummary::default()
    };
    for r in 0..runs {
        let mut oracle = RandomOracle::new(Rng::derive(seed ^ 0x0b5e_55ed, r as u64));
        let run = concrete::run(cfa, &mut oracle, max_steps);
        match run.outcome {
            Outcome::ReachedError => {
                s.errors += 1;
                if s.error_inputs.is_none() {
                    s.error_inputs = Some(oracle.inputs);
                }
            }
            Outcome::StepLimit => s.step_limits += 1,
            Outcome::Terminated
            | Outcome::Diverges
            | Outcome::Failed(ExecError::AssumeViolated { .. }) => {}
            Outcome::Failed(e) => {
                if s.failure.is_none() {
                    s.failure = Some(e.to_string());
                }
            }
        }
    }
    s
}

/// Runs the program on recorded inputs.
pub fn run_inputs(cfa: &Cfa, inputs: &[i128], max_steps: usize) -> Outcome {
    let mut oracle = SequenceOracle::new(inputs.to_vec());
    concrete::run(cfa, &mut oracle, max_steps).outcome
}

/// One step of a reported counterexample: the source line, the operation's text, and the
/// values of the user's variables after it (as `cpa verify --json` prints them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CexStep {
    pub line: u32,
    pub op: String,
    pub values: BTreeMap<String, i128>,
}

impl From<&concrete::TraceStep> for CexStep {
    fn from(t: &concrete::TraceStep) -> CexStep {
        CexStep {
            line: t.line,
            op: t.op.clone(),
            values: t.values.clone(),
        }
    }
}

struct ReplayOracle<'a> {
    cfa: &'a Cfa,
    steps: &'a [CexStep],
    mismatch: Option<String>,
}

impl ReplayOracle<'_> {
    fn check(&mut self, step: usize, edge: &Edge) {
        if self.mismatch.is_some() {
            return;
        }
        let op = self.cfa.edge_text(edge);
        match self.steps.get(step) {
            Some(s) if s.op == op && s.line == edge.span.start_line => {}
            Some(s) => {
                self.mismatch = Some(format!(
                "step {step}: the run executes '{op}' (line {}), the counterexample '{}' (line {})",
                edge.span.start_line, s.op, s.line
            ))
            }
            None => {
                self.mismatch = Some(format!(
                    "step {step}: the run goes on ('{op}') after the counterexample's last step"
                ))
            }
        }
    }
}

impl Oracle for ReplayOracle<'_> {
    fn value(&mut self, step: usize, edge: &Edge, var: VarId, ty: IntType) -> Option<i128> {
        self.check(step, edge);
        let name = &self.cfa.var(var).name;
        // The value after the step is the value the input gave (front-end temporaries are not
        // printed; their declarations without initializer are overwritten before use).
        let v = self
            .steps
            .get(step)
            .and_then(|s| s.values.get(name))
            .copied()
            .unwrap_or(0);
        Some(ty.wrap(v))
    }

    fn executed(&mut self, step: usize, edge: &Edge) {
        self.check(step, edge);
    }
}

/// Replays a reported counterexample: executes the program with the input values the
/// counterexample shows and checks that the run takes the same steps and reaches the error.
/// A counterexample with accelerated loops (concrete execution's) is replayed by the
/// accelerating runner, whose jumps are steps of their own.
pub fn replay_counterexample(cfa: &Cfa, steps: &[CexStep]) -> Result<(), String> {
    if steps.iter().any(|s| s.op.ends_with("(accelerated)")) {
        return replay_accelerated(cfa, steps);
    }
    let mut oracle = ReplayOracle {
        cfa,
        steps,
        mismatch: None,
    };
    let run = concrete::run(cfa, &mut oracle, steps.len() + 1);
    if let Some(m) = oracle.mismatch {
        return Err(m);
    }
    match run.outcome {
        Outcome::ReachedError if run.trace.len() == steps.len() => Ok(()),
        Outcome::ReachedError => Err(format!(
            "the run reaches the error after {} steps, the counterexample has {}",
            run.trace.len(),
            steps.len()
        )),
        Outcome::Terminated | Outcome::Diverges => {
            Err("the replayed run ends without reaching the error".into())
        }
        Outcome::StepLimit => Err("the replayed run is longer than the counterexample".into()),
        Outcome::Failed(e) => Err(format!("the replayed run fails: {e}")),
    }
}

/// [`replay_counterexample`] with the accelerating runner: the oracle's step is the position
/// in the counterexample (edges and jumps), not the machine's count of edges.
fn replay_accelerated(cfa: &Cfa, steps: &[CexStep]) -> Result<(), String> {
    struct At<'a> {
        inner: ReplayOracle<'a>,
        pos: usize,
    }
    impl Oracle for At<'_> {
        fn value(&mut self, _step: usize, edge: &Edge, var: VarId, ty: IntType) -> Option<i128> {
            self.inner.value(self.pos, edge, var, ty)
        }
    }
    let mut oracle = At {
        inner: ReplayOracle {
            cfa,
            steps,
            mismatch: None,
        },
        pos: 0,
    };
    let mut runner = accel::Runner::new(cfa);
    let jump = |s: &CexStep| s.op.ends_with("(accelerated)");
    loop {
        // Loops are accelerated where the counterexample's next step is a jump (concrete
        // execution runs the parts of a run that stand for several inputs without).
        runner.accelerate = steps.get(oracle.pos + 1).is_some_and(jump);
        let step = runner.step(cfa, &mut oracle);
        if let Some(m) = oracle.inner.mismatch.take() {
            return Err(m);
        }
        let pos = oracle.pos;
        let (op, line) = match step {
            Ok(accel::Step::Edge(e)) => {
                let edge = cfa.edge(e);
                (cfa.edge_text(edge), edge.span.start_line)
            }
            Ok(accel::Step::Jump(seg)) => (accel::jump_text(cfa, &seg), cfa.node(seg.head).line),
            Ok(accel::Step::ReachedError) if pos == steps.len() => return Ok(()),
            Ok(accel::Step::ReachedError) => {
                return Err(format!(
                    "the run reaches the error after {pos} steps, the counterexample has {}",
                    steps.len()
                ))
            }
            Ok(_) => return Err("the replayed run ends without reaching the error".into()),
            Err(e) => return Err(format!("the replayed run fails: {e}")),
        };
        match steps.get(pos) {
            Some(s) if s.op == op && s.line == line => {}
            Some(s) => {
                return Err(format!(
                    "step {pos}: the run executes '{op}' (line {line}), the counterexample '{}' (line {})",
                    s.op, s.line
                ))
            }
            None => return Err(format!("step {pos}: the run goes on ('{op}') after the counterexample's last step")),
        }
        oracle.pos += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::parse_program;

    const PROG: &str = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\nint main(void) {\n  int x = __VERIFIER_nondet_int();\n  if (x == 12345) reach_error();\n  return 0;\n}\n";

    #[test]
    fn replay_accepts_a_real_counterexample_and_rejects_a_wrong_one() {
        let cfa = parse_program("t.c", PROG).unwrap().cfa;
        let mut oracle = SequenceOracle::new(vec![12345]);
        let run = concrete::run(&cfa, &mut oracle, 100);
        assert_eq!(run.outcome, Outcome::ReachedError);
        let mut steps: Vec<CexStep> = run.trace.iter().map(CexStep::from).collect();
        assert_eq!(replay_counterexample(&cfa, &steps), Ok(()));
        for s in &mut steps {
            if let Some(x) = s.values.get_mut("x") {
                *x = 12344;
            }
        }
        assert!(replay_counterexample(&cfa, &steps).is_err());
        assert!(replay_counterexample(&cfa, &steps[..2]).is_err());
    }

    #[test]
    fn random_runs_find_shallow_errors_and_record_inputs() {
        let src = PROG.replace("12345", "-1");
        let cfa = parse_program("t.c", &src).unwrap().cfa;
        let s = random_runs(&cfa, 1, 200, 100);
        assert!(s.errors > 0 && s.failure.is_none());
        let inputs = s.error_inputs.unwrap();
        assert_eq!(run_inputs(&cfa, &inputs, 100), Outcome::ReachedError);
        let cfa = parse_program("t.c", PROG).unwrap().cfa;
        assert_eq!(random_runs(&cfa, 1, 200, 100).errors, 0);
    }
}
