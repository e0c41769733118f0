#!/usr/bin/env python3
"""File-level import graph of a Rust crate and its circles (strongly connected components).

An edge runs from a file to every file whose module a `crate::…`, `super::…` or `self::…` path
in it names (in `use` items and in paths written inline, and `use child::…` in a module
with children), outside `#[cfg(test)]` modules; a folder's re-exports of its own children
(`pub use child::Item;` in its `mod.rs`) are its interface, not imports. A path resolves to the longest
prefix that is a module with a file of its own, so `crate::cfa::Cfa` names `cfa/mod.rs` and
`crate::cfa::export::dot` names `cfa/export.rs`. Inline modules (`mod tests { … }`) belong to
their file, and `super` inside them is counted from the inline module.

For `engine/src` it also checks the layers: each top-level module (folder or file) may
import only the ones before it in `ENGINE_LAYERS` (the order ARCHITECTURE.md describes). For
`web/src` it checks the page's layers (`WEB_LAYERS`) and that the page uses only the engine's
public boundary (`PAGE_BOUNDARY`).

Usage: scripts/import-cycles.py CRATE_SRC [CRATE_SRC ...] [--max N]
Prints each circle and each import against the layers or the boundary, and exits with 1 when
a crate has more than N circles (default 0) or any such import.
"""
import os
import re
import sys


# The engine's layers, bottom first.
ENGINE_LAYERS = [
    'text', 'memo', 'diag', 'events', 'verdict', 'ir', 'cfa', 'frontend', 'formula', 'smt',
    'invariants', 'cpa', 'concrete', 'domains', 'proof', 'refinement', 'algorithm', 'witness',
    'session', 'lesson', 'fuzz', 'lib',
]

# The page's layers, bottom first (web/src/lib.rs describes them).
WEB_LAYERS = [
    'protocol', 'present', 'worker', 'state', 'explain', 'engine', 'browser', 'components', 'lib',
]

# What the page may name of `cpa_engine` (lib.rs documents the boundary).
PAGE_BOUNDARY = {
    'config', 'session', 'view', 'events', 'verdict', 'report', 'witness', 'diag', 'smt', 'text',
    'parse_program', 'Cfa', 'lesson',
}


def layer_violations(src, mods, layers, what):
    out = []
    order = {name: i for i, name in enumerate(layers)}
    top = lambda p: os.path.relpath(p, src).split(os.sep)[0].removesuffix('.rs')
    for mod, path in sorted(mods.items(), key=lambda x: x[1]):
        a = top(path)
        if a not in order:
            out.append(f'{os.path.relpath(path, src)}: the layer {a} is not in {what}')
            continue
        for q in sorted(refs(path, mod, mods)):
            b = top(q)
            if b != a and order.get(b, -1) > order[a]:
                out.append(f'{os.path.relpath(path, src)} imports {os.path.relpath(q, src)}: '
                           f'{a} is below {b}')
    return out


def boundary_violations(src):
    out = []
    for dirpath, _, files in os.walk(src):
        for f in sorted(files):
            if not f.endswith('.rs'):
                continue
            path = os.path.join(dirpath, f)
            text = strip(open(path, encoding='utf-8').read())
            for m in re.finditer(r'\bcpa_engine\s*::\s*(\{[^;]*\}|[A-Za-z_]\w*)', text):
                for p in expand('x::' + m.group(1)):
                    name = p.split('::')[1] if '::' in p else p
                    if name and name not in PAGE_BOUNDARY:
                        out.append(f'{os.path.relpath(path, src)}: cpa_engine::{name} is not '
                                   'part of the engine\'s public boundary')
    return out


def modules(src):
    """Module path (tuple) -> file, for every file of the crate."""
    mods = {}
    for dirpath, _, files in os.walk(src):
        for f in files:
            if not f.endswith('.rs'):
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), src)
            parts = rel[:-3].split(os.sep)
            if parts[-1] in ('mod', 'lib', 'main'):
                parts = parts[:-1]
            if len(parts) >= 1 and parts[0] == 'bin':
                continue
            mods[tuple(parts)] = os.path.join(src, rel)
    # Files of test modules (`#[cfg(test)] mod tests;`) are tests, not part of the graph.
    for mod, path in list(mods.items()):
        text = open(path, encoding='utf-8').read()
        for m in re.finditer(r'#\[cfg\(test\)\]\s*(?:pub(?:\([a-z]+\))?\s+)?mod\s+(\w+)\s*;', text):
            mods.pop(mod + (m.group(1),), None)
    return mods


def strip(text):
    text = re.sub(r'//[^\n]*', '', text)
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    return text


