//! The strongest post of symbolic execution along one CFA edge: the transfer of the symbolic
//! value analysis CPA followed by the constraints CPA's transfer and the strengthening `↓`
//! (the symbolic-execution thesis digest, Sect. 2.5–2.7, with its fixes). Used by the transfer
//! relation and by interpolation (`SP^S`), so that refinement reasons with exactly the
//! analysis' semantics.
//!
//! * every variable an edge reads that has no value gets a fresh identifier, kept in the
//!   successor (also for the right-hand side of an assignment, pitfall 5);
//! * `w := e`: `e` with the values substituted: a literal when every value read is concrete
//!   (computed by the concrete semantics), otherwise a term over identifiers; a
//!   nondeterministic value is a fresh identifier;
//! * `assume(p)`: `p` with the values substituted, from the post-edge value state
//!   (pitfall 7): false gives no successor, true keeps the state, otherwise it becomes a
//!   constraint (`x == c` also makes `x` concrete); whether the constraints are then checked
//!   for satisfiability is the caller's choice ([`crate::domains::symbolic::SatCheckAt`]);
//! * calls and returns pass values between frames; a callee's frame is forgotten when it
//!   returns, and a new activation starts with nothing known.
//!
//! Terms are built by the formula encoder (the configured encoding, so wrap-around is exactly
//! the path formulas'); auxiliary integers of the Int encoding become fresh identifiers with
//! their defining constraints. An operation the concrete semantics leaves undefined
//! (division by zero) gives a fresh, unconstrained identifier, and so does a value whose term
//! grew beyond [`MAX_VALUE_SIZE`]: over-approximations (a path they make feasible is refuted
//! by no precision and stays undecided).

use crate::cfa::{Cfa, Edge, EdgeId, EdgeKind, Rhs};
use crate::cpa::control::ControlState;
use crate::domains::symbolic::{Idents, SymState};
use crate::domains::value::post::forget_frame;
use crate::formula::encode::Builder;
use crate::formula::literal_value;
use crate::formula::{Encoder, Encoding, Frames, Slot, SsaMap};
use crate::ir::semantics;
use crate::ir::{Expr, IntType, VarId};
use num_bigint::BigInt;
use solver_bridge::term::{Op, Term, Var};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::rc::Rc;

/// The largest value term (as a tree) a variable keeps; a larger one is forgotten (see
/// [`Poster::store`]).
pub const MAX_VALUE_SIZE: u64 = 400;

/// The result of one symbolic post.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymPost {
    /// `None`: the edge is infeasible from the state (a concrete contradiction or a
    /// constraint that folds to false).
    pub state: Option<SymState>,
    /// The constraints this edge added (to check for satisfiability).
    pub added: Vec<Term>,
}

/// The symbolic post operator over one CFA and encoding, handing out identifiers.
pub struct Poster<'a> {
    pub cfa: &'a Cfa,
    pub enc: Encoder<'a>,
    pub idents: &'a mut Idents,
    pub encodings: &'a mut Encodings,
}

/// Where an expression is on its edge: the condition, right-hand side, initialiser or
/// returned value (0), or a call's argument `i` (`i + 1`).
type Site = (EdgeId, usize);

/// The expressions of the CFA's edges encoded over the symbols of the slots they read, by
/// site, target type (`None`: a condition) and read frames: symbolic execution encodes the
/// condition of a loop's edge again at every iteration, and only the values it substitutes
/// differ. The same CFA and encoding throughout (one per [`crate::domains::symbolic::cpa::SymbolicCpa`]).
#[derive(Default)]
pub struct Encodings {
    /// The encoding of the terms kept (another one empties the memo).
    encoding: Option<Encoding>,
    map: HashMap<(Site, Option<IntType>, Frames), Rc<Encoded>>,
}

/// Most encodings kept; past this the memo starts afresh.
const MAX_ENCODINGS: usize = 4096;

/// A term the encoder built over the symbols (index 0) of the slots it reads, with what
/// [`Poster::substitute`] needs to put values in: the auxiliaries' definitions.
struct Encoded {
    term: Term,
    /// The builder's constraints that define auxiliaries (the builder adds no range
    /// constraints of reads: the values substituted for them are in range already).
    defs: Vec<Term>,
    /// The auxiliary integers of the term and its definitions, in name order.
    aux: Vec<Var>,
    /// Whether some value is over-approximated (a shift by a variable, a bitwise operation).
    approximated: bool,
    /// The symbol of each slot read.
    symbols: Vec<(Slot, Var)>,
}

