#!/usr/bin/env python3
"""Check the relative links of the repository's Markdown files.

usage: check_links.py [REPO_DIR]

Every Markdown file tracked by git (README.md, docs/*.md, protocol.md, the
READMEs of bots/, test-bots/, results/, ...) is read; for every inline link
`[text](target)` that is not a URL (http:, https:, mailto:), the target file
or folder must exist, relative to the linking file, and a `#fragment` must
name a heading of the target Markdown file (GitHub's anchors: lower case,
punctuation dropped, spaces to hyphens, `-1`, `-2`, ... for repeats). Links
inside fenced code blocks and inline code are ignored.

Prints one line per broken link (`FILE:LINE: target: why`) and exits 1 if
there is any, else prints how many links it checked and exits 0.
"""
import os
import re
import subprocess
import sys

LINK = re.compile(r"(?<!!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")
IMAGE = re.compile(r"!\[[^\]]*\]\(([^()\s]+)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def strip_code(lines):
    """The lines with fenced code blocks blanked and inline code removed."""
    out, fence = [], None
    for line in lines:
        stripped = line.lstrip()
        if fence:
            if stripped.startswith(fence):
                fence = None
            out.append("")
            continue
        m = re.match(r"(`{3,}|~{3,})", stripped)
        if m:
            fence = m.group(1)
            out.append("")
            continue
        out.append(re.sub(r"(`+).*?\1", "", line))
    return out


def anchor(text):
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links: their text
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)  # keeps letters, digits, _, -, space
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        seen, result = {}, set()
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        fence = None
        for line in lines:
            stripped = line.lstrip()
            m = re.match(r"(`{3,}|~{3,})", stripped)
            if fence:
                if stripped.startswith(fence):
                    fence = None
                continue
            if m:
                fence = m.group(1)
                continue
            h = HEADING.match(line)
            if not h:
                continue
            a = anchor(h.group(2))
            n = seen.get(a, 0)
            seen[a] = n + 1
            result.add(a if n == 0 else f"{a}-{n}")
        cache[path] = result
    return cache[path]


def markdown_files(root):
    out = subprocess.run(["git", "ls-files", "*.md", "**/*.md"], cwd=root,
                         capture_output=True, text=True)
    files = sorted(set(out.stdout.split())) if out.returncode == 0 else []
    if not files:  # not a git checkout: walk the tree
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames if d not in (".git", "target")]
            files += [os.path.relpath(os.path.join(dirpath, f), root)
                      for f in filenames if f.endswith(".md")]
    return files


def check(root):
    broken, checked = [], 0
    for rel in markdown_files(root):
        path = os.path.join(root, rel)
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            lines = strip_code(f.read().split("\n"))
        for number, line in enumerate(lines, 1):
            for m in list(LINK.finditer(line)) + list(IMAGE.finditer(line)):
                target = m.group(1)
                if re.match(r"[a-z][a-z0-9+.-]*:", target):
                    continue  # a URL
                checked += 1
                file_part, _, fragment = target.partition("#")
                dest = path if not file_part else os.path.normpath(
                    os.path.join(os.path.dirname(path), file_part))
                where = f"{rel}:{number}: {target}"
                if not os.path.exists(dest):
                    broken.append(f"{where}: {os.path.relpath(dest, root)} does not exist")
                elif fragment and dest.endswith(".md"):
                    if fragment not in anchors(dest):
                        broken.append(f"{where}: no heading with the anchor #{fragment} "
                                      f"in {os.path.relpath(dest, root)}")
    return broken, checked


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    broken, checked = check(os.path.abspath(root))
    for b in broken:
        print(b)
    if broken:
        print(f"{len(broken)} broken of {checked} relative links")
        return 1
    print(f"all {checked} relative links resolve")
    return 0


if __name__ == "__main__":
    sys.exit(main())
