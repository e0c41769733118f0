//! The verification harness and the library functions the front end models itself.

use crate::ir::IntType;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// `__VERIFIER_nondet_T()`: any value of T.
    Nondet(IntType),
    /// A nondet function of a type outside the subset (pointer, float).
    NondetUnsupported,
    /// `__VERIFIER_assume(c)`, `assume_abort_if_not(c)`: paths where `c` is 0 end.
    Assume,
    /// `__VERIFIER_assert(c)`, `assert(c)`: `c == 0` reaches the error location.
    Assert,
    /// `reach_error()` and the assertion-failure functions: the error location.
    ReachError,
    /// `abort()`, `exit(n)`: the path ends without error.
    Abort,
    /// Output functions (`printf`, ...): no effect on the program's variables; the `int` they
    /// return is arbitrary.
    Output,
}

/// The built-in meaning of a call to `name`. `defined` says whether the program defines the
/// function itself; a definition takes precedence except for `reach_error`, whose every call
/// is the error regardless of its body (SV-COMP's unreach-call property).
pub fn builtin(name: &str, defined: bool) -> Option<Builtin> {
    if name == "reach_error" || name == "__VERIFIER_error" {
        return Some(Builtin::ReachError);
    }
    if defined {
        return None;
    }
    if let Some(suffix) = name.strip_prefix("__VERIFIER_nondet_") {
        return Some(nondet_type(suffix).map_or(Builtin::NondetUnsupported, Builtin::Nondet));
    }
    Some(match name {
        "__VERIFIER_assume" | "assume_abort_if_not" => Builtin::Assume,
        "__VERIFIER_assert" | "assert" => Builtin::Assert,
        "__assert_fail" | "__assert_perror_fail" | "__assert" | "__assert_rtn" => {
            Builtin::ReachError
        }
        "abort" | "exit" | "_Exit" | "__builtin_abort" => Builtin::Abort,
        "printf" | "puts" | "putchar" | "fflush" => Builtin::Output,
        _ => return None,
    })
}

/// The type of `__VERIFIER_nondet_<suffix>()` by SV-COMP's naming convention.
pub fn nondet_type(suffix: &str) -> Option<IntType> {
    Some(match suffix {
        "bool" | "_Bool" => IntType::BOOL,
        "char" | "s8" => IntType::CHAR,
        "uchar" | "unsigned_char" | "u8" => IntType::UCHAR,
        "short" | "s16" => IntType::SHORT,
        "ushort" | "unsigned_short" | "u16" => IntType::USHORT,
        "int" | "s32" => IntType::INT,
        "uint" | "unsigned" | "unsigned_int" | "u32" | "size_t" => IntType::UINT,
        "long" => IntType::LONG,
        "ulong" | "unsigned_long" => IntType::ULONG,
        "longlong" | "long_long" | "loff_t" | "s64" => IntType::LLONG,
        "ulonglong" | "unsigned_long_long" | "u64" => IntType::ULLONG,
        _ => return None,
    })
}