impl Encoded {
    fn new(enc: &Encoder, b: Builder, term: Term, slots: &[Slot]) -> Encoded {
        let is_aux = |v: &Var| v.name.starts_with("__aux");
        let aux: Vec<Var> = term
            .free_vars()
            .into_iter()
            .chain(b.constraints.iter().flat_map(|c| c.free_vars()))
            .filter(is_aux)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let defs: Vec<Term> = b
            .constraints
            .into_iter()
            .filter(|c| c.free_vars().iter().any(is_aux))
            .collect();
        let symbols = slots
            .iter()
            .filter_map(|s| enc.symbol(*s, 0).as_var().map(|v| (*s, v.clone())))
            .collect();
        Encoded {
            term,
            defs,
            aux,
            approximated: b.approximated,
            symbols,
        }
    }
}

/// Builds the expressions of one edge.
struct EdgeCx {
    read: Frames,
    write: Frames,
    next: SymState,
    added: Vec<Term>,
}

impl Poster<'_> {
    fn fresh(&mut self, ty: IntType) -> Term {
        self.idents.fresh(self.enc.sort(ty), Some(ty))
    }

    /// The literal of type `ty`.
    fn literal(&self, ty: IntType, v: i128) -> Term {
        self.enc.constant(ty, v)
    }

    /// Gives every slot `e` reads (in the read frames) without a value a fresh identifier.
    fn bind_reads(&mut self, cx: &mut EdgeCx, e: &Expr) -> Vec<Slot> {
        let mut slots = BTreeSet::new();
        e.for_each_var(&mut |v| {
            slots.insert(cx.read.slot(self.cfa, v));
        });
        for s in &slots {
            if !cx.next.values.contains_key(s) {
                let t = self.fresh(self.cfa.var(s.var).ty);
                cx.next.values.insert(*s, t);
            }
        }
        slots.into_iter().collect()
    }

    /// The concrete value of `e` when every slot it reads has a literal value; `Err(())`
    /// when some value is symbolic, `Ok(None)` when the operation is undefined.
    fn concrete(&self, cx: &EdgeCx, e: &Expr) -> Result<Option<i128>, ()> {
        let mut env: BTreeMap<VarId, i128> = BTreeMap::new();
        let mut symbolic = false;
        e.for_each_var(&mut |v| {
            let s = cx.read.slot(self.cfa, v);
            match cx
                .next
                .values
                .get(&s)
                .and_then(|t| literal_value(t, self.cfa.var(v).ty))
            {
                Some(x) => {
                    env.insert(v, x);
                }
                None => symbolic = true,
            }
        });
        if symbolic {
            return Err(());
        }
        Ok(semantics::eval(e, &|v| env.get(&v).copied()).ok())
    }

    /// Substitutes the values of the read slots (and fresh identifiers for auxiliary
    /// integers) into a term the encoder built; auxiliary constraints are added to `cx`.
    fn substitute(&mut self, cx: &mut EdgeCx, e: &Encoded) -> Term {
        let mut map: BTreeMap<Var, Term> = e
            .symbols
            .iter()
            .map(|(s, v)| (v.clone(), cx.next.values[s].clone()))
            .collect();
        let (aux, defs) = (&e.aux, &e.defs);
        // Exact auxiliaries (a Euclidean quotient and remainder by a constant) are functions
        // of their definition: the same definition over the same identifiers gets the same
        // identifiers again, so that a loop that computes `y % 2` in every iteration does not
        // grow its states by one quotient and remainder per iteration. Over-approximated
        // values (`approximated`: a shift by a variable, a bitwise operation) are fresh every
        // time, as are all other values (pitfall 4 of the symbolic-execution digest: a fresh
        // value is never reused).
        let key: Option<Vec<Term>> = (!aux.is_empty() && !e.approximated)
            .then(|| defs.iter().map(|c| c.substitute(&map)).collect());
        let known = key.as_ref().and_then(|k| self.idents.defined(k));
        match known {
            Some(ids) if aux.iter().all(|v| ids.contains_key(v)) => {
                map.extend(ids.iter().map(|(v, id)| (v.clone(), id.clone())));
            }
            _ => {
                let mut ids = BTreeMap::new();
                for v in aux {
                    let id = self.idents.fresh(v.sort, None);
                    ids.insert(v.clone(), id.clone());
                    map.insert(v.clone(), id);
                }
                if let Some(k) = key {
                    self.idents.define(k, ids);
                }
            }
        }
        for c in defs {
            let c = c.substitute(&map);
            if !c.is_true() {
                cx.added.push(c);
            }
        }
        e.term.substitute(&map)
    }

    /// `e` (at `site`) encoded over the symbols of the slots it reads, converted to `to`
    /// (`None`: as a condition), from the memo when it was encoded in these frames before.
    fn encoded(
        &mut self,
        cx: &EdgeCx,
        site: Site,
        e: &Expr,
        to: Option<IntType>,
        slots: &[Slot],
    ) -> Rc<Encoded> {
        if self.encodings.encoding != Some(self.enc.encoding) {
            self.encodings.map.clear();
            self.encodings.encoding = Some(self.enc.encoding);
        }
        let key = (site, to, cx.read.clone());
        if let Some(x) = self.encodings.map.get(&key) {
            return x.clone();
        }
        let mut b = Builder::without_read_ranges(SsaMap::default(), cx.read.clone());
        let t = match to {
            None => self.enc.cond(&mut b, e),
            Some(to) => {
                let t = self.enc.expr(&mut b, e);
                if e.ty != to {
                    self.enc.convert(&mut b, t, e.ty, to)
                } else {
                    t
                }
            }
        };
        let x = Rc::new(Encoded::new(&self.enc, b, t, slots));
        if self.encodings.map.len() >= MAX_ENCODINGS {
            self.encodings.map.clear();
        }
        self.encodings.map.insert(key, x.clone());
        x
    }

    /// The value of `e` converted to `to`.
    fn value(&mut self, cx: &mut EdgeCx, site: Site, e: &Expr, to: IntType) -> Term {
        let slots = self.bind_reads(cx, e);
        match self.concrete(cx, e) {
            Ok(Some(v)) => return self.literal(to, to.wrap(v)),
            Ok(None) => return self.fresh(to),
            Err(()) => {}
        }
        let encoded = self.encoded(cx, site, e, Some(to), &slots);
        self.substitute(cx, &encoded)
    }

    /// The truth of `cond` (`Ok`) or the constraint it becomes (`Err`), `None` when undefined.
    fn condition(
        &mut self,
        cx: &mut EdgeCx,
        site: Site,
        cond: &Expr,
    ) -> Option<Result<bool, Term>> {
        let slots = self.bind_reads(cx, cond);
        match self.concrete(cx, cond) {
            Ok(Some(v)) => return Some(Ok(v != 0)),
            Ok(None) => return None,
            Err(()) => {}
        }
        let encoded = self.encoded(cx, site, cond, None, &slots);
        let t = self.substitute(cx, &encoded);
        Some(match t.as_bool() {
            Some(truth) => Ok(truth),
            None => Err(t),
        })
    }

    fn store(&mut self, cx: &mut EdgeCx, slot: Slot, value: Option<Term>) {
        match value {
            // A value that grew too large (a loop that keeps adding to a symbolic value)
            // becomes a fresh identifier: an over-approximation that bounds every later
            // satisfiability check, and lets ALIASED_SUBSET cover the next iteration.
            Some(t) if t.size() > MAX_VALUE_SIZE => {
                let fresh = self.fresh(self.cfa.var(slot.var).ty);
                cx.next.values.insert(slot, fresh);
            }
            Some(t) => {
                cx.next.values.insert(slot, t);
            }
            None => {
                cx.next.values.remove(&slot);
            }
        }
    }

    /// The strongest post of `s` along `edge` from control state `from` to `to` (`s` is moved
    /// into it: a replay along a path copies no values and constraints per edge).
    pub fn post(
        &mut self,
        s: SymState,
        edge: &Edge,
        from: &ControlState,
        to: &ControlState,
    ) -> SymPost {
        let mut cx = EdgeCx {
            read: Frames::of(self.cfa, from),
            write: Frames::of(self.cfa, to),
            next: s,
            added: Vec::new(),
        };
        let infeasible = SymPost {
            state: None,
            added: Vec::new(),
        };
        match &edge.kind {
            EdgeKind::Blank(_) | EdgeKind::ReachError(_) | EdgeKind::Abort(_) => {}
            EdgeKind::Assume { cond, truth } => {
                let mut origins = BTreeSet::new();
                cond.for_each_var(&mut |v| {
                    origins.insert(v);
                });
                match self.condition(&mut cx, (edge.id, 0), cond) {
                    // Undefined: both branches stay possible.
                    None => {}
                    Some(Ok(v)) if v != *truth => return infeasible,
                    Some(Ok(_)) => {}
                    Some(Err(c)) => {
                        let c = if *truth { c } else { Term::not(c) };
                        // Auxiliary definitions share the assumption's origins.
                        for a in &cx.added {
                            cx.next.constraints.insert(a.clone(), origins.clone());
                        }
                        let learned = crate::domains::value::post::learned_equality(cond, *truth);
                        let mut c = c;
                        if let Some((v, k)) = learned {
                            let slot = cx.write.slot(self.cfa, v);
                            let lit = self.literal(self.cfa.var(v).ty, k);
                            let bound = cx.next.values.get(&slot).and_then(|t| t.as_var()).cloned();
                            match bound {
                                // A plain identifier is now definite: substituted everywhere
                                // (the thesis' definite assignments, for this common case).
                                Some(id)
                                    if crate::domains::symbolic::ident_index(&id).is_some() =>
                                {
                                    let map = BTreeMap::from([(id, lit)]);
                                    match substitute_state(&cx.next, &map) {
                                        Some(st) => cx.next = st,
                                        None => return infeasible,
                                    }
                                    c = c.substitute(&map);
                                    if c.is_false() {
                                        return infeasible;
                                    }
                                }
                                _ => {
                                    cx.next.values.insert(slot, lit);
                                }
                            }
                        }
                        if !c.is_true() && subsume(&mut cx.next.constraints, &c) {
                            cx.next.constraints.insert(c.clone(), origins);
                            cx.added.push(c);
                        }
                    }
                }
            }
            EdgeKind::Assign { lhs, rhs } => {
                let ty = self.cfa.var(*lhs).ty;
                let value = match rhs {
                    Rhs::Expr(e) => self.value(&mut cx, (edge.id, 0), e, ty),
                    Rhs::Nondet { .. } => self.fresh(ty),
                };
                let slot = cx.write.slot(self.cfa, *lhs);
                self.keep_definitions(&mut cx, *lhs);
                self.store(&mut cx, slot, Some(value));
            }
            EdgeKind::Declare { var, init } => {
                let ty = self.cfa.var(*var).ty;
                let value = match init {
                    Some(Rhs::Expr(e)) => Some(self.value(&mut cx, (edge.id, 0), e, ty)),
                    Some(Rhs::Nondet { .. }) => Some(self.fresh(ty)),
                    // Uninitialised: unknown (a read gets a fresh identifier).
                    None => None,
                };
                let slot = cx.write.slot(self.cfa, *var);
                self.keep_definitions(&mut cx, *var);
                self.store(&mut cx, slot, value);
            }
            EdgeKind::Call { callee, args, .. } => {
                let params = self.cfa.function(*callee).params.clone();
                let mut values = Vec::new();
                for (i, (a, p)) in args.iter().zip(&params).enumerate() {
                    let ty = self.cfa.var(*p).ty;
                    values.push(self.value(&mut cx, (edge.id, i + 1), a, ty));
                }
                let instance = cx.write.slot_instance(*callee);
                forget_frame(self.cfa, &mut cx.next.values, *callee, instance);
                for (p, v) in params.iter().zip(values) {
                    let slot = cx.write.slot(self.cfa, *p);
                    self.keep_definitions(&mut cx, *p);
                    self.store(&mut cx, slot, Some(v));
                }
            }
            EdgeKind::ReturnValue { function, value } => {
                if let (Some(e), Some((rt, rv))) = (value, self.cfa.function(*function).ret) {
                    let v = self.value(&mut cx, (edge.id, 0), e, rt);
                    let slot = cx.write.slot(self.cfa, rv);
                    self.keep_definitions(&mut cx, rv);
                    self.store(&mut cx, slot, Some(v));
                }
            }
            EdgeKind::Return { callee, assign, .. } => {
                let ret = self.cfa.function(*callee).ret.and_then(|(rt, rv)| {
                    let t = cx.next.values.get(&cx.read.slot(self.cfa, rv)).cloned()?;
                    Some((rt, t))
                });
                let instance = cx.read.slot_instance(*callee);
                forget_frame(self.cfa, &mut cx.next.values, *callee, instance);
                if let Some(a) = assign {
                    let to = self.cfa.var(*a).ty;
                    let value = ret.map(|(rt, t)| self.convert(&mut cx, t, rt, to));
                    let slot = cx.write.slot(self.cfa, *a);
                    self.keep_definitions(&mut cx, *a);
                    self.store(&mut cx, slot, value);
                }
            }
        }
        SymPost {
            state: Some(cx.next),
            added: cx.added,
        }
    }

    /// Auxiliary definitions an assignment needed become constraints (from the assigned
    /// variable).
    fn keep_definitions(&self, cx: &mut EdgeCx, var: VarId) {
        for a in &cx.added {
            cx.next
                .constraints
                .entry(a.clone())
                .or_default()
                .insert(var);
        }
    }

    /// `t` of type `from` converted to `to`.
    fn convert(&mut self, cx: &mut EdgeCx, t: Term, from: IntType, to: IntType) -> Term {
        if from == to {
            return t;
        }
        if let Some(v) = literal_value(&t, from) {
            return self.literal(to, to.wrap(v));
        }
        let mut b = Builder::without_read_ranges(SsaMap::default(), cx.read.clone());
        let c = self.enc.convert(&mut b, t, from, to);
        let encoded = Encoded::new(&self.enc, b, c, &[]);
        self.substitute(cx, &encoded)
    }
}

