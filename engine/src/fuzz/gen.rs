//! The program generator: a random [`Program`] from a seed.
//!
//! Programs are small (10-60 lines) and free of undefined behaviour by construction (see
//! [`crate::fuzz::ast`]). They mix every integer type, casts, overflow-prone arithmetic, bit
//! operations, guarded division, nested conditionals, counter loops of every kind (constant
//! bounds), loops with a nondeterministic exit, forward gotos, helper functions with
//! parameters and return values, recursion bounded by its argument, nondeterministic inputs,
//! assumptions and checks. Patterns that hinge on wrap-around and truncation are planted on
//! purpose.
//!
//! One check is *planted* ([`generate`]): the program is first built with a placeholder, run
//! concretely on random inputs, and the check compares a variable with a value it really had
//! at that point. A check `x != v` is then violated by the recorded inputs (a FALSE program
//! with a known witness, often one random testing would rarely hit); other planted shapes
//! (`x != v + d`, bounds) may hold or not.

use crate::concrete;
use crate::frontend::parse_program;
use crate::fuzz::ast::*;
use crate::fuzz::exec::{random_value, RandomOracle};
use crate::fuzz::Rng;

mod memory;
mod patterns;

/// A generated program and, when its planted check is known to fail, the input values (in the
/// order the program asks for them) of a run that reaches the error.
#[derive(Clone, Debug)]
pub struct Generated {
    pub program: Program,
    pub witness: Option<Vec<i128>>,
}

#[derive(Clone, Debug)]
struct Var {
    name: String,
    ty: Ty,
    writable: bool,
}

#[derive(Clone, Debug)]
struct Callee {
    name: String,
    ret: Option<Ty>,
    params: Vec<Ty>,
    /// Recursive with this parameter as the depth bound.
    recursive: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LoopCtx {
    None,
    /// A `for` loop: `continue` is safe (the increment still runs).
    For,
    /// A loop whose `continue` would skip the counter update.
    Other,
}

struct Gen {
    rng: Rng,
    next_id: usize,
    globals: Vec<Global>,
    callees: Vec<Callee>,
    bounded: bool,
    scopes: Vec<Vec<Var>>,
    ret: Option<Ty>,
    loop_ctx: LoopCtx,
    depth: usize,
    /// Statements left for the current function.
    budget: isize,
    /// The placeholder check is placed (at most once).
    probe_placed: bool,
    /// The variables in scope at the placeholder.
    probe_vars: Vec<Var>,
    /// Current function is `main`.
    in_main: bool,
    /// No bit operations (and, or, xor, not, shifts): the predicate presets then keep their
    /// integer encoding, where wrap-around must be modelled exactly.
    arith_only: bool,
    /// Shapes with arrays, pointers and structs among the patterns (`cpa fuzz --memory`).
    memory: bool,
}

/// The placeholder statement for the planted check.
fn probe_stmt() -> Stmt {
    Stmt::Check(Check::Assert, Expr::Const(1, Ty::Int))
}

const TYPE_WEIGHTS: [u32; 11] = [4, 6, 6, 5, 5, 30, 14, 5, 5, 10, 10];

impl Gen {
    fn fresh(&mut self, prefix: &str) -> String {
        self.next_id += 1;
        format!("{prefix}{}", self.next_id)
    }

    fn ty(&mut self) -> Ty {
        ALL_TYPES[self.rng.weighted(&TYPE_WEIGHTS)]
    }

    fn visible(&self) -> Vec<Var> {
        let mut v: Vec<Var> = self
            .globals
            .iter()
            .map(|g| Var {
                name: g.name.clone(),
                ty: g.ty,
                writable: true,
            })
            .collect();
        for s in &self.scopes {
            v.extend(s.iter().cloned());
        }
        v
    }

    fn declare(&mut self, name: &str, ty: Ty, writable: bool) {
        if let Some(s) = self.scopes.last_mut() {
            s.push(Var {
                name: name.to_string(),
                ty,
                writable,
            });
        }
    }

