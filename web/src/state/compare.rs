//! Compare mode: a second run of the same program with another configuration, in a worker of
//! its own, shown beside the first. The right side is a [`Playground`] like the main one; the
//! main step bar moves it too ([`Sync`]), and it has its own buttons to step alone. The
//! difference strip compares both at the positions shown.

use crate::protocol::RunConfig;
use crate::state::arg_model::ArgModel;
use crate::state::playground::{Action, Playground};
use crate::state::run::{Run, Target};
use std::rc::Rc;

/// How the main step bar moves the right side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sync {
    /// Every step, event by event (and reset, run, pause, to the end).
    #[default]
    Event,
    /// Refinement by refinement: the main "next refinement" moves each side to its own next
    /// refinement; single events move the left side only.
    Refinement,
    /// To the same CFA location: whenever the left side's position changes, the right side
    /// steps to its next state at the location of the left side's newest state.
    Location,
    /// The sides are stepped separately.
    Alone,
}

impl Sync {
    pub const ALL: [Sync; 4] = [Sync::Event, Sync::Refinement, Sync::Location, Sync::Alone];

    pub fn name(self) -> &'static str {
        match self {
            Sync::Event => "event",
            Sync::Refinement => "refinement",
            Sync::Location => "location",
            Sync::Alone => "alone",
        }
    }

    pub fn parse(s: &str) -> Option<Sync> {
        Sync::ALL.into_iter().find(|x| x.name() == s)
    }

    pub fn title(self) -> &'static str {
        match self {
            Sync::Event => "step by event",
            Sync::Refinement => "step by refinement",
            Sync::Location => "step by CFA location",
            Sync::Alone => "step alone",
        }
    }
}

/// What compare mode does.
#[derive(Clone, Debug, PartialEq)]
pub enum CompareMsg {
    /// Open compare mode with the right side's preset (`None`: a preset that differs from the
    /// left one).
    Open(Option<String>),
    Close,
    Preset(String),
    Sync(Sync),
    /// On a phone: show the right side (else the left one).
    PhoneRight(bool),
    /// Download the comparison's statistics: CSV (else an SVG chart of states over events).
    Export {
        csv: bool,
    },
    /// An action of the right side's run: its own buttons and its worker's answers.
    Act(Action),
}

#[derive(Debug)]
pub struct Compare {
    pub pg: Playground,
    pub sync: Sync,
    /// On a phone the sides are tabs: whether the right one is shown.
    pub phone_right: bool,
    /// The right side's ARG at its position (computed when its run or position changed).
    pub arg: Rc<ArgModel>,
    arg_key: Option<(u64, u64, usize, bool)>,
    /// With [`Sync::Location`]: the left side's (run, epoch, position) the right one last
    /// followed.
    left_seen: Option<(u64, u64, usize)>,
}

/// The right side's default preset for a left side running `left`: the paper's comparison
/// partner where there is one.
pub fn partner(left: &str) -> &'static str {
    match left {
        "predicate-lbe" => "predicate-sbe",
        "predicate-sbe" | "predicate-abel" => "predicate-lbe",
        "impact" => "predicate-lbe",
        "bmc" => "kinduction",
        "kinduction" => "bmc",
        "value" => "symbolic",
        "symbolic" => "value",
        "theta-pred-bw" => "predicate-lbe",
        "theta-expl-multiseq" => "value",
        _ => "kinduction",
    }
}

impl Compare {
    pub fn new(config: RunConfig, sync: Sync) -> Compare {
        Compare {
            pg: Playground::new(config),
            sync,
            phone_right: false,
            arg: Rc::default(),
            arg_key: None,
            left_seen: None,
        }
    }

    /// With [`Sync::Location`], once the left side `left` shows a new position: the step that
    /// takes the right side to its next state at the location of the left side's newest
    /// state (none when the right side is there already or at its verdict).
    pub fn follow_location(&mut self, left: Option<&Run>) -> Option<Action> {
        if self.sync != Sync::Location {
            self.left_seen = None;
            return None;
        }
        let left = left?;
        let seen = (left.ticket().run, left.ticket().epoch, left.position);
        if self.left_seen == Some(seen) {
            return None;
        }
        self.left_seen = Some(seen);
        let want = newest_location(left)?;
        if let Some(right) = self.pg.run.as_ref() {
            if newest_location(right) == Some(want) || right.at_verdict() {
                return None;
            }
        }
        Some(Action::Step(Target::Location(want)))
    }