/// A constant bound on a term: `t >= b` (lower) or `t <= b` (upper), over integers.
fn bound_of(c: &Term) -> Option<(Term, bool, BigInt)> {
    let (op, args) = c.as_app()?;
    if *op == Op::Not {
        let (t, lower, b) = bound_of(&args[0])?;
        return Some(if lower {
            (t, false, b - 1)
        } else {
            (t, true, b + 1)
        });
    }
    if args.len() != 2 {
        return None;
    }
    let (x, y) = (&args[0], &args[1]);
    let one = BigInt::from(1);
    Some(match (op, x.as_int(), y.as_int()) {
        (Op::Lt, Some(l), None) => (y.clone(), true, l + &one),
        (Op::Le, Some(l), None) => (y.clone(), true, l.clone()),
        (Op::Gt, Some(l), None) => (y.clone(), false, l - &one),
        (Op::Ge, Some(l), None) => (y.clone(), false, l.clone()),
        (Op::Lt, None, Some(l)) => (x.clone(), false, l - &one),
        (Op::Le, None, Some(l)) => (x.clone(), false, l.clone()),
        (Op::Gt, None, Some(l)) => (x.clone(), true, l + &one),
        (Op::Ge, None, Some(l)) => (x.clone(), true, l.clone()),
        _ => return None,
    })
}