    /// A value of `ty` that is likely to matter: bounds, powers of two, small numbers.
    fn interesting(&mut self, ty: Ty) -> i128 {
        let v = match self.rng.below(12) {
            0 => 0,
            1 => 1,
            2 => -1,
            3 => ty.min(),
            4 => ty.max(),
            5 => ty.max() - self.rng.range(0, 3),
            6 => ty.min() + self.rng.range(0, 3),
            7 => {
                let k = self.rng.range(0, i128::from(ty.bits()) - 1);
                (1i128 << k) + self.rng.range(-1, 1)
            }
            8 => self.rng.range(ty.min(), ty.max()),
            9 => *self
                .rng
                .pick(&[100, 127, 128, 255, 256, 1000, 32767, 65535, 65536]),
            _ => self.rng.range(-20, 20),
        };
        ty.wrap(v)
    }

    fn constant(&mut self) -> Expr {
        let ty = if self.rng.chance(60) {
            Ty::Int
        } else {
            self.ty()
        };
        let v = if self.rng.chance(50) {
            self.rng.range(-10, 10)
        } else {
            self.interesting(ty)
        };
        Expr::Const(ty.wrap(v), ty)
    }

    fn leaf(&mut self) -> Expr {
        let vars = self.visible();
        if !vars.is_empty() && self.rng.chance(70) {
            let v = self.rng.pick(&vars);
            Expr::Var(v.name.clone(), v.ty)
        } else {
            self.constant()
        }
    }

    fn expr(&mut self, depth: usize) -> Expr {
        if depth == 0 || self.rng.chance(30) {
            return self.leaf();
        }
        let d = depth - 1;
        let bits = if self.arith_only { 0 } else { 1 };
        match self
            .rng
            .weighted(&[40, 12 * bits, 10 * bits, 8, 8, 8, 6, 8])
        {
            0 => {
                let op = *self
                    .rng
                    .pick(&[BOp::Add, BOp::Sub, BOp::Mul, BOp::Add, BOp::Sub]);
                Expr::bin(op, self.expr(d), self.expr(d))
            }
            1 => {
                let op = *self.rng.pick(&[BOp::BitAnd, BOp::BitOr, BOp::BitXor]);
                Expr::bin(op, self.expr(d), self.expr(d))
            }
            2 => {
                let op = *self.rng.pick(&[BOp::Shl, BOp::Shr]);
                let amount = if self.rng.chance(70) {
                    Expr::int(self.rng.range(0, 31))
                } else {
                    self.leaf()
                };
                Expr::bin(op, self.expr(d), amount)
            }
            3 => {
                let op = *self.rng.pick(&[BOp::Div, BOp::Rem]);
                let divisor = if self.rng.chance(60) {
                    Expr::int(*self.rng.pick(&[2, 3, 4, 5, 7, 8, 10, 16, -2, -3, 256]))
                } else {
                    self.leaf()
                };
                Expr::bin(op, self.expr(d), divisor)
            }
            4 => {
                let ty = self.ty();
                Expr::Cast(ty, Box::new(self.expr(d)))
            }
            5 => {
                let ops: &[UOp] = if self.arith_only {
                    &[UOp::Neg, UOp::LogNot]
                } else {
                    &[UOp::Neg, UOp::BitNot, UOp::LogNot]
                };
                let op = *self.rng.pick(ops);
                Expr::Unary(op, Box::new(self.expr(d)))
            }
            6 => Expr::Ite(
                Box::new(self.cond(d)),
                Box::new(self.expr(d)),
                Box::new(self.expr(d)),
            ),
            _ => self.cond(d),
        }
    }