    /// The action the right side takes when the left one takes `a` (the program's changes
    /// always, steps as [`Sync`] says; never the left worker's answers or the left
    /// configuration).
    pub fn follow(&self, a: &Action) -> Option<Action> {
        match a {
            Action::Building | Action::Program { .. } => Some(a.clone()),
            _ if matches!(self.sync, Sync::Alone | Sync::Location) => None,
            Action::Step(Target::Refinement | Target::End) | Action::Reset => Some(a.clone()),
            Action::Step(_)
            | Action::StepBack
            | Action::Seek(_)
            | Action::Run
            | Action::Pause
            | Action::SetSpeed(_)
                if self.sync == Sync::Event =>
            {
                Some(a.clone())
            }
            _ => None,
        }
    }

    /// Computes the right side's ARG again if its run or position changed; true if it did.
    pub fn refresh(&mut self) -> bool {
        let run = self.pg.run.as_ref();
        let key = run.map(|r| (r.ticket().run, r.ticket().epoch, r.position, r.at_verdict()));
        if key == self.arg_key {
            return false;
        }
        self.arg_key = key;
        self.arg = Rc::new(
            run.map(|r| crate::state::arg_model::arg_model(r, None, &Default::default()))
                .unwrap_or_default(),
        );
        true
    }
}

/// The CFA location of the newest state a run has added at its position.
pub fn newest_location(run: &Run) -> Option<u32> {
    run.events[..run.position]
        .iter()
        .rev()
        .find_map(|e| match e {
            cpa_engine::events::Event::StateAdded { location, .. } => Some(*location),
            _ => None,
        })
}

/// One side's figures at the position shown, for the difference strip.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Figures {
    pub position: usize,
    pub states: u64,
    pub refinements: u64,
    pub queries: u64,
    pub abstractions: u64,
    pub solver_ms: f64,
    pub verdict: Option<&'static str>,
}

impl Figures {
    pub fn of(run: Option<&Run>) -> Figures {
        let Some(r) = run else {
            return Figures::default();
        };
        let (stats, solver_ms) = r.stats();
        Figures {
            position: r.position,
            states: stats.states,
            refinements: stats.refinements,
            queries: stats.solver_queries,
            abstractions: stats.abstractions,
            solver_ms,
            verdict: r.shown_verdict().map(|v| match v {
                cpa_engine::verdict::Verdict::True => "true",
                cpa_engine::verdict::Verdict::False { .. } => "false",
                cpa_engine::verdict::Verdict::Unknown { .. } => "unknown",
            }),
        }
    }
}

/// The first event (index) where the two runs' event lists, as far as both are known,
/// differ; `None` where one is a prefix of the other so far.
pub fn first_difference(left: Option<&Run>, right: Option<&Run>) -> Option<usize> {
    let (l, r) = (&left?.events, &right?.events);
    l.iter().zip(r.iter()).position(|(a, b)| a != b)
}

/// The steps of a run up to its position: (events after the step, its statistics, solver ms).
fn shown_units(run: &Run) -> impl Iterator<Item = &crate::protocol::UnitEnd> {
    run.units
        .iter()
        .take_while(move |u| (u.events as usize) <= run.position)
}

/// The comparison's statistics as CSV, one row per algorithm step of each side up to the
/// position shown (what the strip shows, over time).
pub fn stats_csv(left: &Run, right: &Run) -> String {
    let mut out = String::from(
        "side,preset,event,steps,states,refinements,solver_queries,abstractions,solver_ms\n",
    );
    for (side, run) in [("left", left), ("right", right)] {
        for u in shown_units(run) {
            let s = &u.stats;
            out.push_str(&format!(
                "{side},{},{},{},{},{},{},{},{:.1}\n",
                run.config.preset,
                u.events,
                s.steps,
                s.states,
                s.refinements,
                s.solver_queries,
                s.abstractions,
                u.solver_ms
            ));
        }
    }
    out
}

