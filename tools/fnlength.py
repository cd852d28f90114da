#!/usr/bin/env python3
"""Checks that no function of the workspace's library and binary code is
longer than MAX_LINES lines, so that each one can be read at once
(DEVELOPERS' standards; issue 35).

usage: tools/fnlength.py [WORKSPACE_DIR]   exit 0 if every function fits;
else each one that does not, `FILE: FUNCTION (N lines)`, and exit 1.
       tools/fnlength.py --self-test        checks the reading on made-up code.

A function's length runs from its `fn` line to the line of its closing
brace, both included; a function inside another counts as part of it.
Test code is left out: a file declared by `#[cfg(test)] mod NAME;`, and any
item under `#[cfg(test)]` or `#[test]` (a `mod tests { ... }`, a test
function). Comments, strings and character literals are read as Rust reads
them, so a brace in a string or a `fn` in a doc comment counts for nothing.

EXCEPTIONS names the functions allowed to be longer for now, each with the
reason; one that has become short enough is reported too, so that the list
only shrinks.
"""
import os
import re
import sys

from problems import report

MAX_LINES = 100

# The crates' source folders checked.
ROOTS = ["arena/src", "bots/src", "ratings/src", "rules/src", "protocol/src", "tablebase/src"]

# (file, function): why it is still longer than MAX_LINES.
EXCEPTIONS = {
}

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
FN = re.compile(
    r"^[ \t]*(?:pub(?:\([^)]*\))?\s+)?(?:default\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?"
    r"(?:extern\s+(?:\"[^\"]*\"\s+)?)?fn\s+(" + IDENT + r")",
    re.M,
)
TEST_ATTR = re.compile(r"#\[\s*(?:cfg\s*\(\s*test\s*\)|test)\s*\]")


def mask(text):
    """`text` with the insides of comments, strings and character literals
    blanked (newlines kept), so that only code is left to match."""
    out = list(text)
    i, n = 0, len(text)

    def blank(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(i, j)
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:i + 260]) and (i == 0 or not re.match(r"[A-Za-z0-9_]", text[i - 1]) or text[i - 1] == "b"):
            hashes = re.match(r"r(#*)\"", text[i:]).group(1)
            start = i + 2 + len(hashes)
            end = text.find('"' + hashes, start)
            end = n if end < 0 else end + 1 + len(hashes)
            blank(start, end - 1 - len(hashes))
            i = end
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            blank(i + 1, min(j, n))
            i = j + 1
        elif c == "'":
            # A character literal ('x', '\n', '\u{7f}'), or a lifetime ('a).
            if i + 1 < n and text[i + 1] == "\\":
                j = text.find("'", i + 2)
                j = n if j < 0 else j
                blank(i + 1, j)
                i = j + 1
            elif i + 2 < n and text[i + 2] == "'":
                blank(i + 1, i + 2)
                i += 3
            else:
                i += 1
        else:
            i += 1
    return "".join(out)


def closing(code, open_at):
    """The index of the brace that closes the one at `open_at`."""
    depth = 0
    for k in range(open_at, len(code)):
        if code[k] == "{":
            depth += 1
        elif code[k] == "}":
            depth -= 1
            if depth == 0:
                return k
    return len(code) - 1


def body(code, k):
    """The index of the `{` that opens the body of the function whose name
    ends at `k` (past its generics and its parameters, which may hold
    braces of a pattern), or of the `;` of a declaration."""
    depth = 0
    while k < len(code):
        c = code[k]
        if c in "<([":
            depth += 1
        elif c in ")]" or (c == ">" and code[k - 1] != "-"):
            depth -= 1
            if depth == 0 and c == ")":
                break
        k += 1
    while k < len(code) and code[k] not in "{;":
        k += 1
    return k


def test_spans(code):
    """The spans of items under `#[cfg(test)]` or `#[test]`: from the
    attribute to the end of the item (its closing brace, or its `;`)."""
    spans = []
    for m in TEST_ATTR.finditer(code):
        k = m.end()
        while k < len(code) and code[k] not in "{;":
            k += 1
        end = closing(code, k) if k < len(code) and code[k] == "{" else k
        spans.append((m.start(), end))
    return spans


