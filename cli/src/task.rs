//! SV-COMP inputs: task definitions (`.yml`, format versions 1.0 and 2.0) and property files
//! (`.prp`), as the SV-COMP rules and the sv-benchmarks repository define them. Only the
//! `unreach-call` and `unreach-label` properties with the ILP32 data model and the C language
//! can be checked; the rest is refused with a message (exit code 1 in `cpa verify`).

use cpa_engine::frontend::Spec;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// A property of the SV-COMP rules, by what its `.prp` file says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Property {
    /// `CHECK( init(main()), LTL(G ! call(reach_error())) )`
    UnreachCall,
    /// `CHECK( init(main()), LTL(G ! label(ERROR)) )` (the older SV-COMP and CPAchecker test
    /// property, `unreach-label.prp`).
    UnreachLabel,
    NoOverflow,
    MemSafety,
    MemCleanup,
    Termination,
    NoDataRace,
    Coverage,
}

impl Property {
    pub fn name(self) -> &'static str {
        match self {
            Property::UnreachCall => "unreach-call",
            Property::UnreachLabel => "unreach-label",
            Property::NoOverflow => "no-overflow",
            Property::MemSafety => "valid-memsafety",
            Property::MemCleanup => "valid-memcleanup",
            Property::Termination => "termination",
            Property::NoDataRace => "no-data-race",
            Property::Coverage => "coverage",
        }
    }

    /// The property a `.prp` file states (its text, whitespace ignored; `//` comments
    /// dropped).
    pub fn parse(text: &str) -> Result<Property, String> {
        let body: String = text
            .lines()
            .map(|l| l.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join(" ")
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        if body.is_empty() {
            return Err("the property file is empty".into());
        }
        if body.starts_with("COVER(") {
            return Ok(Property::Coverage);
        }
        if !body.starts_with("CHECK(init(main()),") {
            return Err(format!(
                "not an SV-COMP property (expected CHECK( init(main()), … )): {}",
                clip(&body)
            ));
        }
        let known = [
            ("LTL(G!call(reach_error()))", Property::UnreachCall),
            ("LTL(G!label(ERROR))", Property::UnreachLabel),
            ("LTL(G!overflow)", Property::NoOverflow),
            ("LTL(Gvalid-free)", Property::MemSafety),
            ("LTL(Gvalid-deref)", Property::MemSafety),
            ("LTL(Gvalid-memtrack)", Property::MemSafety),
            ("LTL(Gvalid-memcleanup)", Property::MemCleanup),
            ("LTL(Fend)", Property::Termination),
            ("LTL(G!data-race)", Property::NoDataRace),
        ];
        for (needle, p) in known {
            if body.contains(needle) {
                return Ok(p);
            }
        }
        Err(format!("unknown property: {}", clip(&body)))
    }

    /// The error locations of the property, if this tool checks it.
    pub fn spec(self) -> Option<Spec> {
        match self {
            Property::UnreachCall => Some(Spec::UnreachCall),
            Property::UnreachLabel => Some(Spec::UnreachLabel),
            _ => None,
        }
    }

    /// The property's formula as SV-COMP writes it (witness metadata).
    pub fn formula(self) -> Option<&'static str> {
        match self {
            Property::UnreachCall => Some(cpa_engine::witness::UNREACH_CALL),
            Property::UnreachLabel => Some("CHECK( init(main()), LTL(G ! label(ERROR)) )"),
            _ => None,
        }
    }
}

fn clip(s: &str) -> String {
    s.chars().take(120).collect()
}

/// `input_files` is one file or a list.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Files {
    One(String),
    Many(Vec<String>),
}

#[derive(Debug, Deserialize)]
struct PropertyEntry {
    property_file: String,
    #[serde(default)]
    expected_verdict: Option<bool>,
    #[serde(default)]
    subproperty: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct Options {
    #[serde(default)]
    language: Option<String>,
    #[serde(default)]
    data_model: Option<String>,
}

/// The fields of a task definition this tool reads (format versions 1.0 and 2.0).
#[derive(Debug, Deserialize)]
struct TaskFile {
    format_version: String,
    input_files: Files,
    #[serde(default)]
    properties: Vec<PropertyEntry>,
    #[serde(default)]
    options: Option<Options>,
}

/// A task this tool can check: one C file and a reachability property.
#[derive(Clone, Debug)]
pub struct Task {
    pub program: PathBuf,
    /// The property checked: `unreach-call` or `unreach-label`.
    pub property: Property,
    /// The expected verdict of the property, when the task states one.
    pub expected: Option<bool>,
}

/// Largest task definition or property file read (bytes): these are small text files.
const MAX_FILE: u64 = 1 << 20;

fn read_small(path: &Path) -> Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read file: {e}"))?;
    if meta.len() > MAX_FILE {
        return Err(format!(
            "file of {} bytes, more than {MAX_FILE}",
            meta.len()
        ));
    }
    std::fs::read_to_string(path).map_err(|e| format!("cannot read file: {e}"))
}

