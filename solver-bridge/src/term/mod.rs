//! Immutable SMT terms.
//!
//! A [`Term`] is an `Rc` to a node that caches its structural hash, its sort and its size, so
//! clones are cheap, equality fails fast, and maps keyed by terms are deterministic (the hash uses
//! a fixed-key hasher and `Ord` is structural). Terms are built through the smart constructors in
//! [`build`](self) (light, sound simplification), printed as SMT-LIB by `Display`
//! ([`print`](self)), and traversed by the functions in [`ops`](self) (free variables,
//! substitution, renaming, size).

mod build;
mod eval;
mod fold;
mod ops;
mod print;

use num_bigint::{BigInt, BigUint};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::rc::{Rc, Weak};

pub use build::TermError;
pub use eval::Literal;
pub use ops::{sort_conflicts, vars_of};
pub use print::{is_simple_symbol, quote_symbol};

/// Hashing of node addresses ([`Term::addr`]) and node hashes for the sets and maps of the
/// DAG walks: SipHash, the default, was a visible part of the engine's own time (IMPACT on
/// `fibo_5-1.c`), and these keys need no protection against chosen collisions. A multiply
/// and a rotation (FxHash's step; the rotation brings the well-mixed high bits down to the
/// bucket index, since addresses are aligned). Only lookups: no output depends on the order
/// of these tables.
#[derive(Default, Clone, Copy)]
pub struct AddrHasher(u64);

const ADDR_HASH_K: u64 = 0xf135_7aea_2e62_a9c5;

impl Hasher for AddrHasher {
    fn finish(&self) -> u64 {
        self.0.rotate_left(26)
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(u64::from(*b));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n).wrapping_mul(ADDR_HASH_K);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

/// Also for maps keyed by terms: they hash as their structural hash, already mixed.
pub type AddrHash = std::hash::BuildHasherDefault<AddrHasher>;
/// A set of node addresses (or node hashes).
pub(crate) type AddrSet<K = usize> = std::collections::HashSet<K, AddrHash>;
/// A map from node addresses.
pub(crate) type AddrMap<V> = std::collections::HashMap<usize, V, AddrHash>;

/// Room for the nodes of a traversal of `t` (its tree size, at most 1,024), so that the
/// table does not grow step by step (rehashing was a tenth of the engine's time in the
/// predicate analysis's queries).
pub(crate) fn addr_set_for<K>(t: &Term) -> AddrSet<K> {
    AddrSet::with_capacity_and_hasher(room_for(t), AddrHash::default())
}

/// [`addr_set_for`] for a map.
pub(crate) fn addr_map_for<V>(t: &Term) -> AddrMap<V> {
    AddrMap::with_capacity_and_hasher(room_for(t), AddrHash::default())
}

fn room_for(t: &Term) -> usize {
    t.size().min(1024) as usize
}

/// The hasher of the structural hash ([`Term::mk`]): FxHash's step per word and a final
/// avalanche (MurmurHash3's `fmix64`), so that the high and low bits of the result are well
/// mixed for the hash-consing table and the maps keyed by terms. Cheaper than SipHash (4.7 %
/// of the engine's time in symbolic execution) and the same on every platform: lengths are
/// hashed as `u64`, where SipHash hashed a `usize` as 4 bytes in the browser and 8 natively.
#[derive(Default)]
pub struct StructHasher(u64);

/// For maps keyed by values other than terms (a whole key written out, mixed word by word):
/// [`StructHasher`].
pub type StructHash = std::hash::BuildHasherDefault<StructHasher>;

const STRUCT_HASH_K: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl Hasher for StructHasher {
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.write_u64(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            // The length keeps "a\0" and "a" apart.
            self.write_u64(u64::from_le_bytes(last) ^ ((rest.len() as u64) << 59));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(STRUCT_HASH_K);
    }
    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
    fn write_isize(&mut self, n: isize) {
        self.write_u64(n as i64 as u64);
    }
}

/// The widest bit-vector whose literals are represented (and folded) exactly.
pub const MAX_BV_LITERAL_WIDTH: u32 = 128;

/// The sorts the bridge knows.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Serialize, Deserialize)]
pub enum Sort {
    Bool,
    Int,
    /// `(_ BitVec w)` with `w >= 1`.
    BitVec(u32),
}

impl fmt::Display for Sort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sort::Bool => f.write_str("Bool"),
            Sort::Int => f.write_str("Int"),
            Sort::BitVec(w) => write!(f, "(_ BitVec {w})"),
        }
    }
}

