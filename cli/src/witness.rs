//! SV-COMP witnesses, format 2.0 (YAML): one typed model to read and write them, with the
//! fields of CPAchecker's witness model classes (`util/yamlwitnessexport/model`): a witness
//! is a list of entries, each a `violation_sequence` (segments of waypoints) or an
//! `invariant_set` (loop and location invariants), with the same metadata.
//!
//! Written here: violation witnesses for FALSE, from the concretely replayed counterexample
//! (an `assumption` waypoint with the value each nondeterministic assignment received,
//! located at the next statement, and the `target` at the call of `reach_error`).

use cpa_engine::cfa::{Cfa, EdgeKind, Rhs};
use cpa_engine::concrete::{Oracle, TraceStep};
use serde::{Deserialize, Deserializer, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "entry_type", rename_all = "snake_case")]
pub enum Entry {
    ViolationSequence {
        metadata: Metadata,
        content: Vec<Segment>,
    },
    InvariantSet {
        metadata: Metadata,
        content: Vec<InvariantEntry>,
    },
}

/// `format_version` is written `2.0` (a YAML number) by some tools and `"2.0"` by others.
fn version<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(match serde_yaml::Value::deserialize(d)? {
        serde_yaml::Value::String(s) => s,
        serde_yaml::Value::Number(n) => match n.as_f64() {
            Some(f) if f.fract() == 0.0 => format!("{f:.1}"),
            _ => n.to_string(),
        },
        other => {
            return Err(serde::de::Error::custom(format!(
                "format_version {other:?}"
            )))
        }
    })
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Metadata {
    #[serde(deserialize_with = "version")]
    pub format_version: String,
    pub uuid: String,
    pub creation_time: String,
    pub producer: Producer,
    pub task: TaskInfo,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Producer {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub configuration: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command_line: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskInfo {
    pub input_files: Vec<String>,
    pub input_file_hashes: BTreeMap<String, String>,
    pub specification: String,
    pub data_model: String,
    pub language: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Segment {
    pub segment: Vec<WaypointEntry>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WaypointEntry {
    pub waypoint: Waypoint,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Follow,
    Avoid,
    Cycle,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WaypointType {
    Assumption,
    Branching,
    Target,
    FunctionEnter,
    FunctionReturn,
    IdentifierEvaluation,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Waypoint {
    pub action: Action,
    #[serde(rename = "type")]
    pub kind: WaypointType,
    pub location: Location,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub constraint: Option<Constraint>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Location {
    pub file_name: String,
    pub line: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function: Option<String>,
}

/// A waypoint's constraint: a C expression, or `true`/`false` for a branching.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Constraint {
    pub value: ConstraintValue,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ConstraintValue {
    Branch(bool),
    Text(String),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InvariantEntry {
    pub invariant: Invariant,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InvariantType {
    LoopInvariant,
    LocationInvariant,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Invariant {
    #[serde(rename = "type")]
    pub kind: InvariantType,
    pub location: Location,
    pub value: String,
    pub format: String,
}

/// Reads a witness (a YAML list of entries).
pub fn parse(text: &str) -> Result<Vec<Entry>, String> {
    serde_yaml::from_str(text).map_err(|e| format!("not a witness in format 2.0: {e}"))
}

pub fn to_yaml(entries: &[Entry]) -> String {
    serde_yaml::to_string(entries).expect("a witness serializes")
}

pub const UNREACH_CALL: &str = "CHECK( init(main()), LTL(G ! call(reach_error())) )";

/// The metadata of a witness for `file` (its bytes `source`) made with `preset` at
/// `creation_time`. The uuid is derived from the program, the configuration and the kind of
/// witness, so that the same run writes the same witness.
pub fn metadata(
    file: &str,
    source: &[u8],
    preset: &str,
    kind: &str,
    creation_time: String,
) -> Metadata {
    let hash = hex(&Sha256::digest(source));
    let mut id = Sha256::new();
    id.update(source);
    id.update(preset.as_bytes());
    id.update(kind.as_bytes());
    let b = id.finalize();
    // A version-4-shaped uuid from the hash (version and variant bits set).
    let u = hex(&b[..16]);
    let uuid = format!(
        "{}-{}-4{}-{:x}{}-{}",
        &u[0..8],
        &u[8..12],
        &u[13..16],
        (u8::from_str_radix(&u[16..17], 16).unwrap_or(0) & 0x3) | 0x8,
        &u[17..20],
        &u[20..32]
    );
    Metadata {
        format_version: "2.0".into(),
        uuid,
        creation_time,
        producer: Producer {
            name: "CPA Playground".into(),
            version: Some(env!("CARGO_PKG_VERSION").into()),
            configuration: Some(preset.into()),
            description: None,
            command_line: None,
        },
        task: TaskInfo {
            input_files: vec![file.into()],
            input_file_hashes: BTreeMap::from([(file.to_string(), hash)]),
            specification: UNREACH_CALL.into(),
            data_model: "ILP32".into(),
            language: "C".into(),
        },
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The current time as RFC 3339 in UTC (`2026-11-24T15:04:05Z`).
pub fn now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// The violation witness of a counterexample: after each nondeterministic assignment an
/// assumption waypoint `x == v` at the next step's statement, then the target.
pub fn violation(cfa: &Cfa, trace: &[TraceStep], file: &str, metadata: Metadata) -> Entry {
    let location = |step: &TraceStep| {
        let e = cfa.edge(cpa_engine::cfa::EdgeId(step.edge));
        let function = cfa.function(cfa.node(e.from).function).name.clone();
        Location {
            file_name: file.into(),
            line: e.span.start_line,
            column: Some(e.span.start_col),
            function: Some(function),
        }
    };
    let mut content = Vec::new();
    for (i, step) in trace.iter().enumerate() {
        let e = cfa.edge(cpa_engine::cfa::EdgeId(step.edge));
        let assigned = match &e.kind {
            EdgeKind::Assign {
                lhs,
                rhs: Rhs::Nondet { .. },
            } => *lhs,
            EdgeKind::Declare {
                var,
                init: Some(Rhs::Nondet { .. }),
            } => *var,
            _ => continue,
        };
        // A nondeterministic value the front end put in a temporary (`__tmp_0`, before a
        // conversion) is stated for the user variable it is copied into.
        let (assigned, at) = if cfa.var(assigned).synthetic {
            match trace[i + 1..].iter().take(4).position(|s| {
                copy_of(cfa, cpa_engine::cfa::EdgeId(s.edge)) == Some((assigned, true))
            }) {
                Some(k) => {
                    let copy = &trace[i + 1 + k];
                    let e = cfa.edge(cpa_engine::cfa::EdgeId(copy.edge));
                    match written(&e.kind) {
                        Some(x) => (x, i + 1 + k),
                        None => continue,
                    }
                }
                None => continue,
            }
        } else {
            (assigned, i)
        };
        let Some(next) = trace.get(at + 1) else {
            continue;
        };
        let name = &cfa.var(assigned).name;
        // The trace's values are those after each step.
        let Some(value) = trace[at].values.get(name.as_str()) else {
            continue;
        };
        content.push(Segment {
            segment: vec![WaypointEntry {
                waypoint: Waypoint {
                    action: Action::Follow,
                    kind: WaypointType::Assumption,
                    location: location(next),
                    constraint: Some(Constraint {
                        value: ConstraintValue::Text(format!("{name} == {value}")),
                        format: Some("c_expression".into()),
                    }),
                },
            }],
        });
    }
    // The last step enters the error location (the call of reach_error, or a failed assert).
    if let Some(last) = trace.last() {
        content.push(Segment {
            segment: vec![WaypointEntry {
                waypoint: Waypoint {
                    action: Action::Follow,
                    kind: WaypointType::Target,
                    location: location(last),
                    constraint: None,
                },
            }],
        });
    }
    Entry::ViolationSequence { metadata, content }
}

/// The variable an assignment or declaration writes.
fn written(kind: &EdgeKind) -> Option<cpa_engine::ir::VarId> {
    match kind {
        EdgeKind::Assign { lhs, .. } => Some(*lhs),
        EdgeKind::Declare { var, .. } => Some(*var),
        _ => None,
    }
}

/// For an edge that copies a front-end temporary into a user variable (`int n = __tmp_0;`,
/// conversions allowed): `(temporary, true)`.
fn copy_of(cfa: &Cfa, edge: cpa_engine::cfa::EdgeId) -> Option<(cpa_engine::ir::VarId, bool)> {
    let e = cfa.edge(edge);
    let (target, rhs) = match &e.kind {
        EdgeKind::Assign {
            lhs,
            rhs: Rhs::Expr(x),
        } => (*lhs, x),
        EdgeKind::Declare {
            var,
            init: Some(Rhs::Expr(x)),
        } => (*var, x),
        _ => return None,
    };
    if cfa.var(target).synthetic {
        return None;
    }
    let mut x = rhs;
    while let cpa_engine::ir::ExprKind::Cast { operand, .. } = &x.kind {
        x = operand;
    }
    match x.kind {
        cpa_engine::ir::ExprKind::Var(t) if cfa.var(t).synthetic => Some((t, true)),
        _ => None,
    }
}

/// The values the assumption waypoints of a violation sequence give, in order: constraints
/// of the form `NAME == INTEGER`.
fn assumed_values(content: &[Segment]) -> Vec<(String, i128)> {
    content
        .iter()
        .flat_map(|s| &s.segment)
        .filter(|w| w.waypoint.kind == WaypointType::Assumption)
        .filter_map(|w| match &w.waypoint.constraint {
            Some(Constraint {
                value: ConstraintValue::Text(t),
                ..
            }) => {
                let (name, value) = t.split_once("==")?;
                let value = value.trim().trim_end_matches(['u', 'U', 'l', 'L']);
                let name = name.trim().trim_start_matches('(').to_string();
                Some((name, value.trim_end_matches(')').trim().parse().ok()?))
            }
            _ => None,
        })
        .collect()
}

/// Nondeterministic values from a witness: each request for a variable takes the next value
/// the witness assumes for that name; a value the witness does not give is 0, and so is
/// every uninitialised local.
struct WitnessOracle<'a> {
    cfa: &'a Cfa,
    values: Vec<(String, i128)>,
    used: Vec<bool>,
    /// Front-end temporaries and the user variable each is copied into.
    copies: BTreeMap<cpa_engine::ir::VarId, cpa_engine::ir::VarId>,
}

impl Oracle for WitnessOracle<'_> {
    fn value(
        &mut self,
        _step: usize,
        edge: &cpa_engine::cfa::Edge,
        var: cpa_engine::ir::VarId,
        ty: cpa_engine::ir::IntType,
    ) -> Option<i128> {
        // An uninitialised local is no input the witness speaks about (violation witnesses
        // give the values of nondeterministic calls): 0.
        if matches!(edge.kind, EdgeKind::Declare { init: None, .. }) {
            return Some(0);
        }
        // A temporary answers for the user variable it is copied into.
        let name = match self.copies.get(&var) {
            Some(user) => &self.cfa.var(*user).name,
            None => &self.cfa.var(var).name,
        };
        let i = (0..self.values.len()).find(|i| !self.used[*i] && &self.values[*i].0 == name);
        Some(i.map_or(0, |i| {
            self.used[i] = true;
            ty.wrap(self.values[i].1)
        }))
    }
}

fn violation_sequence(entries: &[Entry]) -> Option<&Vec<Segment>> {
    entries.iter().find_map(|e| match e {
        Entry::ViolationSequence { content, .. } => Some(content),
        Entry::InvariantSet { .. } => None,
    })
}

/// Why a witness cannot be checked here (correctness witnesses are not validated yet).
pub fn checkable(entries: &[Entry]) -> Result<(), String> {
    match violation_sequence(entries) {
        Some(_) => Ok(()),
        None => Err(
            "only violation witnesses are validated so far; this one has only invariant sets"
                .into(),
        ),
    }
}

/// Longest replay of a violation witness.
const MAX_REPLAY: usize = 1_000_000;

/// Checks a witness's meaning on `cfa`: a violation sequence is replayed by the concrete
/// interpreter with the values its assumption waypoints give; it is confirmed when the run
/// reaches the error at the line of the witness's target. `Err` is the reason it is refuted.
/// Only violation sequences are checked: call [`checkable`] first.
pub fn validate(cfa: &Cfa, entries: &[Entry]) -> Result<(), String> {
    let Some(content) = violation_sequence(entries) else {
        return Err("the witness has no violation sequence".into());
    };
    let target = content
        .iter()
        .flat_map(|s| &s.segment)
        .find(|w| w.waypoint.kind == WaypointType::Target)
        .map(|w| w.waypoint.location.line)
        .ok_or("the violation sequence has no target waypoint")?;
    let values = assumed_values(content);
    let mut copies = BTreeMap::new();
    for e in &cfa.edges {
        if let (Some((t, _)), Some(x)) = (copy_of(cfa, e.id), written(&e.kind)) {
            copies.entry(t).or_insert(x);
        }
    }
    let mut oracle = WitnessOracle {
        cfa,
        used: vec![false; values.len()],
        values,
        copies,
    };
    let run = cpa_engine::concrete::run(cfa, &mut oracle, MAX_REPLAY);
    match run.outcome {
        cpa_engine::concrete::Outcome::ReachedError => {
            let line = run.trace.last().map(|s| s.line).unwrap_or(0);
            if line == target {
                Ok(())
            } else {
                Err(format!(
                    "the replay reaches the error at line {line}, the witness's target is at line {target}"
                ))
            }
        }
        cpa_engine::concrete::Outcome::Terminated => {
            Err("the replay with the witness's values ends without reaching the error".into())
        }
        cpa_engine::concrete::Outcome::StepLimit => Err(format!(
            "the replay did not reach the error within {MAX_REPLAY} steps"
        )),
        cpa_engine::concrete::Outcome::Failed(e) => Err(format!("the replay failed: {e}")),
    }
}

/// `cpa validate-witness PROGRAM WITNESS`.
pub fn run_validate(program: &str, witness: &str) -> std::process::ExitCode {
    let Ok(parsed) = crate::input::load(program) else {
        return std::process::ExitCode::from(1);
    };
    let entries = match std::fs::read_to_string(witness)
        .map_err(|e| format!("cannot read file: {e}"))
        .and_then(|t| parse(&t))
    {
        Ok(e) => e,
        Err(e) => {
            eprintln!("{witness}: error: {e}");
            return std::process::ExitCode::from(1);
        }
    };
    if let Err(e) = checkable(&entries) {
        eprintln!("{witness}: error: {e}");
        return std::process::ExitCode::from(1);
    }
    match validate(&parsed.cfa, &entries) {
        Ok(()) => {
            println!("confirmed");
            std::process::ExitCode::SUCCESS
        }
        Err(why) => {
            println!("refuted: {why}");
            std::process::ExitCode::from(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// CPAchecker's examples (a violation witness, two valid and four invalid correctness
    /// witnesses) read into the model, written back and read again unchanged.
    #[test]
    fn cpachecker_examples_round_trip() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/witnesses");
        let mut n = 0;
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.extension().is_none_or(|x| x != "yml") {
                continue;
            }
            let entries = parse(&std::fs::read_to_string(&p).unwrap())
                .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            assert!(!entries.is_empty(), "{}", p.display());
            for entry in &entries {
                let (Entry::ViolationSequence { metadata, .. }
                | Entry::InvariantSet { metadata, .. }) = entry;
                assert_eq!(metadata.format_version, "2.0", "{}", p.display());
            }
            assert_eq!(
                parse(&to_yaml(&entries)).unwrap(),
                entries,
                "{}",
                p.display()
            );
            n += 1;
        }
        assert_eq!(n, 7);
    }

    #[test]
    fn broken_witnesses_are_rejected_with_a_message() {
        for bad in [
            "- entry_type: nonsense\n",
            "hello",
            "- entry_type: invariant_set\n  content: []\n",
        ] {
            assert!(parse(bad).unwrap_err().contains("not a witness"), "{bad}");
        }
    }

    #[test]
    fn the_clock_is_rfc3339() {
        let t = now();
        assert_eq!(t.len(), 20, "{t}");
        assert!(
            t.starts_with("20") && t.ends_with('Z') && &t[10..11] == "T",
            "{t}"
        );
    }
}
