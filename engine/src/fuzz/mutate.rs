//! Mutated inputs for the front end: byte flips, token insertions, deletions and
//! duplications, splices of two files, deep nesting, huge literals, stray preprocessor lines,
//! truncations, line shuffles. Each input is a function of `(seed, index)` and the corpus, so
//! any input a campaign reports can be rebuilt from its index.

use crate::fuzz::Rng;

/// Tokens and fragments worth inserting.
const DICT: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ";",
    ",",
    "*",
    "&",
    "&&",
    "||",
    "!",
    "~",
    "?",
    ":",
    "=",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "<<",
    ">>",
    "<<=",
    ">>=",
    "+=",
    "-=",
    "*=",
    "/=",
    "%=",
    "&=",
    "|=",
    "^=",
    "++",
    "--",
    "->",
    ".",
    "...",
    "#",
    "##",
    "\\",
    "'",
    "\"",
    "/*",
    "*/",
    "//",
    "\n",
    "int",
    "unsigned",
    "signed",
    "char",
    "short",
    "long",
    "_Bool",
    "void",
    "const",
    "volatile",
    "static",
    "extern",
    "register",
    "typedef",
    "enum",
    "struct",
    "union",
    "float",
    "double",
    "sizeof",
    "if",
    "else",
    "while",
    "do",
    "for",
    "switch",
    "case",
    "default",
    "break",
    "continue",
    "goto",
    "return",
    "inline",
    "__attribute__((unused))",
    "__extension__",
    "_Static_assert(1, \"\")",
    "main",
    "reach_error()",
    "abort()",
    "exit(0)",
    "__VERIFIER_nondet_int()",
    "__VERIFIER_nondet_uchar()",
    "__VERIFIER_nondet_bool()",
    "__VERIFIER_nondet_float()",
    "__VERIFIER_nondet_pointer()",
    "__VERIFIER_assume(",
    "__VERIFIER_assert(",
    "assume_abort_if_not(",
    "L:",
    "goto L;",
    "x",
    "y",
    "0",
    "1",
    "-1",
    "0x7fffffff",
    "2147483648",
    "4294967295U",
    "-2147483648",
    "0xffffffffffffffffULL",
    "9223372036854775808",
    "1LL << 63",
    "'\\0'",
    "'\\xff'",
    "'ab'",
    "\"str\"",
    "1.5",
    "1e10",
    "0.",
    "07",
    "08",
    "0b101",
    "1u",
    "1ul",
    "1ull",
    "1lu",
    "1LLU",
    "({ 1; })",
    "x ? y : 0",
    "(char)",
    "(unsigned long long)",
    "(_Bool)",
    "int x;",
    "int x = 0;",
    "int f(int a) { return a; }",
    "f(1)",
    "f(1, 2)",
    "void f(void);",
    "int a[3];",
    "a[1]",
    "int *p;",
    "*p",
    "&x",
    "struct s { int a; };",
    "case 1:",
    "default:",
    "switch (x) { case 0: break; }",
    "do { } while (0);",
    "for (;;) {}",
    "while (1) break;",
    "if (x) {} else {}",
    "asm(\"nop\");",
    "__builtin_expect(x, 0)",
    "printf(\"%d\", x)",
    "static int s;",
    "enum { A, B = 1 << 31, C };",
    "typedef unsigned char u8;",
    "u8",
    "\u{0}",
    "\u{7f}",
    "\u{e9}",
    "\u{2225}",
    "\r",
    "\t",
    "\u{c}",
];