    /// A condition: mostly a comparison, sometimes combined.
    fn cond(&mut self, depth: usize) -> Expr {
        match self.rng.weighted(&[70, 10, 8, 12]) {
            1 if depth > 0 => {
                let op = *self.rng.pick(&[BOp::LogAnd, BOp::LogOr]);
                Expr::bin(op, self.cond(depth - 1), self.cond(depth - 1))
            }
            2 if depth > 0 => Expr::log_not(self.cond(depth - 1)),
            3 => self.expr(depth.min(1)),
            _ => {
                let op = *self
                    .rng
                    .pick(&[BOp::Lt, BOp::Le, BOp::Gt, BOp::Ge, BOp::Eq, BOp::Ne]);
                let a = self.expr(depth.min(2));
                let b = if self.rng.chance(50) {
                    let t = a.ty();
                    let v = self.interesting(t);
                    Expr::Const(v, t)
                } else {
                    self.expr(depth.min(1))
                };
                Expr::bin(op, a, b)
            }
        }
    }

    fn writable(&mut self) -> Option<Var> {
        let vars: Vec<Var> = self.visible().into_iter().filter(|v| v.writable).collect();
        if vars.is_empty() {
            None
        } else {
            Some(self.rng.pick(&vars).clone())
        }
    }

    fn block(&mut self, max: usize) -> Vec<Stmt> {
        self.scopes.push(Vec::new());
        self.depth += 1;
        let n = 1 + self.rng.below(max);
        let mut out = Vec::new();
        for _ in 0..n {
            if self.budget <= 0 {
                break;
            }
            self.maybe_probe(&mut out, 8);
            let s = self.stmt();
            out.extend(s);
        }
        self.depth -= 1;
        self.scopes.pop();
        out
    }

    /// Places the planted check here with probability `percent`, if not yet placed.
    fn maybe_probe(&mut self, out: &mut Vec<Stmt>, percent: u32) {
        if !self.probe_placed && self.rng.chance(percent) {
            self.probe_placed = true;
            self.probe_vars = self.visible();
            out.push(probe_stmt());
        }
    }

    /// One statement (sometimes a short sequence, such as a pattern).
    fn stmt(&mut self) -> Vec<Stmt> {
        self.budget -= 1;
        let deep = self.depth >= 3;
        let w = [
            30,                                                 // 0 assignment
            14,                                                 // 1 declaration
            4,                                                  // 2 havoc
            if deep { 3 } else { 14 },                          // 3 if
            if deep { 0 } else { 10 },                          // 4 loop
            3,                                                  // 5 skip-to (forward goto)
            if self.callees.is_empty() { 0 } else { 9 },        // 6 call
            4,                                                  // 7 assume
            2,                                                  // 8 check
            if self.loop_ctx == LoopCtx::None { 0 } else { 3 }, // 9 break/continue
            if self.in_main { 0 } else { 2 },                   // 10 early return
            1,                                                  // 11 abort
            5,                                                  // 12 pattern
        ];
        match self.rng.weighted(&w) {
            0 => self.assignment(),
            1 => {
                let ty = self.ty();
                let name = self.fresh("v");
                let init = if self.rng.chance(35) {
                    None
                } else {
                    Some(self.expr(2))
                };
                self.declare(&name, ty, true);
                vec![Stmt::Decl { name, ty, init }]
            }
            2 => match self.writable() {
                Some(v) => vec![Stmt::Havoc {
                    name: v.name,
                    ty: v.ty,
                }],
                None => self.assignment(),
            },
            3 => {
                let cond = self.cond(2);
                let then = self.block(3);
                let els = if self.rng.chance(40) {
                    self.block(3)
                } else {
                    Vec::new()
                };
                vec![Stmt::If { cond, then, els }]
            }
            4 => vec![self.loop_stmt()],
            5 => {
                let cond = self.cond(1);
                let label = self.fresh("L");
                // The skipped statements are a scope of their own (a block when they declare
                // anything), so no declaration is jumped over into its scope.
                let mut body = self.block(2);
                if body.iter().any(|s| s.declares().is_some()) {
                    body = vec![Stmt::Block(body)];
                }
                vec![Stmt::SkipTo { cond, label, body }]
            }
            6 => self.call(),
            7 => {
                let f = if self.rng.chance(50) {
                    AssumeFn::Verifier
                } else {
                    AssumeFn::AbortIfNot
                };
                vec![Stmt::Assume(f, self.cond(1))]
            }
            8 => vec![self.check()],
            9 => {
                if self.loop_ctx == LoopCtx::For && self.rng.chance(40) {
                    vec![self.guarded(Stmt::Continue)]
                } else {
                    vec![self.guarded(Stmt::Break)]
                }
            }
            10 => {
                let e = self.ret.map(|_| self.expr(2));
                vec![self.guarded(Stmt::Return(e))]
            }
            11 => vec![self.guarded(Stmt::Abort)],
            _ => self.pattern(),
        }
    }

