//! The standard headers the built-in preprocessor knows: the declarations and the macros
//! the front end needs from each (the browser has no system headers).

/// Standard headers the playground knows; the value is the declarations (on one line) that
/// the front end needs from it. Macros of these headers are in [`header_macros`].
pub(crate) fn header_prelude(name: &str) -> Option<&'static str> {
    Some(match name {
        "stdint.h" => concat!(
            "typedef signed char int8_t; typedef unsigned char uint8_t; ",
            "typedef short int16_t; typedef unsigned short uint16_t; ",
            "typedef int int32_t; typedef unsigned int uint32_t; ",
            "typedef long long int64_t; typedef unsigned long long uint64_t; ",
            "typedef int intptr_t; typedef unsigned int uintptr_t; ",
            "typedef long long intmax_t; typedef unsigned long long uintmax_t;"
        ),
        "stddef.h" | "stdlib.h" | "stdio.h" | "string.h" => "typedef unsigned int size_t;",
        // The types only: calls of their functions get a diagnostic (see `builtins`).
        "setjmp.h" => "typedef int jmp_buf[16]; typedef int sigjmp_buf[16];",
        "pthread.h" | "threads.h" => concat!(
            "typedef unsigned int pthread_t; typedef int pthread_attr_t; ",
            "typedef int pthread_mutex_t; typedef int pthread_mutexattr_t; ",
            "typedef unsigned int thrd_t;"
        ),
        "assert.h" | "limits.h" | "stdbool.h" | "math.h" | "ctype.h" | "errno.h" | "stdarg.h"
        | "time.h" | "unistd.h" | "inttypes.h" | "float.h" | "signal.h" => "",
        _ => return None,
    })
}

pub(crate) fn header_macros(name: &str) -> &'static [(&'static str, &'static str)] {
    match name {
        "limits.h" => &[
            ("CHAR_BIT", "8"),
            ("SCHAR_MIN", "(-128)"),
            ("SCHAR_MAX", "127"),
            ("UCHAR_MAX", "255"),
            ("CHAR_MIN", "(-128)"),
            ("CHAR_MAX", "127"),
            ("SHRT_MIN", "(-32768)"),
            ("SHRT_MAX", "32767"),
            ("USHRT_MAX", "65535"),
            ("INT_MIN", "(-2147483647-1)"),
            ("INT_MAX", "2147483647"),
            ("UINT_MAX", "4294967295U"),
            ("LONG_MIN", "(-2147483647L-1L)"),
            ("LONG_MAX", "2147483647L"),
            ("ULONG_MAX", "4294967295UL"),
            ("LLONG_MIN", "(-9223372036854775807LL-1LL)"),
            ("LLONG_MAX", "9223372036854775807LL"),
            ("ULLONG_MAX", "18446744073709551615ULL"),
        ],
        "stdbool.h" => &[("bool", "_Bool"), ("true", "1"), ("false", "0")],
        "stdlib.h" => &[("EXIT_SUCCESS", "0"), ("EXIT_FAILURE", "1"), ("NULL", "0")],
        "stddef.h" | "stdio.h" | "string.h" => &[("NULL", "0")],
        "stdint.h" => &[
            ("INT8_MIN", "(-128)"),
            ("INT8_MAX", "127"),
            ("UINT8_MAX", "255"),
            ("INT16_MIN", "(-32768)"),
            ("INT16_MAX", "32767"),
            ("UINT16_MAX", "65535"),
            ("INT32_MIN", "(-2147483647-1)"),
            ("INT32_MAX", "2147483647"),
            ("UINT32_MAX", "4294967295U"),
            ("INT64_MIN", "(-9223372036854775807LL-1LL)"),
            ("INT64_MAX", "9223372036854775807LL"),
            ("UINT64_MAX", "18446744073709551615ULL"),
        ],
        _ => &[],
    }
}