/// A constant symbol (free variable) with its sort. Ordered by name, then sort.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Var {
    pub name: Rc<str>,
    pub sort: Sort,
}

impl Var {
    pub fn new(name: impl AsRef<str>, sort: Sort) -> Var {
        Var {
            name: Rc::from(name.as_ref()),
            sort,
        }
    }

    /// The variable as a term.
    pub fn term(&self) -> Term {
        Term::var(self.clone())
    }

    /// A name can be printed in SMT-LIB (possibly `|quoted|`) iff it is non-empty and contains
    /// neither `|` nor `\`.
    pub fn is_printable_name(name: &str) -> bool {
        !name.is_empty() && !name.contains(['|', '\\'])
    }
}

impl fmt::Display for Var {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        print::write_symbol(&self.name, f)
    }
}

/// Built-in function symbols. Arity and sorts are checked by [`Term::app`].
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Op {
    // Core theory.
    Not,
    And,
    Or,
    Implies,
    Xor,
    Eq,
    Distinct,
    Ite,
    // Integers.
    /// Unary minus.
    Neg,
    Add,
    /// Binary or n-ary, left-associative.
    Sub,
    Mul,
    /// SMT-LIB `div` (Euclidean: the remainder is never negative).
    Div,
    /// SMT-LIB `mod` (Euclidean).
    Mod,
    Abs,
    Le,
    Lt,
    Ge,
    Gt,
    /// `(_ divisible n)`, `n >= 1`.
    Divisible(BigUint),
    // Bit-vectors.
    BvNot,
    BvNeg,
    BvAnd,
    BvOr,
    BvXor,
    BvAdd,
    BvSub,
    BvMul,
    BvUdiv,
    BvUrem,
    BvSdiv,
    BvSrem,
    BvSmod,
    BvShl,
    BvLshr,
    BvAshr,
    BvUlt,
    BvUle,
    BvUgt,
    BvUge,
    BvSlt,
    BvSle,
    BvSgt,
    BvSge,
    Concat,
    /// `(_ extract hi lo)`.
    Extract(u32, u32),
    /// `(_ zero_extend n)`.
    ZeroExtend(u32),
    /// `(_ sign_extend n)`.
    SignExtend(u32),
    Bv2Nat,
    /// `(_ int2bv w)`.
    Int2Bv(u32),
}

/// `forall` or `exists`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Quantifier {
    Forall,
    Exists,
}

/// What a term is. Children are `Term`s, so the structure is a DAG with shared subterms.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum TermKind {
    Bool(bool),
    Int(BigInt),
    /// A bit-vector literal; `value < 2^width`, `width <= MAX_BV_LITERAL_WIDTH`.
    BitVec {
        value: u128,
        width: u32,
    },
    Var(Var),
    App(Op, Box<[Term]>),
    /// A quantifier over the bound variables; the body is a Bool term.
    Quant(Quantifier, Box<[Var]>, Term),
}

thread_local! {
    /// The nodes of this thread's terms (see [`Interner`]).
    static INTERNED: RefCell<Interner> = RefCell::new(Interner::default());
}

/// Hash-consing: a node equal to one that is alive is that node, so terms built apart from
/// the same parts share one node. Equal terms then compare in O(1) ([`Term::ptr_eq`] is the
/// first test of `==` and [`Term::dag_eq`]): the query cache compares every query with the
/// cached ones, and a path formula or block formula built again after a refinement used to
/// be compared node by node. Only an optimisation: equality stays structural (a node whose
/// structural hash collides with a different live node's is simply not shared), so nothing
/// relies on two equal terms sharing a node.
///
/// The table holds weak handles, keyed by the structural hash: it keeps no term alive, and
/// the handles of dropped nodes are swept when the table has doubled since the last sweep.
#[derive(Default)]
struct Interner {
    nodes: HashMap<u64, Weak<Node>, AddrHash>,
    /// The table's size after the last sweep.
    swept: usize,
}