/// Reads a property file; the names `unreach-call` and `unreach-label` stand for SV-COMP's
/// files of those names.
pub fn read_property(path: &Path) -> Result<Property, String> {
    match path.to_str() {
        Some("unreach-call") => Ok(Property::UnreachCall),
        Some("unreach-label") => Ok(Property::UnreachLabel),
        _ => Property::parse(&read_small(path)?),
    }
}

/// Whether `path` names a task definition (by its extension).
pub fn is_task_definition(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("yml" | "yaml")
    )
}

/// Reads a task definition: its C file (relative to the definition) and the expected
/// verdict of the property to check, which is `spec` if given (unreach-call or unreach-label)
/// or else the task's unreach-call entry, or else its unreach-label entry. Refuses what this
/// tool cannot check.
pub fn read_task(path: &Path, spec: Option<Property>) -> Result<Task, String> {
    let text = read_small(path)?;
    let t: TaskFile =
        serde_yaml::from_str(&text).map_err(|e| format!("not a task definition: {e}"))?;
    if !matches!(t.format_version.as_str(), "1.0" | "2.0") {
        return Err(format!(
            "task definition format version '{}' is not supported (1.0 and 2.0 are)",
            t.format_version
        ));
    }
    let options = t.options.unwrap_or_default();
    if let Some(lang) = &options.language {
        if lang != "C" {
            return Err(format!("language '{lang}' is not supported (C is)"));
        }
    }
    if let Some(dm) = &options.data_model {
        if dm != "ILP32" {
            return Err(format!(
                "data model '{dm}' is not supported (ILP32 is: `long` and pointers have 32 bits)"
            ));
        }
    }
    let files = match t.input_files {
        Files::One(f) => vec![f],
        Files::Many(fs) => fs,
    };
    let [file] = files.as_slice() else {
        return Err(format!(
            "{} input files; one C file per task is supported",
            files.len()
        ));
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    if let Some(p) = spec {
        if p.spec().is_none() {
            return Err(unsupported(p));
        }
    }
    // The task's entries of checkable properties (property files resolved next to the
    // definition).
    let mut entries = Vec::new();
    for entry in &t.properties {
        if entry.subproperty.is_some() {
            continue;
        }
        let prp = dir.join(&entry.property_file);
        let property = match read_property(&prp) {
            Ok(p) => p,
            // A property file that is missing is judged by its name.
            Err(_) if entry.property_file.ends_with("unreach-call.prp") => Property::UnreachCall,
            Err(_) if entry.property_file.ends_with("unreach-label.prp") => Property::UnreachLabel,
            Err(_) => continue,
        };
        if property.spec().is_some() {
            entries.push((property, entry.expected_verdict));
        }
    }
    let wanted = spec.or_else(|| {
        [Property::UnreachCall, Property::UnreachLabel]
            .into_iter()
            .find(|p| entries.iter().any(|(q, _)| q == p))
    });
    let Some(property) = wanted else {
        return Err(
            "the task has neither an unreach-call nor an unreach-label property \
                    (the properties this tool checks)"
                .into(),
        );
    };
    let expected = entries
        .iter()
        .find(|(q, _)| *q == property)
        .and_then(|(_, e)| *e);
    Ok(Task {
        program: dir.join(file),
        property,
        expected,
    })
}

/// Why a property cannot be checked.
pub fn unsupported(p: Property) -> String {
    format!(
        "property {} is not supported (only unreach-call: no call of reach_error() is \
         reachable, and unreach-label: no statement labelled ERROR is reachable)",
        p.name()
    )
}

/// The task definitions under `dir` (recursively), sorted.
pub fn task_definitions(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let entries = std::fs::read_dir(&d).map_err(|e| format!("{}: {e}", d.display()))?;
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if is_task_definition(&p) {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn property_files_are_recognized() {
        let reach = "CHECK( init(main()), LTL(G ! call(reach_error())) )\n";
        assert_eq!(Property::parse(reach), Ok(Property::UnreachCall));
        assert_eq!(
            Property::parse("CHECK( init(main()), LTL(G ! overflow) )"),
            Ok(Property::NoOverflow)
        );
        assert_eq!(
            Property::parse("CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )"),
            Ok(Property::MemSafety)
        );
        assert_eq!(
            Property::parse("CHECK( init(main()), LTL(F end) )"),
            Ok(Property::Termination)
        );
        assert!(Property::parse("").is_err());
        assert!(Property::parse("hello").is_err());
        assert!(Property::parse("CHECK( init(main()), LTL(G ! call(foo())) )").is_err());
    }
}

#[cfg(test)]
mod svcomp_tests {
    use super::*;

    /// Every task definition of the test copy resolves to its C file and states the verdict
    /// `tasks.tsv` gives for it.
    #[test]
    fn the_task_definitions_agree_with_tasks_tsv() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/svcomp");
        let tsv = std::fs::read_to_string(root.join("tasks.tsv")).unwrap();
        let mut expected = std::collections::BTreeMap::new();
        for l in tsv.lines().skip(1).filter(|l| !l.trim().is_empty()) {
            let cols: Vec<&str> = l.split('\t').collect();
            expected.insert(root.join(cols[0]), cols[1].to_string());
        }
        let defs = task_definitions(&root).unwrap();
        assert_eq!(defs.len(), 59);
        for d in defs {
            let t = read_task(&d, None).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
            assert!(t.program.is_file(), "{}", t.program.display());
            let want = expected
                .get(&t.program)
                .unwrap_or_else(|| panic!("{}", d.display()));
            assert_eq!(
                t.expected.map(|b| b.to_string()).as_ref(),
                Some(want),
                "{}",
                d.display()
            );
        }
    }

    fn write(name: &str, text: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("cpa-task-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("p.c"), "int main(void) { return 0; }").unwrap();
        std::fs::write(
            dir.join("reach.prp"),
            "CHECK( init(main()), LTL(G ! call(reach_error())) )\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("ovf.prp"),
            "CHECK( init(main()), LTL(G ! overflow) )\n",
        )
        .unwrap();
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    /// What cannot be checked is refused with the reason: another property, LP64, another
    /// language, several input files, an unknown format version, a file that is no YAML.
    #[test]
    fn unsupported_tasks_are_refused_with_a_reason() {
        let ok = "format_version: '2.0'\ninput_files: 'p.c'\nproperties:\n  - property_file: reach.prp\n    expected_verdict: true\noptions:\n  language: C\n  data_model: ILP32\n";
        let t = read_task(&write("ok.yml", ok), None).unwrap();
        assert_eq!(t.expected, Some(true));
        for (name, text, says) in [
            ("lp64.yml", ok.replace("ILP32", "LP64"), "data model 'LP64'"),
            (
                "java.yml",
                ok.replace("language: C", "language: Java"),
                "language 'Java'",
            ),
            (
                "ovf.yml",
                ok.replace("reach.prp", "ovf.prp"),
                "neither an unreach-call nor an unreach-label property",
            ),
            (
                "two.yml",
                ok.replace("'p.c'", "['p.c', 'q.c']"),
                "2 input files",
            ),
            (
                "v3.yml",
                ok.replace("'2.0'", "'3.0'"),
                "format version '3.0'",
            ),
            ("bad.yml", "{ [".to_string(), "not a task definition"),
        ] {
            let e = read_task(&write(name, &text), None).unwrap_err();
            assert!(e.contains(says), "{name}: {e}");
        }
        let e = read_task(&write("ok2.yml", ok), Some(Property::NoOverflow)).unwrap_err();
        assert!(e.contains("no-overflow is not supported"), "{e}");
    }

    /// A task whose only checkable property is unreach-label is checked for it; given both,
    /// unreach-call is the default and `--spec` picks.
    #[test]
    fn unreach_label_tasks_are_read() {
        let dir = write("x.yml", "").parent().unwrap().to_path_buf();
        std::fs::write(
            dir.join("label.prp"),
            "CHECK( init(main()), LTL(G ! label(ERROR)) )\n",
        )
        .unwrap();
        let label = "format_version: '2.0'\ninput_files: 'p.c'\nproperties:\n  - property_file: label.prp\n    expected_verdict: false\n";
        let t = read_task(&write("label.yml", label), None).unwrap();
        assert_eq!(
            (t.property, t.expected),
            (Property::UnreachLabel, Some(false))
        );
        let both = format!("{label}  - property_file: reach.prp\n    expected_verdict: true\n");
        let t = read_task(&write("both.yml", &both), None).unwrap();
        assert_eq!(
            (t.property, t.expected),
            (Property::UnreachCall, Some(true))
        );
        let t = read_task(&write("both2.yml", &both), Some(Property::UnreachLabel)).unwrap();
        assert_eq!(
            (t.property, t.expected),
            (Property::UnreachLabel, Some(false))
        );
        assert_eq!(
            read_property(Path::new("unreach-label")),
            Ok(Property::UnreachLabel)
        );
    }
}