def long_functions(path):
    """[(function, lines)] of the functions of file `path` over MAX_LINES."""
    with open(path, encoding="utf-8", errors="replace") as f:
        code = mask(f.read())
    skip = test_spans(code)
    found, pos = [], 0
    while True:
        m = FN.search(code, pos)
        if not m:
            return found
        start = m.start(1)
        if any(a <= start <= b for a, b in skip):
            pos = m.end()
            continue
        k = body(code, m.end())
        if k >= len(code) or code[k] == ";":
            pos = k + 1
            continue
        end = closing(code, k)
        lines = code.count("\n", m.start(), end) + 1
        if lines > MAX_LINES:
            found.append((m.group(1), lines))
        pos = end + 1


def test_files(root):
    """The files of `root` that are test modules: `#[cfg(test)] mod NAME;`."""
    out = set()
    for folder, _, files in os.walk(root):
        for name in files:
            if not name.endswith(".rs"):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8", errors="replace") as f:
                code = mask(f.read())
            stem = name[:-3]
            base = folder if stem in ("lib", "main", "mod") else os.path.join(folder, stem)
            for mod in re.findall(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(" + IDENT + r")\s*;", code):
                out.add(os.path.normpath(os.path.join(base, mod + ".rs")))
                out.add(os.path.normpath(os.path.join(base, mod, "mod.rs")))
    return out


def self_test():
    """The reading of made-up code: a long function is found, its length
    counted from `fn` to its closing brace; test code, braces in strings,
    chars and comments, and a parameter pattern's braces are not taken for
    code or for the body."""
    import tempfile
    filler = "    let _x = 1;\n"
    cases = [
        ("pub fn long() {\n" + filler * 99 + "}\n", [("long", 101)]),
        ("fn fits() {\n" + filler * 98 + "}\n", []),
        ("#[cfg(test)]\nmod tests {\n    fn long() {\n" + filler * 120 + "    }\n}\n", []),
        ("#[test]\nfn long() {\n" + filler * 120 + "}\n", []),
        ('fn f() {\n    let s = "}}}";\n    let c = \'}\';\n    // }\n' + filler * 99 + "}\n", [("f", 104)]),
        ('fn g(S { a }: S) -> u8 {\n' + filler * 99 + "}\nfn h() {}\n", [("g", 101)]),
        ('fn r() {\n    let s = r#"}"#;\n' + filler * 99 + "}\n", [("r", 102)]),
    ]
    failed = 0
    for code, want in cases:
        with tempfile.NamedTemporaryFile("w", suffix=".rs", delete=False) as f:
            f.write(code)
        got = long_functions(f.name)
        os.unlink(f.name)
        if got != want:
            failed += 1
            print(f"self-test: {code[:40]!r}...: found {got}, expected {want}")
    print(f"self-test: {len(cases) - failed} of {len(cases)} cases read right")
    return 1 if failed else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    top = sys.argv[1] if len(sys.argv) > 1 else "."
    problems, seen, checked = [], set(), 0
    for root in ROOTS:
        full = os.path.join(top, root)
        tests = test_files(full)
        for folder, _, files in sorted(os.walk(full)):
            for name in sorted(files):
                path = os.path.normpath(os.path.join(folder, name))
                if not name.endswith(".rs") or path in tests:
                    continue
                checked += 1
                rel = os.path.relpath(path, top)
                for fn, lines in long_functions(path):
                    seen.add((rel, fn))
                    if (rel, fn) not in EXCEPTIONS:
                        problems.append(f"{rel}: {fn} ({lines} lines, over {MAX_LINES}): split it into functions named for what they do")
    for (rel, fn), why in sorted(EXCEPTIONS.items()):
        if (rel, fn) not in seen:
            problems.append(f"{rel}: {fn} is {MAX_LINES} lines or fewer now (or gone): remove it from EXCEPTIONS in tools/fnlength.py")
    return report(problems, f"{checked} files checked, {len(EXCEPTIONS)} functions excepted")


if __name__ == "__main__":
    sys.exit(main())