/// Keeps only the tightest constant bound of each direction on a term: removes the
/// constraints `c` implies that way, and answers whether `c` is needed at all (a loop
/// `for (i = 0; i < n; i++)` over a symbolic `n` would otherwise add `0 < n`, `1 < n`, …, and
/// every satisfiability check would grow with the iterations). Exact: only implied
/// constraints go.
pub fn subsume(constraints: &mut BTreeMap<Term, BTreeSet<VarId>>, c: &Term) -> bool {
    let Some((t, lower, b)) = bound_of(c) else {
        return true;
    };
    let mut needed = true;
    let mut implied = Vec::new();
    for old in constraints.keys() {
        let Some((t2, lower2, b2)) = bound_of(old) else {
            continue;
        };
        if t2 != t || lower2 != lower {
            continue;
        }
        let (tighter, looser) = if lower { (&b2, &b) } else { (&b, &b2) };
        // `old` at least as tight as `c`: `c` adds nothing.
        if tighter >= looser {
            needed = false;
        } else {
            implied.push(old.clone());
        }
    }
    if needed {
        for old in implied {
            constraints.remove(&old);
        }
    }
    needed
}

/// `s` with identifiers replaced by `map` (constraints folded: a true one is dropped, a false
/// one makes the state infeasible, `None`).
pub fn substitute_state(s: &SymState, map: &BTreeMap<Var, Term>) -> Option<SymState> {
    let mut out = SymState {
        values: s
            .values
            .iter()
            .map(|(k, t)| (*k, t.substitute(map)))
            .collect(),
        constraints: BTreeMap::new(),
    };
    for (c, o) in &s.constraints {
        let c = c.substitute(map);
        if c.is_false() {
            return None;
        }
        if !c.is_true() {
            out.constraints
                .entry(c)
                .or_default()
                .extend(o.iter().copied());
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpa::control::ControlCpa;
    use crate::domains::symbolic::check::*;
    use crate::formula::Encoding;

    fn cfa(src: &str) -> Cfa {
        crate::frontend::parse_program("t.c", src).unwrap().cfa
    }

    /// Runs the edges labelled `labels` in order from ⊤ (main only, no calls).
    fn run(c: &Cfa, labels: &[&str], idents: &mut Idents) -> Option<SymState> {
        let control = ControlCpa {
            loop_bound: None,
            max_depth: 4,
            cut_states: false,
        };
        let mut s = SymState::default();
        let mut p = Poster {
            cfa: c,
            enc: Encoder::new(c, Encoding::Int),
            idents,
            encodings: &mut Encodings::default(),
        };
        for l in labels {
            let e = c
                .edges
                .iter()
                .find(|e| c.label(&e.kind) == *l)
                .unwrap_or_else(|| panic!("no edge {l}"));
            let from = control.initial_at(c, e.from);
            let to = control.successor(c, &from, e).unwrap().unwrap();
            s = p.post(s, e, &from, &to).state?;
        }
        Some(s)
    }

    const SRC: &str = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\n\
        int main(void) { int a = __VERIFIER_nondet_int(); int b; int c = 3; \
        if (a >= 0) { b = a; } else { b = a + 1; } if (b < a) reach_error(); c = c * 2; \
        if (c == 6) { a = 1; } return 0; }";

    /// Constraints that share no identifier are separate parts; a query asked again about
    /// fresh identifiers (the same path explored after a refinement) is the same query once
    /// renamed; simple values decide the satisfiable ones that they satisfy.
    #[test]
    fn parts_canonical_names_and_simple_values() {
        use solver_bridge::term::Sort;
        let c = cfa(SRC);
        let enc = Encoder::new(&c, Encoding::Int);
        let mut ids = Idents::default();
        let path = |ids: &mut Idents| {
            let x = ids.fresh(Sort::Int, Some(IntType::INT));
            let y = ids.fresh(Sort::Int, Some(IntType::INT));
            let z = ids.fresh(Sort::Int, Some(IntType::INT));
            vec![
                Term::gt(x.clone(), Term::int(0)),
                Term::lt(z.clone(), Term::int(5)),
                Term::eq(y.clone(), Term::add2(x.clone(), Term::int(1))),
                Term::eq(Term::mul(z.clone(), z), Term::int(2)),
            ]
        };
        let first = path(&mut ids);
        let again = path(&mut ids);
        let parts = independent_parts(&first);
        assert_eq!(
            parts,
            vec![
                vec![first[0].clone(), first[2].clone()],
                vec![first[1].clone(), first[3].clone()]
            ]
        );
        assert_eq!(independent_parts(&[]), Vec::<Vec<Term>>::new());
        // Renamed by occurrence, types included: equal keys (as the memo compares them).
        let k1 = canonical_key(&enc, &ids, &first);
        assert_eq!(k1, canonical_key(&enc, &ids, &again));
        assert_ne!(sat_query(&enc, &ids, &first), sat_query(&enc, &ids, &again));
        // One identifier twice is not two identifiers; another type or another constant
        // gives another key.
        let x = first[0].free_vars().into_iter().next().unwrap().term();
        let y = first[2]
            .free_vars()
            .into_iter()
            .find(|v| v.term() != x)
            .unwrap()
            .term();
        let plus_one =
            |a: &Term, b: &Term| vec![Term::eq(a.clone(), Term::add2(b.clone(), Term::int(1)))];
        assert_eq!(
            canonical_key(&enc, &ids, &plus_one(&y, &x)),
            canonical_key(&enc, &ids, &plus_one(&x, &y))
        );
        assert_ne!(
            canonical_key(&enc, &ids, &plus_one(&y, &x)),
            canonical_key(&enc, &ids, &plus_one(&y, &y))
        );
        let u = ids.fresh(Sort::Int, Some(IntType::UINT));
        let positive = |t: &Term| vec![Term::gt(t.clone(), Term::int(0))];
        assert_ne!(
            canonical_key(&enc, &ids, &positive(&x)),
            canonical_key(&enc, &ids, &positive(&u))
        );
        assert_ne!(
            canonical_key(&enc, &ids, &positive(&x)),
            canonical_key(&enc, &ids, &[Term::gt(x.clone(), Term::int(1))])
        );
        // Bit-vectors have no ranges: the type is not part of the key.
        let bv = Encoder::new(&c, Encoding::Bv);
        let (b1, b2) = (
            ids.fresh(Sort::BitVec(32), Some(IntType::INT)),
            ids.fresh(Sort::BitVec(32), Some(IntType::UINT)),
        );
        let nonzero = |t: &Term| vec![Term::not(Term::eq(t.clone(), Term::bv(0, 32)))];
        assert_eq!(
            canonical_key(&bv, &ids, &nonzero(&b1)),
            canonical_key(&bv, &ids, &nonzero(&b2))
        );
        // Neither all 0 (x > 0) nor all 1 (y = x + 1) satisfies the first part: left to the
        // solver, as is z * z = 2 (unsatisfiable).
        assert_eq!(
            satisfied_by_simple_values(&sat_query(&enc, &ids, &parts[0])),
            None
        );
        assert_eq!(
            satisfied_by_simple_values(&sat_query(&enc, &ids, &parts[1])),
            None
        );
        // All 1: x > 0 and x < 5 with its range.
        let within = sat_query(
            &enc,
            &ids,
            &[first[0].clone(), Term::lt(x.clone(), Term::int(5))],
        );
        assert_eq!(satisfied_by_simple_values(&within), Some(1), "{within:?}");
        assert_eq!(
            satisfied_by_simple_values(&[Term::gt(x, Term::int(0))]),
            Some(1)
        );
        // All 0: x^32 != 2^63 - 1 over 64 bits (Z3 gave up on it at the resource limit).
        let b = Term::new_var("$c0", Sort::BitVec(64));
        let mut p = b.clone();
        for _ in 0..5 {
            p = Term::apply(Op::BvMul, vec![p.clone(), p]);
        }
        let far = Term::not(Term::eq(p, Term::bv((1u128 << 63) - 1, 64)));
        assert_eq!(satisfied_by_simple_values(&[far]), Some(0));
        assert_eq!(satisfied_by_simple_values(&[]), Some(0));
    }

    /// A loop's bounds (`38 <= n`, then `n < 39` beside `37 <= n`) are satisfied by their own
    /// constants, which 0 and 1 miss; a guess outside an identifier's type fails its range;
    /// bit-vector literals are read as signed; an unsatisfiable part stays with the solver.
    #[test]
    fn literals_of_a_part_decide_its_bounds() {
        use solver_bridge::term::Sort;
        let c = cfa(SRC);
        let enc = Encoder::new(&c, Encoding::Int);
        let mut ids = Idents::default();
        let n = ids.fresh(Sort::Int, Some(IntType::INT));
        let bound = vec![Term::le(Term::int(38), n.clone())];
        let q = sat_query(&enc, &ids, &bound);
        assert_eq!(satisfied_by_simple_values(&q), None);
        assert_eq!(guesses(&bound), vec![38, 37, 39]);
        assert_eq!(satisfied_by_guesses(&q, &guesses(&bound)), Some(38));
        // Between two bounds: only 38 is in.
        let between = vec![
            Term::gt(Term::int(39), n.clone()),
            Term::le(Term::int(38), n.clone()),
        ];
        let q = sat_query(&enc, &ids, &between);
        assert_eq!(satisfied_by_guesses(&q, &guesses(&between)), Some(38));
        let empty = vec![
            Term::gt(Term::int(38), n.clone()),
            Term::le(Term::int(38), n.clone()),
        ];
        let q = sat_query(&enc, &ids, &empty);
        assert_eq!(satisfied_by_guesses(&q, &guesses(&empty)), None);
        // 300 <= c for an unsigned char: 299, 300 and 301 are outside 0..255.
        let ch = ids.fresh(Sort::Int, Some(IntType::UCHAR));
        let wide = vec![Term::le(Term::int(300), ch)];
        let q = sat_query(&enc, &ids, &wide);
        assert_eq!(satisfied_by_guesses(&q, &guesses(&wide)), None);
        assert_eq!(
            satisfied_by_guesses(&wide, &guesses(&wide)),
            Some(300),
            "without the range"
        );
        // Over 32 bits, x = -5 (0xfffffffb): -5 and its neighbours are guessed.
        let x = Term::new_var("$c0", Sort::BitVec(32));
        let eq = vec![Term::eq(x, Term::bv(0xffff_fffb, 32))];
        assert_eq!(guesses(&eq), vec![-5, -6, -4]);
        assert_eq!(satisfied_by_guesses(&eq, &guesses(&eq)), Some(-5));
        // The smaller constraint's constants come first, and there are at most MAX_GUESSES.
        let many: Vec<Term> = (10..30)
            .map(|k| Term::lt(Term::mul(n.clone(), Term::int(k)), Term::int(1000 + k)))
            .chain([Term::le(Term::int(7), n.clone())])
            .collect();
        let g = guesses(&many);
        assert_eq!(g.len(), MAX_GUESSES);
        assert_eq!(&g[..3], &[7, 6, 8]);
    }

    /// The thesis' running example: `b := a` keeps `a`'s identifier in both (pitfall 5),
    /// so `b < a` becomes `s < s`, which folds or is unsatisfiable.
    #[test]
    fn assignments_share_identifiers() {
        let c = cfa(SRC);
        let mut ids = Idents::default();
        let s = run(
            &c,
            &["int a = __VERIFIER_nondet_int();", "[a >= 0]", "b = a;"],
            &mut ids,
        )
        .unwrap();
        let vals: Vec<&Term> = s.values.values().collect();
        assert_eq!(vals.len(), 2);
        assert_eq!(vals[0], vals[1], "{s:?}");
        assert_eq!(s.constraints.len(), 1);
        // Concrete values are computed concretely.
        let s = run(&c, &["int c = 3;", "c = c * 2;"], &mut ids).unwrap();
        assert_eq!(
            s.values.values().next().and_then(|t| t.as_int().cloned()),
            Some(6.into())
        );
        // A concrete assumption that is false cuts the path.
        assert_eq!(run(&c, &["int c = 3;", "[c == 6]"], &mut ids), None);
    }

    /// A read of an unknown variable binds a fresh identifier that the successor keeps.
    #[test]
    fn reads_of_unknown_variables_bind_fresh_identifiers() {
        let c = cfa(SRC);
        let mut ids = Idents::default();
        let s = run(&c, &["b = a + 1;"], &mut ids).unwrap();
        assert_eq!(s.values.len(), 2, "{s:?}");
        let before = ids.count();
        let t = run(&c, &["b = a + 1;"], &mut ids).unwrap();
        assert!(ids.count() > before, "identifiers are never reused");
        assert_ne!(s, t);
    }

    /// `y % 2` computed twice from the same identifier gets the same quotient and remainder
    /// identifiers (a function of `y`), so the state does not grow; a bitwise operation the
    /// encoding over-approximates gets fresh identifiers each time.
    #[test]
    fn exact_auxiliaries_are_reused_approximated_ones_are_not() {
        let src = "extern unsigned int __VERIFIER_nondet_uint(void);\n\
            int main(void) { unsigned int y = __VERIFIER_nondet_uint(); unsigned int x = 0; \
            unsigned int z = 0; \
            if (y % 2 == 0) { x = 1; } if (y % 2 == 0) { x = 2; } \
            z = y ^ x; z = y ^ x; return 0; }";
        let c = cfa(src);
        let mut ids = Idents::default();
        let decl = "unsigned int y = __VERIFIER_nondet_uint();";
        let once = run(&c, &[decl, "[y % 2U == 0U]"], &mut ids).unwrap();
        let twice = run(
            &c,
            &[decl, "[y % 2U == 0U]", "x = 1U;", "[y % 2U == 0U]"],
            &mut ids,
        );
        let twice = twice.unwrap();
        assert_eq!(
            once.constraints.len(),
            twice.constraints.len(),
            "{once:?} / {twice:?}"
        );
        let idents = |s: &SymState| s.idents().len();
        // y, its quotient and its remainder by 2, in both.
        assert_eq!((idents(&once), idents(&twice)), (3, 3), "{twice:?}");
        // `^` is over-approximated in the Int encoding: two fresh values.
        let xor = run(&c, &[decl, "z = y ^ x;", "z = y ^ x;"], &mut ids).unwrap();
        let before = ids.count();
        let again = run(&c, &[decl, "z = y ^ x;", "z = y ^ x;"], &mut ids).unwrap();
        assert!(ids.count() > before + 1, "{xor:?} / {again:?}");
    }

    /// Only implied bounds go: `3 < n` makes `1 < n` redundant, `n < 9` stays.
    #[test]
    fn tighter_bounds_subsume_looser_ones() {
        let n = Term::new_var("$s0", solver_bridge::term::Sort::Int);
        let mut cs = BTreeMap::new();
        let lt = |a: i64| Term::lt(Term::int(a), n.clone());
        assert!(subsume(&mut cs, &lt(1)));
        cs.insert(lt(1), BTreeSet::new());
        assert!(subsume(&mut cs, &Term::lt(n.clone(), Term::int(9))));
        cs.insert(Term::lt(n.clone(), Term::int(9)), BTreeSet::new());
        assert!(subsume(&mut cs, &lt(3)));
        cs.insert(lt(3), BTreeSet::new());
        assert_eq!(cs.len(), 2, "{cs:?}");
        assert!(!subsume(&mut cs, &lt(2)), "implied by 3 < n");
        assert!(!subsume(
            &mut cs,
            &Term::not(Term::ge(n.clone(), Term::int(9)))
        ));
    }
}
