//! Which names' addresses escape, found on the syntax before lowering: a scalar whose address
//! is taken lives in memory (an object with a cell), and an array or struct whose address
//! escapes may be reached through pointers of unknown provenance. Names, not declarations:
//! a name taken anywhere counts for every variable of that name (shadowing only makes the
//! sets larger, which costs precision, never exactness).

use lang_c::ast::{
    BinaryOperator, Declaration, Expression, MemberOperator, Statement, UnaryOperator,
};
use lang_c::span::Node;
use lang_c::visit::Visit;
use std::collections::BTreeSet;

/// The names whose address is taken (`&x`, `&x.f`, `&x[i]`), and the names used as values
/// other than as the base of an index or a member access (an array used so decays to a
/// pointer to its first element, which escapes).
#[derive(Clone, Debug, Default)]
pub struct Escapes {
    pub addressed: BTreeSet<String>,
    pub bare: BTreeSet<String>,
}

impl Escapes {
    /// Whether a scalar named `name` must live in memory.
    pub fn scalar_in_memory(&self, name: &str) -> bool {
        self.addressed.contains(name)
    }

    /// Whether an array named `name` escapes.
    pub fn array_escapes(&self, name: &str) -> bool {
        self.addressed.contains(name) || self.bare.contains(name)
    }

    /// Whether a struct or union named `name` escapes.
    pub fn record_escapes(&self, name: &str) -> bool {
        self.addressed.contains(name)
    }
}

/// The identifier at the base of a chain of index and direct member accesses (`x` of
/// `x[1].f[2]`), if the chain ends in one.
fn chain_base(e: &Expression) -> Option<&str> {
    match e {
        Expression::Identifier(id) => Some(&id.node.name),
        Expression::Member(m) if m.node.operator.node == MemberOperator::Direct => {
            chain_base(&m.node.expression.node)
        }
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
            chain_base(&b.node.lhs.node)
        }
        _ => None,
    }
}

struct Collect<'a> {
    out: &'a mut Escapes,
}

impl<'ast> Visit<'ast> for Collect<'_> {
    fn visit_expression(&mut self, e: &'ast Expression, span: &'ast lang_c::span::Span) {
        match e {
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                if let Some(n) = chain_base(&u.node.operand.node) {
                    self.out.addressed.insert(n.to_string());
                }
            }
            Expression::Identifier(id) => {
                self.out.bare.insert(id.node.name.clone());
                return;
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                // The base of an index is not a bare use; the index is.
                if let Expression::Identifier(_) = &b.node.lhs.node {
                    self.visit_expression(&b.node.rhs.node, &b.node.rhs.span);
                    return;
                }
            }
            Expression::Member(m) if m.node.operator.node == MemberOperator::Direct => {
                if let Expression::Identifier(_) = &m.node.expression.node {
                    return;
                }
            }
            Expression::SizeOfVal(_) => return,
            _ => {}
        }
        lang_c::visit::visit_expression(self, e, span);
    }
}

/// The escapes of a function body, of global initializers, or of anything else visited.
pub fn of_statement(s: &Node<Statement>, out: &mut Escapes) {
    Collect { out }.visit_statement(&s.node, &s.span);
}

pub fn of_declaration(d: &Node<Declaration>, out: &mut Escapes) {
    Collect { out }.visit_declaration(&d.node, &d.span);
}
