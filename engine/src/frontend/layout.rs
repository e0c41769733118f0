//! The memory layout of C types in ILP32 as gcc `-m32` lays them out: sizes and alignments
//! (`char` 1, `short` 2, `int`, `long` and pointers 4, `long long` 8 with alignment 4 inside
//! structs), struct fields at increasing aligned offsets, union members at offset 0, and the
//! *cells* of a type: its scalars with their offsets, the unit in which the memory model keeps
//! values (one program variable per cell).

use crate::frontend::types::{CType, RecordId, POINTER_INT};
use crate::ir::{IntKind, IntType};

/// A field of a struct or a member of a union.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// `None` for an unnamed member (a nested anonymous struct or union).
    pub name: Option<String>,
    pub ty: CType,
    pub offset: u64,
}

/// A struct or union definition.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The tag, if any (`struct point`).
    pub tag: Option<String>,
    pub union: bool,
    pub fields: Vec<Field>,
    /// Declared but not (yet) defined.
    pub complete: bool,
    pub size: u64,
    pub align: u64,
    /// Why the record is outside the subset (a bit-field, a member of an unsupported type,
    /// a union of members with different layouts): every use of it reports this.
    pub unsupported: Option<String>,
}

impl Record {
    /// `struct point`, `union u`, or `struct <anonymous>`.
    pub fn describe(&self) -> String {
        let kw = if self.union { "union" } else { "struct" };
        match &self.tag {
            Some(t) => format!("{kw} {t}"),
            None => format!("{kw} <anonymous>"),
        }
    }
}

/// One scalar of an object: its offset, its integer type and whether it holds an address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    pub offset: u64,
    pub ty: IntType,
    pub pointer: bool,
    /// How the cell is reached from the object: `[2].x`, `.next` (appended to its name).
    pub path: String,
    /// The structs and unions the cell is a member of, each with the cell's offset in it
    /// (innermost last): an access `p->f` may reach the cell only if it is `f` of a record
    /// of `p`'s type.
    pub records: Vec<(RecordId, u64)>,
}

/// The structs and unions of a translation unit.
#[derive(Clone, Debug, Default)]
pub struct Records {
    pub all: Vec<Record>,
}

/// Largest object the memory model lays out cell by cell.
pub const MAX_CELLS: u64 = 4096;

impl Records {
    pub fn get(&self, id: RecordId) -> &Record {
        &self.all[id.0 as usize]
    }

    /// The size of a type in bytes (`None` for void, functions, incomplete types).
    pub fn size_of(&self, t: &CType) -> Option<u64> {
        match t {
            CType::Int(i) => Some(int_size(*i)),
            CType::Pointer(_) => Some(4),
            CType::Array(e, Some(n)) => self.size_of(e)?.checked_mul(*n),
            CType::Record(r) => {
                let r = self.get(*r);
                r.complete.then_some(r.size)
            }
            CType::Array(_, None) | CType::Void | CType::Function(_) | CType::Unsupported(_) => {
                None
            }
        }
    }

    /// The alignment of a type inside a struct.
    pub fn align_of(&self, t: &CType) -> u64 {
        match t {
            CType::Int(i) => int_size(*i).min(4),
            CType::Pointer(_) => 4,
            CType::Array(e, _) => self.align_of(e),
            CType::Record(r) => self.get(*r).align,
            _ => 1,
        }
    }

    /// Lays out a record from its fields (in declaration order): struct fields at aligned
    /// increasing offsets, union members at 0; the size is rounded to the alignment.
    pub fn define(
        &mut self,
        id: RecordId,
        fields: Vec<(Option<String>, CType)>,
    ) -> Result<(), String> {
        let union = self.get(id).union;
        let mut out = Vec::new();
        let mut offset = 0u64;
        let mut size = 0u64;
        let mut align = 1u64;
        for (name, ty) in fields {
            let Some(s) = self.size_of(&ty) else {
                return Err(format!(
                    "the member {} has an incomplete type ({})",
                    name.as_deref().unwrap_or("<anonymous>"),
                    ty.describe()
                ));
            };
            let a = self.align_of(&ty);
            align = align.max(a);
            if union {
                out.push(Field {
                    name,
                    ty,
                    offset: 0,
                });
                size = size.max(s);
            } else {
                offset = offset.div_ceil(a) * a;
                out.push(Field { name, ty, offset });
                offset += s;
                size = offset;
            }
        }
        let size = size.div_ceil(align) * align;
        let r = &mut self.all[id.0 as usize];
        r.fields = out;
        r.size = size;
        r.align = align;
        r.complete = true;
        Ok(())
    }

    /// The cells of a type, in address order, at most [`MAX_CELLS`] (`None`: too many, or a
    /// type without a layout).
    pub fn cells(&self, t: &CType) -> Option<Vec<Cell>> {
        let mut out = Vec::new();
        self.collect(t, 0, String::new(), &[], &mut out)?;
        Some(out)
    }