def without_tests(text):
    """The text without `#[cfg(test)] mod NAME { … }` blocks: a unit test may use the layers
    above its file (to set up a real run) without making the file depend on them."""
    out, i = '', 0
    pat = re.compile(r'#\[cfg\(test\)\]\s*(?:pub(?:\([a-z]+\))?\s+)?mod\s+\w+\s*\{')
    while True:
        m = pat.search(text, i)
        if not m:
            return out + text[i:]
        out += text[i:m.start()]
        j, depth = m.end(), 1
        while depth and j < len(text):
            depth += text[j] == '{'
            depth -= text[j] == '}'
            j += 1
        i = j


def expand(tree):
    """`a::{b, c::{d, e}}` -> [a::b, a::c::d, a::c::e]."""
    tree = tree.strip()
    i = tree.find('{')
    if i < 0:
        return [tree]
    head = tree[:i]
    body = tree[i + 1:tree.rfind('}')]
    parts, depth, cur = [], 0, ''
    for ch in body:
        if ch == ',' and depth == 0:
            parts.append(cur)
            cur = ''
            continue
        depth += ch == '{'
        depth -= ch == '}'
        cur += ch
    parts.append(cur)
    out = []
    for p in parts:
        if p.strip():
            out += [head + q for q in expand(p)]
    return out


PATH = re.compile(r'\b((?:crate|super|self)(?:\s*::\s*(?:\{[^;]*\}|\*|[A-Za-z_][A-Za-z0-9_]*))+)')


def refs(path, mod, mods):
    """The files named by the paths of one file, with `mod` its module path."""
    text = without_tests(strip(open(path, encoding='utf-8').read()))
    # A module's re-exports of its own children (`pub use child::Item;`, the facade of a
    # folder) are part of its interface, not imports; any other `use child::…` in a module
    # with child modules is `use self::child::…`.
    def child(name):
        return name not in ('crate', 'self', 'super') and tuple(mod) + (name,) in mods
    text = re.sub(r'\bpub(?:\([a-z]+\))?\s+use\s+(?:self\s*::\s*)?([A-Za-z_]\w*)\s*::[^;]*;',
                  lambda m: '' if child(m.group(1)) else m.group(0), text)
    text = re.sub(r'\buse\s+([A-Za-z_]\w*)\s*::',
                  lambda m: f'use self::{m.group(1)}::' if child(m.group(1)) else m.group(0), text)
    out = set()
    # Inline module nesting, to resolve `super`.
    stack = []  # (name, depth at which it closes)
    depth = 0
    pos = 0
    tokens = re.finditer(r'\bmod\s+([A-Za-z_]\w*)\s*\{|\{|\}|' + PATH.pattern, text)
    for m in tokens:
        s = m.group(0)
        if s.startswith('mod'):
            depth += 1
            stack.append((m.group(1), depth))
            continue
        if s == '{':
            depth += 1
            continue
        if s == '}':
            if stack and stack[-1][1] == depth:
                stack.pop()
            depth -= 1
            continue
        here = list(mod) + [n for n, _ in stack]
        for p in expand(re.sub(r'\s+', '', s)):
            segs = [x for x in p.split('::') if x]
            if not segs:
                continue
            if segs[0] == 'crate':
                base, segs = [], segs[1:]
            else:
                base = list(here)
                while segs and segs[0] in ('self', 'super'):
                    if segs[0] == 'super':
                        if not base:
                            break
                        base.pop()
                    segs = segs[1:]
            full = base + [x for x in segs if x not in ('*',) and not x.startswith('{')]
            for k in range(len(full), -1, -1):
                key = tuple(full[:k])
                if key in mods:
                    out.add(mods[key])
                    break
        pos = m.end()
    return out


def sccs(graph):
    index, low, onstack, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        onstack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in onstack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                onstack.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(comp)

    sys.setrecursionlimit(100000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def main():
    args = sys.argv[1:]
    limit = 0
    if '--max' in args:
        i = args.index('--max')
        limit = int(args[i + 1])
        del args[i:i + 2]
    bad = False
    for src in args:
        mods = modules(src)
        graph = {}
        for mod, path in mods.items():
            graph[path] = sorted(refs(path, mod, mods) - {path})
        circles = [sorted(c) for c in sccs(graph) if len(c) > 1]
        circles.sort(key=lambda c: -len(c))
        largest = max((len(c) for c in circles), default=0)
        print(f'{src}: {len(mods)} files, {len(circles)} import circles, largest {largest}')
        for c in circles:
            print('  ' + ' <-> '.join(os.path.relpath(p, src) for p in c))
        if len(circles) > limit:
            bad = True
        name = os.path.normpath(src)
        extra = []
        if name.endswith(os.path.join('engine', 'src')):
            extra = layer_violations(src, mods, ENGINE_LAYERS, 'ENGINE_LAYERS')
        elif name.endswith(os.path.join('web', 'src')):
            extra = boundary_violations(src) + layer_violations(src, mods, WEB_LAYERS, 'WEB_LAYERS')
        for v in extra:
            print('  ' + v)
        bad |= bool(extra)
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
