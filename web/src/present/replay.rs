//! Replaying the LBE summarization rule by rule: which locations and edges exist at each
//! position, and what the step that led there removed and added.

use crate::protocol::{Graph, LbeReplay, ReplayStep};
use std::collections::BTreeSet;

/// The summarization after `position` rule applications (0 = the CFA itself).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    pub position: usize,
    /// Locations alive after the step.
    pub nodes: BTreeSet<u32>,
    /// Edges alive after the step (ids into `LbeReplay::edges`).
    pub edges: BTreeSet<u32>,
    /// The step that produced this frame, if any: shown as highlights.
    pub step: Option<ReplayStep>,
}

impl Frame {
    /// Edges to draw: the alive ones plus the ones the current step removed, drawn as ghosts
    /// so the change stays visible.
    pub fn drawn_edges(&self) -> BTreeSet<u32> {
        let mut all = self.edges.clone();
        if let Some(s) = &self.step {
            all.extend(s.removed.iter().copied());
        }
        all
    }

    /// Locations to draw: the alive ones plus the one a Rule 1 step just eliminated.
    pub fn drawn_nodes(&self) -> BTreeSet<u32> {
        let mut all = self.nodes.clone();
        if let Some(s) = &self.step {
            if s.rule == 1 {
                all.insert(s.location);
            }
        }
        all
    }

    pub fn is_removed_edge(&self, id: u32) -> bool {
        self.step.as_ref().is_some_and(|s| s.removed.contains(&id))
    }

    pub fn is_added_edge(&self, id: u32) -> bool {
        self.step.as_ref().is_some_and(|s| s.added.contains(&id))
    }

    pub fn is_eliminated_node(&self, id: u32) -> bool {
        !self.nodes.contains(&id)
    }
}

pub fn rule_name(rule: u8) -> &'static str {
    match rule {
        0 => "Rule 0 (error sink)",
        1 => "Rule 1 (sequence)",
        2 => "Rule 2 (choice)",
        _ => "Unknown rule",
    }
}

/// `Rule 1 (sequence) at N7 — 3/38` for a step; without one, `CFA before summarization —
/// 0/38` at the start and `Summary after 38 rule applications — 38/38` at the end.
pub fn step_label(step: Option<&ReplayStep>, position: usize, total: usize) -> String {
    match step {
        Some(s) => format!(
            "{} at N{} — {}/{}",
            rule_name(s.rule),
            s.location,
            position,
            total
        ),
        None if total == 0 => "No rule applies — 0/0".to_string(),
        None if position == 0 => format!("CFA before summarization — 0/{total}"),
        None => format!("Summary after {total} rule applications — {position}/{total}"),
    }
}

/// Replays `replay` on `cfa` up to `position` (clamped to the number of steps).
pub fn frame_at(cfa: &Graph, replay: &LbeReplay, position: usize) -> Frame {
    let position = position.min(replay.steps.len());
    let mut nodes: BTreeSet<u32> = cfa.nodes.iter().map(|n| n.id).collect();
    let mut edges: BTreeSet<u32> = cfa.edges.iter().map(|e| e.id).collect();
    for s in &replay.steps[..position] {
        for e in &s.removed {
            edges.remove(e);
        }
        edges.extend(s.added.iter().copied());
        if s.rule == 1 {
            nodes.remove(&s.location);
        }
    }
    Frame {
        position,
        nodes,
        edges,
        step: position.checked_sub(1).map(|i| replay.steps[i].clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::tests::figure1;

    #[test]
    fn replay_ends_in_the_engines_summary() {
        let r = figure1();
        let (cfa, lbe, replay) = (r.cfa.unwrap(), r.lbe.unwrap(), r.replay.unwrap());
        let end = frame_at(&cfa, &replay, replay.steps.len());
        let want_nodes: BTreeSet<u32> = lbe.nodes.iter().map(|n| n.id).collect();
        let want_edges: BTreeSet<u32> = lbe.edges.iter().map(|e| e.id).collect();
        assert_eq!(end.nodes, want_nodes);
        assert_eq!(end.edges, want_edges);
        assert_eq!(frame_at(&cfa, &replay, usize::MAX), end);
    }

    #[test]
    fn start_is_the_cfa_and_steps_show_their_changes() {
        let r = figure1();
        let (cfa, replay) = (r.cfa.unwrap(), r.replay.unwrap());
        let start = frame_at(&cfa, &replay, 0);
        assert_eq!((start.nodes.len(), start.edges.len()), (32, 39));
        assert!(start.step.is_none());
        for k in 1..=replay.steps.len() {
            let f = frame_at(&cfa, &replay, k);
            let s = f.step.clone().unwrap();
            assert!(s
                .added
                .iter()
                .all(|e| f.edges.contains(e) && f.is_added_edge(*e)));
            assert!(s
                .removed
                .iter()
                .all(|e| !f.edges.contains(e) && f.is_removed_edge(*e)));
            assert!(f.drawn_edges().is_superset(&f.edges));
            // Every drawn edge's endpoints are drawn.
            for e in f.drawn_edges() {
                let ge = &replay.edges[e as usize];
                assert!(f.drawn_nodes().contains(&ge.from) && f.drawn_nodes().contains(&ge.to));
            }
        }
    }

    #[test]
    fn labels() {
        let s = ReplayStep {
            rule: 1,
            location: 7,
            other: Some(6),
            removed: vec![1, 2],
            added: vec![40],
        };
        assert_eq!(
            step_label(Some(&s), 3, 38),
            "Rule 1 (sequence) at N7 — 3/38"
        );
        assert_eq!(step_label(None, 0, 38), "CFA before summarization — 0/38");
        assert_eq!(
            step_label(None, 38, 38),
            "Summary after 38 rule applications — 38/38"
        );
        assert_eq!(step_label(None, 0, 0), "No rule applies — 0/0");
    }
}