/// `s` as XML text.
fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A line of the chart: its colour, its name and its points (events, states).
type Series<'a> = (&'a str, &'a str, Vec<(f64, f64)>);

/// A small SVG chart for slides: ARG states over events for both sides, up to the
/// positions shown.
pub fn states_svg(left: &Run, right: &Run) -> String {
    const W: f64 = 640.0;
    const H: f64 = 360.0;
    const PAD: f64 = 48.0;
    let series: Vec<Series> = [("#2f6fde", left), ("#d97a00", right)]
        .into_iter()
        .map(|(colour, run)| {
            let mut pts = vec![(0.0, 0.0)];
            pts.extend(shown_units(run).map(|u| (u.events as f64, u.stats.states as f64)));
            (colour, run.config.preset.as_str(), pts)
        })
        .collect();
    let max_x = series
        .iter()
        .flat_map(|s| s.2.iter().map(|p| p.0))
        .fold(1.0, f64::max);
    let max_y = series
        .iter()
        .flat_map(|s| s.2.iter().map(|p| p.1))
        .fold(1.0, f64::max);
    let x = |v: f64| PAD + v / max_x * (W - 2.0 * PAD);
    let y = |v: f64| H - PAD - v / max_y * (H - 2.0 * PAD);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{H}\" viewBox=\"0 0 {W} {H}\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n<rect width=\"{W}\" height=\"{H}\" fill=\"white\"/>\n"
    );
    svg.push_str(&format!(
        "<line x1=\"{PAD}\" y1=\"{b}\" x2=\"{r}\" y2=\"{b}\" stroke=\"#677282\"/>\n<line x1=\"{PAD}\" y1=\"{PAD}\" x2=\"{PAD}\" y2=\"{b}\" stroke=\"#677282\"/>\n",
        b = H - PAD,
        r = W - PAD
    ));
    svg.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#1d232b\">events</text>\n<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#677282\">{max_x}</text>\n<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#677282\">{max_y}</text>\n<text x=\"14\" y=\"{}\" transform=\"rotate(-90 14 {})\" text-anchor=\"middle\" fill=\"#1d232b\">ARG states</text>\n",
        W / 2.0,
        H - 12.0,
        W - PAD,
        H - PAD + 16.0,
        PAD - 6.0,
        PAD + 4.0,
        H / 2.0,
        H / 2.0
    ));
    for (i, (colour, name, pts)) in series.iter().enumerate() {
        let points: Vec<String> = pts
            .iter()
            .map(|(a, b)| format!("{:.1},{:.1}", x(*a), y(*b)))
            .collect();
        svg.push_str(&format!(
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"/>\n",
            points.join(" ")
        ));
        let ly = PAD - 24.0 + 16.0 * i as f64;
        svg.push_str(&format!(
            "<line x1=\"{a}\" y1=\"{ly}\" x2=\"{b}\" y2=\"{ly}\" stroke=\"{colour}\" stroke-width=\"3\"/><text x=\"{c}\" y=\"{t}\" fill=\"#1d232b\">{}</text>\n",
            xml(name),
            a = PAD + 8.0,
            b = PAD + 28.0,
            c = PAD + 34.0,
            t = ly + 4.0
        ));
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_right_side_follows_as_its_sync_says() {
        let step = Action::Step(Target::Event);
        let refine = Action::Step(Target::Refinement);
        let program = Action::Building;
        let configure = Action::Configure(RunConfig::preset("bmc"));
        for (sync, want) in [
            (Sync::Event, [true, true, true, false]),
            (Sync::Refinement, [false, true, true, false]),
            (Sync::Location, [false, false, true, false]),
            (Sync::Alone, [false, false, true, false]),
        ] {
            let c = Compare::new(RunConfig::preset("impact"), sync);
            let got = [&step, &refine, &program, &configure].map(|a| c.follow(a).is_some());
            assert_eq!(got, want, "{sync:?}");
        }
        assert_eq!(Sync::parse("refinement"), Some(Sync::Refinement));
        assert_eq!(Sync::parse("location"), Some(Sync::Location));
        assert_eq!(Sync::parse("both"), None);
        assert_eq!(partner("predicate-lbe"), "predicate-sbe");
    }
}