/// The table is swept no earlier than at this many handles.
const MIN_SWEEP: usize = 4096;

impl Interner {
    fn intern(&mut self, node: Node) -> Term {
        let live = self.nodes.get(&node.hash).and_then(Weak::upgrade);
        if let Some(old) = live {
            if old.sort == node.sort && same_parts(&old.kind, &node.kind) {
                return Term(old);
            }
            // Two different terms with one structural hash: the new one is not shared.
            return Term(Rc::new(node));
        }
        if self.nodes.len() >= (2 * self.swept).max(MIN_SWEEP) {
            self.nodes.retain(|_, w| w.strong_count() > 0);
            self.swept = self.nodes.len();
        }
        let hash = node.hash;
        let t = Term(Rc::new(node));
        self.nodes.insert(hash, Rc::downgrade(&t.0));
        t
    }
}

/// Equal kinds whose children are the same nodes (the test of hash-consing: children are
/// shared already, so a comparison of their addresses is enough and takes O(arity)).
fn same_parts(a: &TermKind, b: &TermKind) -> bool {
    match (a, b) {
        (TermKind::App(o1, x), TermKind::App(o2, y)) => {
            o1 == o2 && x.len() == y.len() && x.iter().zip(y.iter()).all(|(x, y)| x.ptr_eq(y))
        }
        (TermKind::Quant(q1, v1, x), TermKind::Quant(q2, v2, y)) => {
            q1 == q2 && v1 == v2 && x.ptr_eq(y)
        }
        (TermKind::App(..) | TermKind::Quant(..), _)
        | (_, TermKind::App(..) | TermKind::Quant(..)) => false,
        (k1, k2) => k1 == k2,
    }
}

struct Node {
    kind: TermKind,
    sort: Sort,
    hash: u64,
    /// Number of nodes of the term as a tree (saturating).
    size: u64,
}

/// An immutable, cheaply clonable SMT term.
#[derive(Clone)]
pub struct Term(Rc<Node>);

impl Term {
    /// Wraps a kind with its sort; the only place nodes are made. Callers guarantee the sort.
    fn mk(kind: TermKind, sort: Sort) -> Term {
        let mut h = StructHasher::default();
        let size = match &kind {
            TermKind::Bool(b) => {
                0u8.hash(&mut h);
                b.hash(&mut h);
                1
            }
            TermKind::Int(n) => {
                1u8.hash(&mut h);
                n.hash(&mut h);
                1
            }
            TermKind::BitVec { value, width } => {
                2u8.hash(&mut h);
                value.hash(&mut h);
                width.hash(&mut h);
                1
            }
            TermKind::Var(v) => {
                3u8.hash(&mut h);
                v.hash(&mut h);
                1
            }
            TermKind::App(op, args) => {
                4u8.hash(&mut h);
                op.hash(&mut h);
                args.len().hash(&mut h);
                let mut size: u64 = 1;
                for a in args.iter() {
                    a.0.hash.hash(&mut h);
                    size = size.saturating_add(a.0.size);
                }
                size
            }
            TermKind::Quant(q, vars, body) => {
                5u8.hash(&mut h);
                q.hash(&mut h);
                vars.hash(&mut h);
                body.0.hash.hash(&mut h);
                body.0.size.saturating_add(1)
            }
        };
        sort.hash(&mut h);
        let node = Node {
            kind,
            sort,
            hash: h.finish(),
            size,
        };
        // Outside the table only while the thread is being torn down.
        let mut node = Some(node);
        INTERNED
            .try_with(|table| {
                table
                    .borrow_mut()
                    .intern(node.take().expect("not yet used"))
            })
            .unwrap_or_else(|_| Term(Rc::new(node.take().expect("not used"))))
    }

    pub fn kind(&self) -> &TermKind {
        &self.0.kind
    }

    pub fn sort(&self) -> Sort {
        self.0.sort
    }

    /// Number of nodes of the term read as a tree (shared subterms counted each time).
    pub fn size(&self) -> u64 {
        self.0.size
    }

    /// The operator and arguments of an application.
    pub fn as_app(&self) -> Option<(&Op, &[Term])> {
        match &self.0.kind {
            TermKind::App(op, args) => Some((op, args)),
            _ => None,
        }
    }

