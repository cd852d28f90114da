#!/usr/bin/env python3
"""Checks the shape of the workspace's code: no cycle between modules, at any
depth, in any crate; and, in the arena library, every top-level module in a
layer that depends only on itself and the layers below (docs/architecture.md).

usage: tools/layers.py [WORKSPACE_DIR]   exit 0 if the shape holds; else each
problem on one line and exit 1.

An edge a -> b: code of module a names b by a path (`crate::b`, `super::b`,
`use crate::{b, ...}`), comments included, since a doc link ties them too.
Test code is left out (a `#[cfg(test)] mod x;` line, and a file from its first
inline `#[cfg(test)]` on): tests may use anything.
Between modules of the same parent, edges form the graph that must be acyclic.
"""
import json
import os
import re
import subprocess
import sys

from problems import report

# The arena library's layers, lowest first. A module may use modules of its
# own layer (without a cycle) and of the layers before it.
ARENA_LAYERS = [
    ("platform", ["platform"]),
    ("plan", ["config", "format", "schedule", "shard", "series", "stats", "standings", "tune"]),
    ("formats", ["output", "rate", "replay", "shards", "matchup"]),
    ("execution", ["affinity", "cgroup", "sandbox", "guard", "bot", "referee", "runner"]),
    ("reporting", ["report", "html", "progress", "reporter", "live", "tunechart"]),
    ("commands", ["commands", "check", "play"]),
]

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def modules(src_dir, root_file):
    """Every module file of a crate: {module path tuple: file}."""
    found = {}

    def visit(path, file):
        found[path] = file
        text = strip_tests(read(file))
        here = os.path.dirname(file)
        stem = os.path.splitext(os.path.basename(file))[0]
        base = here if stem in ("lib", "main", "mod") or not path else os.path.join(here, stem)
        for name in re.findall(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(" + IDENT + r")\s*;", text, re.M):
            for candidate in (os.path.join(base, name + ".rs"), os.path.join(base, name, "mod.rs")):
                if os.path.exists(candidate):
                    visit(path + (name,), candidate)
                    break

    visit((), root_file)
    return found


def read(file):
    with open(file, encoding="utf-8", errors="replace") as f:
        return f.read()


def strip_tests(text):
    """`text` without its test code: a `#[cfg(test)] mod NAME;` line goes
    (its file is the test module), and an inline `#[cfg(test)]` item is cut
    from there to the end of the file, where Rust's tests modules sit."""
    text = re.sub(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+" + IDENT + r"\s*;", "", text)
    return text.split("#[cfg(test)]")[0]


def brace_items(group):
    """The top-level items of a `{a, b::{c, d}, e as f}` list."""
    depth, cur, parts = 0, "", []
    for ch in group:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return [p.strip() for p in parts if p.strip()]


def targets(path, text, known):
    """The module paths `text` (of module `path`) names."""
    out = set()

    def resolve(start, words):
        # The longest prefix of words that is a module, below start.
        best = None
        cur = start
        for w in words:
            cur = cur + (w,)
            if cur in known:
                best = cur
            else:
                break
        return best

    def absolute(prefix):
        if prefix == "crate":
            return ()
        # super:: from a module is its parent; a chain climbs further.
        ups = prefix.count("super")
        return path[: max(len(path) - ups, 0)]

    head = r"\b(crate|(?:super::)*super)::"
    for m in re.finditer(head + r"((?:" + IDENT + r"::)*" + IDENT + r")", text):
        hit = resolve(absolute(m.group(1)), m.group(2).split("::"))
        if hit:
            out.add(hit)
    for m in re.finditer(head + r"((?:" + IDENT + r"::)*)\{", text):
        start = absolute(m.group(1))
        inner = m.group(2).rstrip(":").split("::") if m.group(2) else []
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        for item in brace_items(text[m.end(): i - 1]):
            words = inner + re.findall(IDENT, item.split(" as ")[0])[:1]
            hit = resolve(start, words)
            if hit:
                out.add(hit)
    return out


def cycles(graph):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            strong(v)
    return found


def check_crate(name, kind, src_dir, root_file):
    problems = []
    known = modules(src_dir, root_file)
    # Edges between siblings: from a's child at the first differing level.
    graphs = {}
    for path, file in known.items():
        if not path:
            continue
        for target in targets(path, strip_tests(read(file)), known):
            k = 0
            while k < min(len(path), len(target)) and path[k] == target[k]:
                k += 1
            if k < len(path) and k < len(target):
                parent = path[:k]
                graphs.setdefault(parent, {}).setdefault(path[k], set()).add(target[k])
    for parent, graph in sorted(graphs.items()):
        where = "::".join(parent) or "crate root"
        for comp in cycles(graph):
            problems.append(f"{name} ({kind}): a module cycle in {where}: {' -> '.join(comp)}")
    if name == "arena" and kind == "lib":
        layer_of = {m: i for i, (_, ms) in enumerate(ARENA_LAYERS) for m in ms}
        top = sorted({p[0] for p in known if p})
        for m in top:
            if m not in layer_of:
                problems.append(
                    f"arena: module {m} has no layer: add it to ARENA_LAYERS in tools/layers.py (and docs/architecture.md)"
                )
        for a, bs in sorted(graphs.get((), {}).items()):
            for b in sorted(bs):
                if a in layer_of and b in layer_of and layer_of[b] > layer_of[a]:
                    problems.append(
                        f"arena: {a} ({ARENA_LAYERS[layer_of[a]][0]}) uses {b} ({ARENA_LAYERS[layer_of[b]][0]}), a layer above it"
                    )
    return problems


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    meta = json.loads(
        subprocess.run(
            ["cargo", "metadata", "--no-deps", "--format-version", "1"],
            cwd=root, capture_output=True, text=True, check=True,
        ).stdout
    )
    members = set(meta["workspace_members"])
    problems, crates = [], 0
    for pkg in meta["packages"]:
        if pkg["id"] not in members:
            continue
        for tgt in pkg["targets"]:
            kinds = set(tgt["kind"]) & {"lib", "bin"}
            if not kinds:
                continue
            crates += 1
            problems += check_crate(pkg["name"], sorted(kinds)[0], os.path.dirname(tgt["src_path"]), tgt["src_path"])
    return report(problems, f"{crates} crate targets checked")


if __name__ == "__main__":
    sys.exit(main())
