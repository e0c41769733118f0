//! The verification harness and the library functions the front end models itself.

use crate::ir::IntType;

/// Which program points are the errors to prove unreachable. SV-COMP defines two properties
/// over the same C; the playground's default also counts failed assertions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Spec {
    /// The playground's default: a call of `reach_error()` (or `__VERIFIER_error()`), a failed
    /// `assert`/`__VERIFIER_assert` without a body in the program, and a call of the
    /// assertion-failure functions (`__assert_fail`, ...).
    #[default]
    Errors,
    /// SV-COMP's `unreach-call` (`LTL(G ! call(reach_error()))`): only a call of
    /// `reach_error()` (or `__VERIFIER_error()`). `__assert_fail` and a failed `assert` end the
    /// path like `abort()`; `__VERIFIER_assert` without a body is an external function.
    UnreachCall,
    /// The older `unreach-label` (`LTL(G ! label(ERROR))`): a statement labelled `ERROR:`.
    /// `reach_error()` is then an ordinary function (its body, or none), `__VERIFIER_error()`
    /// and the assertion-failure functions end the path like `abort()`.
    UnreachLabel,
}

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
    /// `__VERIFIER_nondet_pointer()`: any address.
    NondetPointer,
    /// `malloc(n)`: a new object (assumed to succeed, SV-COMP's convention for
    /// unreach-call) with any contents.
    Malloc,
    /// `calloc(n, size)`: a new object filled with zeros.
    Calloc,
    /// `alloca(n)`: a new object that dies at the function's exit.
    Alloca,
    /// `free(p)`.
    Free,
    /// `memset(p, c, n)`.
    Memset,
    /// `memcpy(d, s, n)`, `memmove(d, s, n)`.
    Memcpy,
    /// `__builtin_expect(e, c)`: the value of `e`.
    Expect,
    /// A library function whose behaviour is outside the subset (threads, `setjmp`): a
    /// diagnostic naming the construct, never a nondeterministic stand-in.
    Unsupported(&'static str),
}

/// The built-in meaning of a call to `name`. `defined` says whether the program defines the
/// function itself; a definition takes precedence except for `reach_error`, whose every call
/// is the error regardless of its body (SV-COMP's unreach-call property).
pub fn builtin(name: &str, defined: bool, spec: Spec) -> Option<Builtin> {
    match (name, spec) {
        ("reach_error", Spec::UnreachLabel) => {}
        ("__VERIFIER_error", Spec::UnreachLabel) => return Some(Builtin::Abort),
        ("reach_error" | "__VERIFIER_error", _) => return Some(Builtin::ReachError),
        _ => {}
    }
    if defined {
        return None;
    }
    if let Some(suffix) = name.strip_prefix("__VERIFIER_nondet_") {
        if suffix == "pointer" {
            return Some(Builtin::NondetPointer);
        }
        return Some(nondet_type(suffix).map_or(Builtin::NondetUnsupported, Builtin::Nondet));
    }
    Some(match name {
        "__VERIFIER_assume" | "assume_abort_if_not" => Builtin::Assume,
        "__VERIFIER_assert" if spec != Spec::Errors => return None,
        "__VERIFIER_assert" | "assert" if spec == Spec::Errors => Builtin::Assert,
        // Under SV-COMP's properties a failed assert() calls __assert_fail, which aborts.
        "assert" => Builtin::Assume,
        "__assert_fail" | "__assert_perror_fail" | "__assert" | "__assert_rtn" => {
            if spec == Spec::Errors {
                Builtin::ReachError
            } else {
                Builtin::Abort
            }
        }
        "abort" | "exit" | "_Exit" | "__builtin_abort" => Builtin::Abort,
        "printf" | "puts" | "putchar" | "fflush" => Builtin::Output,
        "malloc" | "__builtin_malloc" => Builtin::Malloc,
        "calloc" | "__builtin_calloc" => Builtin::Calloc,
        "alloca" | "__builtin_alloca" => Builtin::Alloca,
        "free" | "__builtin_free" => Builtin::Free,
        "memset" | "__builtin_memset" => Builtin::Memset,
        "memcpy" | "memmove" | "__builtin_memcpy" => Builtin::Memcpy,
        "__builtin_expect" => Builtin::Expect,
        "setjmp" | "_setjmp" | "sigsetjmp" | "__sigsetjmp" | "longjmp" | "_longjmp"
        | "siglongjmp" => Builtin::Unsupported("setjmp and longjmp"),
        "pthread_create" | "pthread_join" | "pthread_exit" | "thrd_create" | "thrd_join"
        | "fork" => Builtin::Unsupported("threads and processes"),
        "pthread_mutex_lock" | "pthread_mutex_unlock" | "pthread_mutex_init" => {
            Builtin::Unsupported("threads and processes")
        }
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
