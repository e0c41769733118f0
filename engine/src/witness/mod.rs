//! SV-COMP witnesses, format 2.0 (YAML): one typed model to read and write them, with the
//! fields of CPAchecker's witness model classes (`util/yamlwitnessexport/model`): a witness
//! is a list of entries, each a `violation_sequence` (segments of waypoints) or an
//! `invariant_set` (loop and location invariants, and the function contracts of format 2.1),
//! with the same metadata.
//!
//! Written here: violation witnesses for FALSE (`violation.rs`) and correctness witnesses for
//! TRUE (`correctness.rs`); read and checked for their meaning by the same modules. No I/O and
//! no clock: the caller gives the creation time.

pub mod c_expr;
pub mod correctness;
pub mod violation;

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

impl Entry {
    pub fn metadata_mut(&mut self) -> &mut Metadata {
        match self {
            Entry::ViolationSequence { metadata, .. } | Entry::InvariantSet { metadata, .. } => {
                metadata
            }
        }
    }
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
    /// Format 2.1: `requires` and `ensures` of the function that starts at the location.
    FunctionContract,
}

/// An entry of an invariant set: a loop or location invariant has a `value`; a function
/// contract (format 2.1, `format: ext_c_expression`) has `requires` and `ensures`, where
/// `\result` is the return value (the fields of CPAchecker's `InvariantEntry` and
/// `FunctionContractEntry`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Invariant {
    #[serde(rename = "type")]
    pub kind: InvariantType,
    pub location: Location,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requires: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ensures: Option<String>,
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

/// The witness of a finished run of `preset` on `file` (its text `source`): a violation
/// witness for FALSE, a correctness witness (`invariants` at loop heads) for TRUE, none for
/// UNKNOWN. The creation time comes from the caller (the engine reads no clock).
pub fn of_run(
    cfa: &crate::cfa::Cfa,
    file: &str,
    source: &str,
    preset: &str,
    verdict: &crate::verdict::Verdict,
    invariants: &[crate::invariants::LocationInvariant],
    creation_time: String,
) -> Option<Entry> {
    use crate::verdict::Verdict;
    match verdict {
        Verdict::False { counterexample } => {
            let meta = metadata(file, source.as_bytes(), preset, "violation", creation_time);
            Some(violation::write(cfa, &counterexample.trace, file, meta))
        }
        Verdict::True => {
            let meta = metadata(
                file,
                source.as_bytes(),
                preset,
                "correctness",
                creation_time,
            );
            Some(correctness::write(cfa, source, file, invariants, meta))
        }
        Verdict::Unknown { .. } => None,
    }
}

pub use crate::proof::Outcome;

/// Checks a witness's meaning on `cfa`: a violation sequence by concrete replay
/// ([`violation::validate`]), invariant sets by the solver ([`crate::proof::induction::check`]; they must
/// suffice for the proof when the witness's specification is unreach-call), with function
/// contracts by assume-guarantee ([`crate::proof::contracts::assume_guarantee`]). `Err`: the
/// witness cannot be read on this program (an invariant that is no C expression over its
/// variables, a location it does not have).
pub fn validate(
    cfa: &crate::cfa::Cfa,
    entries: &[Entry],
    smt: &mut dyn crate::smt::Smt,
) -> Result<Outcome, String> {
    for e in entries {
        if let Entry::ViolationSequence { content, .. } = e {
            return Ok(match violation::validate(cfa, content) {
                Ok(()) => Outcome::Confirmed,
                Err(why) => Outcome::Refuted(why),
            });
        }
    }
    let mut content = Vec::new();
    let mut sufficient = false;
    for e in entries {
        if let Entry::InvariantSet {
            metadata,
            content: c,
        } = e
        {
            content.extend(c.iter().cloned());
            sufficient |= metadata.task.specification.contains("reach_error");
        }
    }
    let invariants = correctness::read(cfa, &content)?;
    let contracts = correctness::read_contracts(cfa, &content)?;
    let outcome = if contracts.is_empty() {
        crate::proof::induction::check(cfa, smt, &invariants, sufficient)
    } else {
        // Assume-guarantee: the program with the calls replaced by the contracts, and each
        // function's body with its contract as the invariant at its exit.
        let posts = contracts
            .iter()
            .map(|(f, (e, _))| (*f, e.clone()))
            .collect();
        crate::proof::contracts::assume_guarantee(cfa, &posts, |program, contract| {
            let mut invs = invariants.clone();
            if let Some((f, post)) = contract {
                let text = contracts[&f].1.clone();
                invs.entry(program.function(f).exit)
                    .or_default()
                    .push((post.clone(), format!("ensures {text}")));
            }
            crate::proof::induction::check(program, smt, &invs, sufficient)
        })
    };
    Ok(outcome.unwrap_or_else(|e| Outcome::Undecided(e.to_string())))
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
}