    /// The arguments of an application (empty for every other kind).
    pub fn args(&self) -> &[Term] {
        match &self.0.kind {
            TermKind::App(_, args) => args,
            _ => &[],
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self.0.kind {
            TermKind::Bool(b) => Some(b),
            _ => None,
        }
    }

    pub fn as_int(&self) -> Option<&BigInt> {
        match &self.0.kind {
            TermKind::Int(n) => Some(n),
            _ => None,
        }
    }

    /// `(value, width)` of a bit-vector literal.
    pub fn as_bv(&self) -> Option<(u128, u32)> {
        match self.0.kind {
            TermKind::BitVec { value, width } => Some((value, width)),
            _ => None,
        }
    }

    pub fn as_var(&self) -> Option<&Var> {
        match &self.0.kind {
            TermKind::Var(v) => Some(v),
            _ => None,
        }
    }

    pub fn is_true(&self) -> bool {
        self.as_bool() == Some(true)
    }

    pub fn is_false(&self) -> bool {
        self.as_bool() == Some(false)
    }

    /// A literal (Boolean, integer or bit-vector constant).
    pub fn is_literal(&self) -> bool {
        matches!(
            self.0.kind,
            TermKind::Bool(_) | TermKind::Int(_) | TermKind::BitVec { .. }
        )
    }

    /// True when both handles point to the same node (a cheap sufficient test for equality).
    pub fn ptr_eq(&self, other: &Term) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }

    /// Structural equality in time linear in the sizes of the two DAGs: `==` compares the
    /// terms as trees, which takes exponential time on terms with much sharing that are equal
    /// but built apart (a path formula built again after a refinement, say).
    pub fn dag_eq(&self, other: &Term) -> bool {
        fn go(a: &Term, b: &Term, same: &mut AddrSet<(usize, usize)>) -> bool {
            if Rc::ptr_eq(&a.0, &b.0) {
                return true;
            }
            if a.0.hash != b.0.hash || a.0.sort != b.0.sort || a.0.size != b.0.size {
                return false;
            }
            // A pair met before is equal, or the whole comparison already answers false.
            if !same.insert((a.addr(), b.addr())) {
                return true;
            }
            match (&a.0.kind, &b.0.kind) {
                (TermKind::App(o1, x), TermKind::App(o2, y)) => {
                    o1 == o2
                        && x.len() == y.len()
                        && x.iter().zip(y.iter()).all(|(x, y)| go(x, y, same))
                }
                (TermKind::Quant(q1, v1, x), TermKind::Quant(q2, v2, y)) => {
                    q1 == q2 && v1 == v2 && go(x, y, same)
                }
                (k1, k2) => k1 == k2,
            }
        }
        go(self, other, &mut AddrSet::default())
    }

    /// An identity for memoisation within one traversal (valid while `self` is alive).
    pub(crate) fn addr(&self) -> usize {
        Rc::as_ptr(&self.0) as usize
    }
}

impl PartialEq for Term {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
            || (self.0.hash == other.0.hash
                && self.0.sort == other.0.sort
                && self.0.kind == other.0.kind)
    }
}

impl Eq for Term {}

impl Hash for Term {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.0.hash);
    }
}

/// A term as a key of a hash map: hashed by its structural hash, compared as a DAG
/// ([`Term::dag_eq`], linear time; `==` compares trees, which is exponential on terms with
/// much sharing that were built apart).
#[derive(Clone, Debug)]
pub struct DagTerm(pub Term);

impl PartialEq for DagTerm {
    fn eq(&self, other: &DagTerm) -> bool {
        self.0.dag_eq(&other.0)
    }
}

impl Eq for DagTerm {}