const DIRECTIVES: &[&str] = &[
    "#define X 1",
    "#define X",
    "#define F(a) (a + 1)",
    "#define F(a, b) a ## b",
    "#define S(a) #a",
    "#define R R",
    "#define A B\n#define B A",
    "#define E(...) __VA_ARGS__",
    "#define int long",
    "#define main main2",
    "#define if while",
    "#undef X",
    "#if 1",
    "#if 0",
    "#if X",
    "#if defined(X) && X > 2",
    "#if 1 / 0",
    "#if (((((1)))))",
    "#ifdef X",
    "#ifndef X",
    "#elif 1",
    "#else",
    "#endif",
    "#include <stdio.h>",
    "#include <stdlib.h>",
    "#include <assert.h>",
    "#include \"missing.h\"",
    "#include <",
    "#include",
    "#line 4294967295",
    "#line 1 \"other.c\"",
    "#line 0",
    "# 1 \"x.c\" 1 3 4",
    "# 99999999999999999999 \"x.c\"",
    "#pragma once",
    "#pragma GCC diagnostic ignored \"-Wall\"",
    "#error stop",
    "#warning careful",
    "#",
    "##",
    "#define",
    "#define 1 2",
    "#if",
    "#elif",
    "#endif junk",
    "#ifdef",
    "#undef",
    "#define F(a a",
    "#define F(a) F(F(a))",
    "#define LONG 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1",
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Word,
    Space,
    Quote,
    Punct,
}

/// Byte ranges of rough C tokens (words, whitespace runs, quoted literals, single symbols).
fn tokens(s: &[u8]) -> Vec<(usize, usize)> {
    let class = |b: u8| {
        if b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80 {
            Class::Word
        } else if b.is_ascii_whitespace() {
            Class::Space
        } else if b == b'"' || b == b'\'' {
            Class::Quote
        } else {
            Class::Punct
        }
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let c = class(s[i]);
        let mut j = i + 1;
        match c {
            Class::Word | Class::Space => {
                while j < s.len() && class(s[j]) == c {
                    j += 1;
                }
            }
            Class::Quote => {
                while j < s.len() && s[j] != s[i] && s[j] != b'\n' {
                    j += if s[j] == b'\\' { 2 } else { 1 };
                }
                j = (j + 1).min(s.len());
            }
            Class::Punct => {}
        }
        out.push((i, j));
        i = j;
    }
    out
}

fn huge_literal(rng: &mut Rng) -> String {
    let digits = |rng: &mut Rng, n: usize, radix: u8| -> String {
        (0..n)
            .map(|_| {
                let d = rng.below(radix as usize) as u8;
                (if d < 10 { b'0' + d } else { b'a' + d - 10 }) as char
            })
            .collect()
    };
    let cap = if rng.chance(10) { 5000 } else { 60 };
    let n = 1 + rng.below(cap);
    let suffix = *rng.pick(&[
        "", "u", "U", "l", "L", "ll", "LL", "ull", "ULL", "lu", "uu", "q",
    ]);
    match rng.below(7) {
        0 => format!("{}{suffix}", digits(rng, n, 10)),
        1 => format!("0x{}{suffix}", digits(rng, n, 16)),
        2 => format!("0{}{suffix}", digits(rng, n, 8)),
        3 => {
            let k = 1 + rng.below(5);
            format!("'\\{}'", digits(rng, k, 8))
        }
        4 => format!("'\\x{}'", digits(rng, n, 16)),
        5 => format!("{}e{}", digits(rng, n.min(20), 10), digits(rng, 4, 10)),
        _ => format!("-{}{suffix}", digits(rng, n, 10)),
    }
}

fn nesting(rng: &mut Rng) -> (String, String) {
    let n = *rng.pick(&[10, 60, 119, 120, 121, 200, 1000, 20000]);
    match rng.below(6) {
        0 => ("(".repeat(n), ")".repeat(n)),
        1 => ("{".repeat(n), "}".repeat(n)),
        2 => ("if (x) ".repeat(n), String::new()),
        3 => ("-".repeat(n), String::new()),
        4 => ("!~".repeat(n), String::new()),
        _ => ("x ? ".repeat(n), " : 0".repeat(n)),
    }
}

/// Line starts (including 0 and the end).
fn line_starts(s: &[u8]) -> Vec<usize> {
    let mut v = vec![0];
    v.extend(
        s.iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\n')
            .map(|(i, _)| i + 1),
    );
    v
}

