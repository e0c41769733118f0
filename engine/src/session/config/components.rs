//! The components of a portfolio: each a preset with settings and a budget of solver
//! queries, written `PRESET(KEY=VALUE;...)@QUERIES` in the knob `portfolio`.

use super::{Config, Preset};
use serde::{Deserialize, Serialize};

/// One analysis of a portfolio: a preset with knob settings and a budget of solver queries
/// (a count, never time, so that a portfolio run replays exactly). The component also keeps
/// its preset's own step, state and refinement limits; reaching any of them ends the
/// component without a verdict and the next one starts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Component {
    pub preset: Preset,
    #[serde(default)]
    pub settings: Vec<(String, String)>,
    pub queries: u64,
}

impl Component {
    /// The component's configuration (its preset with its settings, validated), with the
    /// query budget as its query limit.
    pub fn config(&self) -> Result<Config, String> {
        if self.preset == Preset::Portfolio {
            return Err("a portfolio cannot contain a portfolio".into());
        }
        if self.queries == 0 {
            return Err(format!(
                "the component {} needs a query budget of at least 1",
                self.text()
            ));
        }
        let mut c = Config::of(
            self.preset,
            self.settings.iter().map(|(k, v)| (k.as_str(), v.as_str())),
        )?;
        c.limits.max_queries = self.queries;
        Ok(c)
    }

    /// `PRESET(KEY=VALUE;...)@QUERIES`, the form the `portfolio` knob reads.
    pub fn text(&self) -> String {
        let mut s = self.preset.name().to_string();
        if !self.settings.is_empty() {
            let kv: Vec<String> = self
                .settings
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            s.push_str(&format!("({})", kv.join(";")));
        }
        format!("{s}@{}", self.queries)
    }

    pub(super) fn parse(text: &str) -> Result<Component, String> {
        let bad = || {
            format!("invalid portfolio component '{text}' (form: PRESET(KEY=VALUE;...)@QUERIES)")
        };
        let (head, queries) = text.trim().rsplit_once('@').ok_or_else(bad)?;
        let queries: u64 = queries.trim().parse().map_err(|_| bad())?;
        let (preset, settings) = match head.split_once('(') {
            Some((p, rest)) => {
                let inner = rest.strip_suffix(')').ok_or_else(bad)?;
                let settings = inner
                    .split(';')
                    .filter(|kv| !kv.trim().is_empty())
                    .map(|kv| {
                        kv.split_once('=')
                            .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                            .ok_or_else(bad)
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                (p.trim().to_string(), settings)
            }
            None => (head.trim().to_string(), Vec::new()),
        };
        let c = Component {
            preset: Preset::parse(&preset)?,
            settings,
            queries,
        };
        c.config()?;
        Ok(c)
    }
}

/// The most components a portfolio may have.
pub const MAX_COMPONENTS: usize = 8;

/// Reads the `portfolio` knob: components separated by commas.
pub fn parse_portfolio(text: &str) -> Result<Vec<Component>, String> {
    let parts: Vec<&str> = text.split(',').filter(|p| !p.trim().is_empty()).collect();
    if parts.is_empty() || parts.len() > MAX_COMPONENTS {
        return Err(format!(
            "a portfolio has 1 to {MAX_COMPONENTS} components (got {})",
            parts.len()
        ));
    }
    parts.into_iter().map(Component::parse).collect()
}

/// The components of the preset `portfolio`.
pub const DEFAULT_PORTFOLIO: &str = "execution(max-steps=15000)@1,\
kinduction(k-max=6;solver-rlimit=1000000)@300,predicate-lbe@3000,\
predicate-lbe(signed-overflow=check)@3000,symbolic(max-steps=2000)@2500,predicate-lbe@150000,kinduction@2000";