impl Hash for DagTerm {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl PartialOrd for Term {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Term {
    /// Structural order (deterministic across runs); equal terms compare `Equal`.
    fn cmp(&self, other: &Self) -> Ordering {
        if Rc::ptr_eq(&self.0, &other.0) {
            return Ordering::Equal;
        }
        self.0
            .kind
            .cmp(&other.0.kind)
            .then_with(|| self.0.sort.cmp(&other.0.sort))
    }
}

impl fmt::Debug for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl Drop for Node {
    /// Drops long chains of uniquely owned children iteratively, so that dropping a deep term
    /// cannot overflow the stack.
    fn drop(&mut self) {
        let mut stack: Vec<Term> = Vec::new();
        take_children(&mut self.kind, &mut stack);
        while let Some(t) = stack.pop() {
            if let Ok(mut node) = Rc::try_unwrap(t.0) {
                take_children(&mut node.kind, &mut stack);
            }
        }
    }
}

fn take_children(kind: &mut TermKind, stack: &mut Vec<Term>) {
    // Quantifier bodies are left to the ordinary recursive drop: nesting of binders is shallow,
    // and the body's own node drops its children iteratively again.
    if let TermKind::App(_, args) = kind {
        let args = std::mem::take(args);
        stack.extend(args.into_vec());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x() -> Term {
        Term::var(Var::new("x", Sort::Int))
    }

    #[test]
    fn a_disjunction_keeps_its_shared_conjuncts_outside() {
        let p = |n: &str| Term::new_var(n, Sort::Bool);
        let (a, b, c, d) = (p("a"), p("b"), p("c"), p("d"));
        let f = Term::or_factored(vec![
            Term::and(vec![a.clone(), b.clone(), c.clone()]),
            Term::and(vec![a.clone(), b.clone(), d.clone()]),
        ]);
        let expected = Term::and(vec![a.clone(), b.clone(), Term::or2(c.clone(), d.clone())]);
        assert_eq!(f.to_string(), expected.to_string());
        // A disjunct that is all shared makes the rest true; nothing shared: a plain `or`.
        let g = Term::or_factored(vec![Term::and2(a.clone(), b.clone()), a.clone()]);
        assert_eq!(g.to_string(), a.to_string());
        let h = Term::or_factored(vec![c.clone(), d.clone()]);
        assert_eq!(h.to_string(), Term::or2(c, d).to_string());
    }

    #[test]
    fn equal_terms_built_apart_share_one_node() {
        let a = Term::add(vec![x(), Term::int(1)]);
        let b = Term::add(vec![x(), Term::int(1)]);
        assert!(a.ptr_eq(&b));
        // The table keeps nothing alive: once both are gone, a new one is a new node that
        // the table finds again.
        drop((a, b));
        let c = Term::add(vec![x(), Term::int(1)]);
        assert!(c.ptr_eq(&Term::add(vec![x(), Term::int(1)])));
    }

    /// A node whose structural hash is a live different node's stays out of the table, and
    /// equality stays structural.
    #[test]
    fn a_hash_collision_is_not_shared_and_equality_stays_structural() {
        let y = Term::var(Var::new("y", Sort::Int));
        let collide = |kind: TermKind| Node {
            kind,
            sort: Sort::Int,
            hash: y.0.hash,
            size: 1,
        };
        let z = Var::new("z", Sort::Int);
        let (z1, z2) = INTERNED.with(|table| {
            let mut table = table.borrow_mut();
            (
                table.intern(collide(TermKind::Var(z.clone()))),
                table.intern(collide(TermKind::Var(z.clone()))),
            )
        });
        assert!(!z1.ptr_eq(&y) && !z2.ptr_eq(&y) && !z1.ptr_eq(&z2));
        assert!(z1 != y && z1 == z2 && z1.dag_eq(&z2));
        // `y` itself is still found.
        assert!(Term::var(Var::new("y", Sort::Int)).ptr_eq(&y));
    }

    /// Dropped nodes leave the table at a sweep: it stays within twice the live nodes (or
    /// [`MIN_SWEEP`]).
    #[test]
    fn the_table_is_swept() {
        let keep: Vec<Term> = (0..100)
            .map(|i| Term::add(vec![x(), Term::int(i)]))
            .collect();
        for i in 0..(10 * MIN_SWEEP as i64) {
            drop(Term::add(vec![x(), Term::int(1000 + i)]));
        }
        let size = INTERNED.with(|table| table.borrow().nodes.len());
        assert!(size <= 2 * MIN_SWEEP, "{size} handles");
        assert!(keep[7].ptr_eq(&Term::add(vec![x(), Term::int(7)])));
    }
}