    /// `if (cond) s`
    fn guarded(&mut self, s: Stmt) -> Stmt {
        Stmt::If {
            cond: self.cond(1),
            then: vec![s],
            els: Vec::new(),
        }
    }

    fn assignment(&mut self) -> Vec<Stmt> {
        let Some(v) = self.writable() else {
            let ty = self.ty();
            let name = self.fresh("v");
            let init = Some(self.expr(2));
            self.declare(&name, ty, true);
            return vec![Stmt::Decl { name, ty, init }];
        };
        match self.rng.below(10) {
            0 => vec![Stmt::Incr {
                name: v.name,
                up: self.rng.chance(60),
            }],
            1 | 2 => {
                let n = if self.arith_only { 3 } else { 8 };
                let op = *self.rng.pick(
                    &[
                        BOp::Add,
                        BOp::Sub,
                        BOp::Mul,
                        BOp::BitAnd,
                        BOp::BitOr,
                        BOp::BitXor,
                        BOp::Shl,
                        BOp::Shr,
                    ][..n],
                );
                let e = if matches!(op, BOp::Shl | BOp::Shr) {
                    Expr::int(self.rng.range(0, 7))
                } else {
                    self.expr(1)
                };
                vec![Stmt::Assign {
                    name: v.name,
                    ty: v.ty,
                    op: Some(op),
                    e,
                }]
            }
            _ => {
                let e = self.expr(3);
                vec![Stmt::Assign {
                    name: v.name,
                    ty: v.ty,
                    op: None,
                    e,
                }]
            }
        }
    }

    fn check(&mut self) -> Stmt {
        let kind = if self.rng.chance(60) {
            Check::Assert
        } else {
            Check::ReachUnless
        };
        Stmt::Check(kind, self.cond(2))
    }

    fn loop_stmt(&mut self) -> Stmt {
        let var = self.fresh("i");
        let bound = *self.rng.pick(&[0, 1, 2, 3, 3, 4, 4, 5, 6, 8]);
        let kind = self.rng.weighted(&[35, 15, 15, 15, 20]);
        let outer = self.loop_ctx;
        self.scopes.push(Vec::new());
        self.declare(&var, Ty::Int, false);
        self.loop_ctx = match kind {
            0 => LoopCtx::For,
            // A goto loop is no C loop: break and continue belong to the enclosing one.
            3 => outer,
            _ => LoopCtx::Other,
        };
        let body = self.block(4);
        self.loop_ctx = outer;
        self.scopes.pop();
        match kind {
            0 => Stmt::For {
                var,
                bound,
                down: self.rng.chance(25),
                body,
            },
            1 => Stmt::While { var, bound, body },
            2 => Stmt::DoWhile {
                var,
                bound: bound.max(1),
                body,
            },
            3 => {
                let label = self.fresh("L");
                Stmt::GotoLoop {
                    var,
                    label,
                    bound: bound.max(1),
                    body,
                }
            }
            _ => {
                self.bounded = false;
                Stmt::NondetLoop { var, body }
            }
        }
    }