    fn collect(
        &self,
        t: &CType,
        base: u64,
        path: String,
        records: &[(RecordId, u64)],
        out: &mut Vec<Cell>,
    ) -> Option<()> {
        let within = |records: &[(RecordId, u64)]| -> Vec<(RecordId, u64)> {
            records
                .iter()
                .map(|(r, start)| (*r, base - start))
                .collect()
        };
        match t {
            CType::Int(i) => out.push(Cell {
                offset: base,
                ty: *i,
                pointer: false,
                path,
                records: within(records),
            }),
            CType::Pointer(_) => out.push(Cell {
                offset: base,
                ty: POINTER_INT,
                pointer: true,
                path,
                records: within(records),
            }),
            CType::Array(e, Some(n)) => {
                let s = self.size_of(e)?;
                for k in 0..*n {
                    if out.len() as u64 > MAX_CELLS {
                        return None;
                    }
                    self.collect(e, base + k * s, format!("{path}[{k}]"), records, out)?;
                }
            }
            CType::Record(id) => {
                let r = self.get(*id);
                // Enclosing records by their start address (made relative per cell).
                let mut inner = records.to_vec();
                inner.push((*id, base));
                if !r.complete {
                    return None;
                }
                // A union's members share its cells: those of its first member (the others
                // have the same layout, `union_consistent`).
                let fields = if r.union {
                    &r.fields[..r.fields.len().min(1)]
                } else {
                    &r.fields[..]
                };
                for f in fields {
                    let p = match &f.name {
                        Some(n) => format!("{path}.{n}"),
                        None => path.clone(),
                    };
                    self.collect(&f.ty, base + f.offset, p, &inner, out)?;
                }
            }
            _ => return None,
        }
        (out.len() as u64 <= MAX_CELLS).then_some(())
    }

    /// Whether every member of a union has the cells of its first member (offsets and sizes):
    /// then the members share cells and reading any member after writing another is exact.
    /// Type punning between members of different layouts is not modelled.
    pub fn union_consistent(&self, id: RecordId) -> bool {
        let r = self.get(id);
        let shape = |t: &CType| {
            self.cells(t).map(|cs| {
                cs.iter()
                    .map(|c| (c.offset, int_size(c.ty)))
                    .collect::<Vec<_>>()
            })
        };
        let mut shapes = r.fields.iter().map(|f| shape(&f.ty));
        let Some(first) = shapes.next() else {
            return true;
        };
        first.is_some() && shapes.all(|s| s == first)
    }

    /// The field named `name` of a record, searched through unnamed members: its type and
    /// offset from the record's start.
    pub fn field(&self, id: RecordId, name: &str) -> Option<(CType, u64)> {
        let r = self.get(id);
        for f in &r.fields {
            match &f.name {
                Some(n) if n == name => return Some((f.ty.clone(), f.offset)),
                None => {
                    if let CType::Record(inner) = &f.ty {
                        if let Some((t, o)) = self.field(*inner, name) {
                            return Some((t, f.offset + o));
                        }
                    }
                }
                _ => {}
            }
        }
        None
    }
}

/// The size of an integer type in bytes.
pub fn int_size(t: IntType) -> u64 {
    match t.kind {
        IntKind::Bool | IntKind::Char => 1,
        IntKind::Short => 2,
        IntKind::Int | IntKind::Long => 4,
        IntKind::LongLong => 8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(rs: &mut Records, union: bool, fields: Vec<(Option<String>, CType)>) -> RecordId {
        let id = RecordId(rs.all.len() as u32);
        rs.all.push(Record {
            unsupported: None,
            tag: None,
            union,
            fields: Vec::new(),
            complete: false,
            size: 0,
            align: 1,
        });
        rs.define(id, fields).unwrap();
        id
    }

    #[test]
    fn layouts_follow_gcc_m32() {
        let mut rs = Records::default();
        let char_int = record(
            &mut rs,
            false,
            vec![
                (Some("c".into()), CType::Int(IntType::CHAR)),
                (Some("x".into()), CType::Int(IntType::INT)),
                (Some("s".into()), CType::Int(IntType::SHORT)),
            ],
        );
        // c at 0, x at 4, s at 8, size 12 (aligned to 4).
        let r = rs.get(char_int);
        assert_eq!(
            r.fields.iter().map(|f| f.offset).collect::<Vec<_>>(),
            vec![0, 4, 8]
        );
        assert_eq!((r.size, r.align), (12, 4));
        // long long is aligned to 4 inside a struct on i386.
        let ll = record(
            &mut rs,
            false,
            vec![
                (Some("c".into()), CType::Int(IntType::CHAR)),
                (Some("v".into()), CType::Int(IntType::LLONG)),
            ],
        );
        assert_eq!(rs.get(ll).fields[1].offset, 4);
        assert_eq!(rs.get(ll).size, 12);
        let u = record(
            &mut rs,
            true,
            vec![
                (Some("c".into()), CType::Int(IntType::CHAR)),
                (Some("i".into()), CType::Int(IntType::INT)),
            ],
        );
        assert_eq!(rs.get(u).size, 4);
        let arr = CType::Array(Box::new(CType::Record(char_int)), Some(3));
        assert_eq!(rs.size_of(&arr), Some(36));
        assert!(!rs.union_consistent(u), "char and int members");
        let cells = rs.cells(&arr).unwrap();
        assert_eq!(cells.len(), 9);
        assert_eq!(cells[4].path, "[1].x");
        assert_eq!(cells[4].offset, 16);
        let p = CType::Pointer(Box::new(CType::Int(IntType::INT)));
        assert!(rs.cells(&p).unwrap()[0].pointer);
        let big = CType::Array(Box::new(CType::Int(IntType::INT)), Some(100_000));
        assert_eq!(rs.size_of(&big), Some(400_000));
        assert!(rs.cells(&big).is_none(), "over the cell limit");
    }
}