fn mutate_once(rng: &mut Rng, s: &mut Vec<u8>, corpus: &[String]) {
    let len = s.len();
    let toks = tokens(s);
    let other = |rng: &mut Rng| -> Vec<u8> {
        if corpus.is_empty() {
            Vec::new()
        } else {
            rng.pick(corpus).as_bytes().to_vec()
        }
    };
    match rng.weighted(&[10, 12, 14, 8, 6, 6, 6, 8, 10, 3, 6, 6, 5]) {
        0 => {
            // byte flip
            if len > 0 {
                let at = rng.below(len);
                s[at] = if rng.chance(50) {
                    s[at] ^ (1 << rng.below(8))
                } else {
                    rng.next_u64() as u8
                };
            }
        }
        1 => {
            // token deletion (a run of 1-3 tokens)
            if !toks.is_empty() {
                let k = rng.below(toks.len());
                let e = (k + 1 + rng.below(3)).min(toks.len());
                s.drain(toks[k].0..toks[e - 1].1);
            }
        }
        2 => {
            // token insertion
            let at = toks.get(rng.below(toks.len() + 1)).map_or(len, |t| t.0);
            let frag: Vec<u8> = if rng.chance(70) || toks.is_empty() {
                rng.pick(DICT).as_bytes().to_vec()
            } else {
                let t = toks[rng.below(toks.len())];
                s[t.0..t.1].to_vec()
            };
            let mut ins = frag;
            if rng.chance(50) {
                ins.insert(0, b' ');
                ins.push(b' ');
            }
            s.splice(at..at, ins);
        }
        3 => {
            // token duplication
            if !toks.is_empty() {
                let t = toks[rng.below(toks.len())];
                let times = *rng.pick(&[1, 2, 3, 10, 100, 1000]);
                let piece = s[t.0..t.1].repeat(times);
                s.splice(t.1..t.1, piece);
            }
        }
        4 => {
            // splice: a prefix of this input and a suffix of another
            let o = other(rng);
            let a = rng.below(len + 1);
            let b = rng.below(o.len() + 1);
            s.truncate(a);
            s.extend_from_slice(&o[b..]);
        }
        5 => {
            // a piece of another input inserted
            let o = other(rng);
            let a = rng.below(o.len() + 1);
            let b = (a + rng.below(400)).min(o.len());
            let at = rng.below(len + 1);
            s.splice(at..at, o[a..b].to_vec());
        }
        6 => {
            // deep nesting around a token
            let (open, close) = nesting(rng);
            if toks.is_empty() {
                s.extend(open.bytes());
                s.extend(close.bytes());
            } else {
                let t = toks[rng.below(toks.len())];
                s.splice(t.1..t.1, close.bytes());
                s.splice(t.0..t.0, open.bytes());
            }
        }
        7 => {
            // a huge or malformed literal, replacing a number when there is one
            let lit = huge_literal(rng);
            let nums: Vec<&(usize, usize)> =
                toks.iter().filter(|t| s[t.0].is_ascii_digit()).collect();
            if let (false, true) = (nums.is_empty(), rng.chance(70)) {
                let t = *nums[rng.below(nums.len())];
                s.splice(t.0..t.1, lit.bytes());
            } else {
                let at = toks.get(rng.below(toks.len() + 1)).map_or(len, |t| t.0);
                s.splice(at..at, lit.bytes());
            }
        }
        8 => stray_directive(rng, s, &toks),
        9 => s.truncate(rng.below(len + 1)),
        10 => line_shuffle(rng, s),
        11 => {
            // an identifier replaced by another identifier of the input
            let words: Vec<&(usize, usize)> = toks
                .iter()
                .filter(|t| s[t.0].is_ascii_alphabetic() || s[t.0] == b'_')
                .collect();
            if words.len() >= 2 {
                let a = *words[rng.below(words.len())];
                let b = *words[rng.below(words.len())];
                let w = s[b.0..b.1].to_vec();
                s.splice(a.0..a.1, w);
            }
        }
        _ => {
            // an operator replaced
            let ops: Vec<usize> = (0..len)
                .filter(|&i| b"<>+-*/%&|^!=~?:".contains(&s[i]))
                .collect();
            if !ops.is_empty() {
                let at = ops[rng.below(ops.len())];
                s[at] = *rng.pick(b"<>+-*/%&|^!=~?:");
            }
        }
    }
}