    fn call(&mut self) -> Vec<Stmt> {
        let c = self.rng.pick(&self.callees).clone();
        let mut args = Vec::new();
        let mut pre = Vec::new();
        for (k, t) in c.params.iter().enumerate() {
            if c.recursive && k == 0 {
                // The depth: a small constant, or an input bounded by an assumption (or, for
                // an unbounded program, not at all).
                match self.rng.below(4) {
                    0 | 1 => args.push(Expr::int(self.rng.range(-1, 5))),
                    _ => {
                        let name = self.fresh("v");
                        pre.push(Stmt::Decl {
                            name: name.clone(),
                            ty: Ty::Int,
                            init: None,
                        });
                        self.declare(&name, Ty::Int, true);
                        if self.rng.chance(75) {
                            pre.push(Stmt::Assume(
                                AssumeFn::Verifier,
                                Expr::bin(BOp::Le, Expr::var(&name, Ty::Int), Expr::int(4)),
                            ));
                        } else {
                            self.bounded = false;
                        }
                        args.push(Expr::var(&name, Ty::Int));
                    }
                }
            } else {
                let e = self.expr(2);
                args.push(if e.ty() == *t || self.rng.chance(50) {
                    e
                } else {
                    Expr::Cast(*t, Box::new(e))
                });
            }
        }
        let target = match c.ret {
            Some(rt) if self.rng.chance(80) => match self.writable() {
                Some(v) => Some((v.name, v.ty)),
                None => {
                    let name = self.fresh("v");
                    pre.push(Stmt::Decl {
                        name: name.clone(),
                        ty: rt,
                        init: Some(Expr::int(0)),
                    });
                    self.declare(&name, rt, true);
                    Some((name, rt))
                }
            },
            _ => None,
        };
        pre.push(Stmt::Call {
            target,
            func: c.name,
            args,
        });
        pre
    }

    fn function(&mut self, recursive: bool) -> Func {
        let name = self.fresh("f");
        let ret = if recursive || self.rng.chance(70) {
            Some(self.ty())
        } else {
            None
        };
        let mut params = Vec::new();
        if recursive {
            params.push((self.fresh("n"), Ty::Int));
        }
        for _ in 0..self.rng.below(3) {
            let t = self.ty();
            params.push((self.fresh("p"), t));
        }
        self.scopes = vec![Vec::new()];
        for (k, (n, t)) in params.iter().enumerate() {
            let writable = !(recursive && k == 0);
            self.declare(&n.clone(), *t, writable);
        }
        self.ret = ret;
        self.in_main = false;
        self.budget = 3 + self.rng.below(6) as isize;
        self.loop_ctx = LoopCtx::None;
        let callee = Callee {
            name: name.clone(),
            ret,
            params: params.iter().map(|(_, t)| *t).collect(),
            recursive,
        };
        let mut body = Vec::new();
        if recursive {
            // if (n <= 0) return base; ...; r = f(n - 1, ...); ...; return e(r);
            let n = Expr::var(&params[0].0, Ty::Int);
            let base = self.expr(2);
            body.push(Stmt::If {
                cond: Expr::bin(BOp::Le, n.clone(), Expr::int(0)),
                then: vec![Stmt::Return(Some(base))],
                els: Vec::new(),
            });
            body.extend(self.block(2));
            let rt = ret.unwrap_or(Ty::Int);
            let r = self.fresh("r");
            body.push(Stmt::Decl {
                name: r.clone(),
                ty: rt,
                init: Some(Expr::int(0)),
            });
            let dec = *self.rng.pick(&[1, 1, 2]);
            let mut args = vec![Expr::bin(BOp::Sub, n, Expr::int(dec))];
            for (_, t) in params.iter().skip(1) {
                let e = self.expr(1);
                args.push(Expr::Cast(*t, Box::new(e)));
            }
            body.push(Stmt::Call {
                target: Some((r.clone(), rt)),
                func: name.clone(),
                args,
            });
            self.declare(&r, rt, true);
            body.extend(self.block(2));
            body.push(Stmt::Return(Some(self.expr(2))));
        } else {
            let n = 1 + self.rng.below(4);
            for _ in 0..n {
                if self.budget <= 0 {
                    break;
                }
                let s = self.stmt();
                body.extend(s);
            }
            if let Some(_t) = ret {
                body.push(Stmt::Return(Some(self.expr(2))));
            }
        }
        self.callees.push(callee);
        Func {
            name,
            ret,
            params,
            body,
        }
    }

