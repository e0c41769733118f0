//! The knobs panel's model: the engine's knob table (`cpa_engine::config::KNOBS`: group,
//! choices, what each knob does) with the values of the configuration shown.

use crate::protocol::RunConfig;
use cpa_engine::config::Config;

pub use cpa_engine::config::{Group, Input};

/// A knob as the panel shows it: the engine's knob table entry with the values in effect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Knob {
    pub key: String,
    pub group: Group,
    pub input: Input,
    pub help: &'static str,
    /// The value in effect (the preset's unless overridden).
    pub value: String,
    /// The preset's value.
    pub default: String,
}

/// The knobs of `config` (its preset's values as defaults), or none for an unknown preset.
pub fn knobs(config: &RunConfig) -> Vec<Knob> {
    let Some(preset) = Config::preset(&config.preset) else {
        return Vec::new();
    };
    cpa_engine::config::KNOBS
        .iter()
        .filter(|k| k.applies(&preset))
        .map(|k| {
            let default = k.value(&preset);
            let value = config
                .set
                .iter()
                .rev()
                .find(|(key, _)| key == k.key)
                .map(|(_, v)| v.clone())
                .unwrap_or_else(|| default.clone());
            Knob {
                key: k.key.to_string(),
                group: k.group,
                input: k.input,
                help: k.help,
                value,
                default,
            }
        })
        .collect()
}

/// The line under the analysis: the C semantics every preset shares (the same in every
/// encoding; ARCHITECTURE.md, "Semantics decisions") and the formulas the preset's encoding
/// knob asks for; for a program with memory (`memory`), how memory is modelled.
pub fn semantics_line(config: &RunConfig, memory: bool) -> String {
    let encoding = knobs(config)
        .into_iter()
        .find(|k| k.key == "encoding")
        .map(|k| k.value);
    let formulas = match encoding.as_deref() {
        Some("int") => "formulas over integers, wrap-around encoded exactly",
        Some("bv") => "formulas over bit-vectors",
        Some(_) => "formulas over integers, or bit-vectors where the program needs them",
        None => "",
    };
    let checked = knobs(config)
        .into_iter()
        .any(|k| k.key == "signed-overflow" && k.value == "check");
    let formulas = if checked && !formulas.is_empty() {
        format!("{formulas}; signed operations checked for overflow (a reachable overflow ends UNKNOWN)")
    } else {
        formulas.to_string()
    };
    let mut line = String::from(
        "C semantics: ILP32, arithmetic wraps around (two's complement, like gcc -fwrapv) in \
         every analysis",
    );
    if !formulas.is_empty() {
        line.push_str("; ");
        line.push_str(&formulas);
    }
    line.push('.');
    if memory {
        line.push_str(
            " Memory: a variable per cell (a[2], s.x), pointers are addresses, malloc \
             succeeds; an out-of-bounds, null or freed access ends UNKNOWN with its line.",
        );
    }
    line
}

/// `config` with `key` set to `value` (an override equal to the preset's value is dropped).
pub fn with_knob(config: &RunConfig, key: &str, value: &str) -> RunConfig {
    let mut c = config.clone();
    c.set.retain(|(k, _)| k != key);
    let default = Config::preset(&c.preset).and_then(|p| {
        p.knobs()
            .into_iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v)
    });
    if default.as_deref() != Some(value) {
        c.set.push((key.to_string(), value.to_string()));
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use cpa_engine::config::Preset;

    #[test]
    fn the_semantics_line_names_wrap_around_and_the_encoding() {
        for p in Preset::names() {
            let line = semantics_line(&RunConfig::preset(p), false);
            assert!(line.contains("wraps around"), "{p}: {line}");
        }
        let mut c = RunConfig::preset("predicate-lbe");
        c.set.push(("encoding".into(), "bv".into()));
        assert!(semantics_line(&c, false).contains("bit-vectors"));
        c.set.push(("encoding".into(), "int".into()));
        assert!(semantics_line(&c, false).contains("over integers, wrap-around encoded exactly"));
        c.set.push(("signed-overflow".into(), "check".into()));
        assert!(semantics_line(&c, false).contains("checked for overflow"));
        assert!(semantics_line(&c, true).contains("malloc succeeds"));
        assert!(!semantics_line(&c, false).contains("malloc"));
    }

    #[test]
    fn overrides_equal_to_the_preset_are_dropped() {
        let c = RunConfig::preset("predicate-lbe");
        let c2 = with_knob(&c, "waitlist", "bfs");
        assert_eq!(c2.set, vec![("waitlist".to_string(), "bfs".to_string())]);
        assert_eq!(
            knobs(&c2)
                .iter()
                .find(|k| k.key == "waitlist")
                .unwrap()
                .value,
            "bfs"
        );
        assert_eq!(with_knob(&c2, "waitlist", "rpo"), c);
    }
}