/// A stray preprocessor line inserted at a line start.
fn stray_directive(rng: &mut Rng, s: &mut Vec<u8>, toks: &[(usize, usize)]) {
    let starts = line_starts(s);
    let at = starts[rng.below(starts.len())].min(s.len());
    let line = if rng.chance(80) {
        rng.pick(DIRECTIVES).to_string()
    } else {
        let t = toks.get(rng.below(toks.len().max(1)));
        let word = t.map_or(String::from("x"), |t| {
            String::from_utf8_lossy(&s[t.0..t.1]).into_owned()
        });
        format!("#define {word} {}", rng.pick(DICT))
    };
    let mut ins = line.into_bytes();
    ins.push(b'\n');
    if at > 0 && s.get(at - 1) != Some(&b'\n') {
        ins.insert(0, b'\n');
    }
    s.splice(at..at, ins);
}

/// A line duplicated, deleted or swapped with another.
fn line_shuffle(rng: &mut Rng, s: &mut Vec<u8>) {
    let len = s.len();
    let starts = line_starts(s);
    let nl = starts.len();
    let a = rng.below(nl);
    let (a0, a1) = (starts[a], starts.get(a + 1).copied().unwrap_or(len));
    match rng.below(3) {
        0 => {
            let piece = s[a0..a1].to_vec();
            s.splice(a0..a0, piece);
        }
        1 => {
            s.drain(a0..a1);
        }
        _ => {
            let b = rng.below(nl);
            let (b0, b1) = (starts[b], starts.get(b + 1).copied().unwrap_or(len));
            if a1 <= b0 {
                let la = s[a0..a1].to_vec();
                let lb = s[b0..b1].to_vec();
                s.splice(b0..b1, la);
                s.splice(a0..a1, lb);
            }
        }
    }
}

/// The `index`-th input of a campaign with `seed`: a corpus file (or, with `generated`, a
/// freshly generated program) with one to four mutations.
pub fn mutant(seed: u64, index: u64, corpus: &[String]) -> String {
    let mut rng = crate::fuzz::Rng::derive(seed, index);
    let base: Vec<u8> = if corpus.is_empty() || rng.chance(25) {
        crate::fuzz::gen::raw_program(rng.next_u64())
            .render()
            .into_bytes()
    } else {
        rng.pick(corpus).as_bytes().to_vec()
    };
    let mut s = base;
    let rounds = 1 + rng.weighted(&[50, 25, 15, 10]);
    for _ in 0..rounds {
        mutate_once(&mut rng, &mut s, corpus);
    }
    // The front end takes text: invalid UTF-8 becomes replacement characters, as an editor
    // would deliver it.
    String::from_utf8_lossy(&s).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutants_are_deterministic_and_varied() {
        let corpus = vec![
            "int main(void) { int x = 1; return x + 2; }\n".to_string(),
            "#include <stdio.h>\nint f(int a) { return a * 2; }\n".to_string(),
        ];
        let a: Vec<String> = (0..200).map(|i| mutant(5, i, &corpus)).collect();
        let b: Vec<String> = (0..200).map(|i| mutant(5, i, &corpus)).collect();
        assert_eq!(a, b);
        let distinct: std::collections::BTreeSet<&String> = a.iter().collect();
        assert!(distinct.len() > 150);
    }

    #[test]
    fn tokens_cover_the_input() {
        let s = b"int x = 'a' + \"s\\\"t\";  // c\n";
        let t = tokens(s);
        assert_eq!(t.first().unwrap().0, 0);
        assert_eq!(t.last().unwrap().1, s.len());
        assert!(t.windows(2).all(|w| w[0].1 == w[1].0));
    }
}