    fn program(&mut self) -> Program {
        for _ in 0..self.rng.below(3) {
            let ty = self.ty();
            let name = self.fresh("g");
            let init = if self.rng.chance(50) {
                0
            } else {
                self.interesting(ty)
            };
            self.globals.push(Global { name, ty, init });
        }
        let mut funcs = Vec::new();
        let nf = self.rng.weighted(&[35, 35, 20, 10]);
        let rec_at = if self.rng.chance(30) {
            Some(self.rng.below(nf + 1))
        } else {
            None
        };
        for k in 0..=nf {
            if k < nf || rec_at == Some(k) {
                let f = self.function(rec_at == Some(k));
                funcs.push(f);
            }
        }
        // main
        self.scopes = vec![Vec::new()];
        self.ret = None;
        self.in_main = true;
        self.loop_ctx = LoopCtx::None;
        self.depth = 0;
        self.budget = 6 + self.rng.below(14) as isize;
        let mut main = Vec::new();
        for _ in 0..1 + self.rng.below(3) {
            let ty = self.ty();
            let name = self.fresh("v");
            self.declare(&name, ty, true);
            main.push(Stmt::Decl {
                name,
                ty,
                init: None,
            });
        }
        while self.budget > 0 {
            self.maybe_probe(&mut main, 6);
            let s = self.stmt();
            main.extend(s);
        }
        if !self.probe_placed {
            self.probe_placed = true;
            self.probe_vars = self.visible();
            main.push(probe_stmt());
        }
        Program {
            globals: std::mem::take(&mut self.globals),
            funcs,
            main,
            bounded: self.bounded,
        }
    }
}

/// A program without its planted check (the placeholder still in place) and the variables in
/// scope at the placeholder.
fn raw(seed: u64, memory: bool) -> (Program, Vec<Var>, Rng) {
    let mut g = Gen {
        rng: Rng::new(seed),
        next_id: 0,
        globals: Vec::new(),
        callees: Vec::new(),
        bounded: true,
        scopes: Vec::new(),
        ret: None,
        loop_ctx: LoopCtx::None,
        depth: 0,
        budget: 0,
        probe_placed: false,
        probe_vars: Vec::new(),
        in_main: true,
        arith_only: false,
        memory,
    };
    g.arith_only = g.rng.chance(35);
    let p = g.program();
    (p, g.probe_vars, g.rng)
}

/// A program without the planted check (cheap: no concrete runs), for the front-end fuzzer.
pub fn raw_program(seed: u64) -> Program {
    let (mut p, _, _) = raw(seed, false);
    set_probe(&mut p, None);
    p
}

/// Replaces the placeholder by `with` (or removes it).
fn replace_probe(block: &mut Vec<Stmt>, with: &Option<Stmt>) -> bool {
    let probe = probe_stmt();
    if let Some(i) = block.iter().position(|s| *s == probe) {
        match with {
            Some(s) => block[i] = s.clone(),
            None => {
                block.remove(i);
            }
        }
        return true;
    }
    for s in block.iter_mut() {
        for b in s.blocks_mut() {
            if replace_probe(b, with) {
                return true;
            }
        }
    }
    false
}

fn set_probe(p: &mut Program, with: Option<Stmt>) {
    if replace_probe(&mut p.main, &with) {
        return;
    }
    for f in &mut p.funcs {
        if replace_probe(&mut f.body, &with) {
            return;
        }
    }
}

/// The inputs of a run and the values of the variables in scope at the placeholder.
type Sample = (Vec<i128>, Vec<(Var, i128)>);

/// Concrete runs used for planting.
const PROBE_RUNS: u64 = 24;
const PROBE_STEPS: usize = 4000;

/// The program for `seed`, with its planted check.
pub fn generate(seed: u64) -> Generated {
    generate_with(seed, false)
}

/// The program for `seed`, with its planted check; `memory`: with arrays, pointers and
/// structs among the shapes (the programs of the other seeds' campaigns do not change).
pub fn generate_with(seed: u64, memory: bool) -> Generated {
    let (mut program, vars, mut rng) = raw(seed, memory);
    let text = program.render();
    let probe_line = text
        .lines()
        .position(|l| l.trim() == "__VERIFIER_assert(1);")
        .map(|i| i as u32 + 1);
    // Samples: (run, values of the in-scope variables at the placeholder).
    let mut samples: Vec<Sample> = Vec::new();
    if let (Some(line), Ok(parsed)) = (probe_line, parse_program("gen.c", &text)) {
        for r in 0..PROBE_RUNS {
            let mut oracle = RandomOracle::new(Rng::derive(seed, r + 1));
            let run = concrete::run(&parsed.cfa, &mut oracle, PROBE_STEPS);
            let hits: Vec<&concrete::TraceStep> =
                run.trace.iter().filter(|t| t.line == line).collect();
            if hits.is_empty() || matches!(run.outcome, concrete::Outcome::Failed(_)) {
                continue;
            }
            let hit = hits[rng.below(hits.len())];
            let values: Vec<(Var, i128)> = vars
                .iter()
                .filter_map(|v| hit.values.get(&v.name).map(|x| (v.clone(), *x)))
                .collect();
            if !values.is_empty() {
                samples.push((oracle.inputs, values));
            }
        }
    }
    let mut witness = None;
    let kind = if rng.chance(60) {
        Check::Assert
    } else {
        Check::ReachUnless
    };
    let check = if samples.is_empty() {
        None
    } else {
        let (inputs, values) = samples[rng.below(samples.len())].clone();
        let (var, v) = values[rng.below(values.len())].clone();
        let x = Expr::Var(var.name.clone(), var.ty);
        match rng.weighted(&[50, 20, 15, 15]) {
            0 => {
                // Violated by the recorded run (the check is reached with exactly this value
                // unless an earlier visit fails first: the run reaches the error either way).
                witness = Some(inputs);
                Some(Expr::bin(BOp::Ne, x, Expr::Const(v, var.ty)))
            }
            1 => {
                let d = *rng.pick(&[1, -1, 2, 256, 65536]);
                Some(Expr::bin(
                    BOp::Ne,
                    x,
                    Expr::Const(var.ty.wrap(v + d), var.ty),
                ))
            }
            2 => {
                // The largest value seen, as an upper bound.
                let max = samples
                    .iter()
                    .flat_map(|(_, vals)| vals.iter())
                    .filter(|(w, _)| w.name == var.name)
                    .map(|(_, x)| *x)
                    .max()
                    .unwrap_or(v);
                Some(Expr::bin(BOp::Le, x, Expr::Const(max, var.ty)))
            }
            _ => {
                let other = &values[rng.below(values.len())];
                let y = Expr::Var(other.0.name.clone(), other.0.ty);
                let op = *rng.pick(&[BOp::Sub, BOp::Add]);
                let e = Expr::bin(op, x, y);
                let t = e.ty();
                let val = match op {
                    BOp::Sub => t.wrap(v) - t.wrap(other.1),
                    _ => t.wrap(v) + t.wrap(other.1),
                };
                let delta = i128::from(rng.chance(50));
                if delta == 0 {
                    witness = Some(inputs);
                }
                let val = t.wrap(t.wrap(val) + delta);
                Some(Expr::bin(BOp::Ne, e, Expr::Const(val, t)))
            }
        }
    };
    let stmt = check.map(|c| Stmt::Check(kind, c)).or_else(|| {
        // Never reached on a sampled run: a random check on the variables in scope.
        vars.first().map(|v| {
            let t = v.ty;
            let c = random_value(&mut rng, t.int_type());
            Stmt::Check(
                kind,
                Expr::bin(BOp::Ne, Expr::Var(v.name.clone(), t), Expr::Const(c, t)),
            )
        })
    });
    set_probe(&mut program, stmt);
    Generated { program, witness }
}

#[cfg(test)]
mod tests;
