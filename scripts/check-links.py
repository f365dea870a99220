#!/usr/bin/env python3
"""Checks every relative link in the repository's tracked Markdown files, without the network.

A link `[text](path)`, `[text](path#anchor)`, `[text](#anchor)`, a reference definition
`[name]: path` or an HTML `href="…"` must name a file or directory that exists, and an anchor
must be a heading of the target Markdown file (GitHub's rule: the heading's text lowercased,
everything but letters, digits, spaces, `-` and `_` dropped, spaces made `-`, repeats suffixed
`-1`, `-2`, …) or an explicit `<a id="…">`/`<a name="…">`. Links with a scheme (https:, mailto:)
are not fetched. Code blocks and code spans are skipped.

    scripts/check-links.py            # every tracked .md file; exit 1 listing each broken link
    scripts/check-links.py FILE…      # only these
"""

import os
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HREF = re.compile(r"""<a\s[^>]*\bhref\s*=\s*["']([^"']+)["']""", re.IGNORECASE)
EXPLICIT_ANCHOR = re.compile(r"""<a\s[^>]*\b(?:id|name)\s*=\s*["']([^"']+)["']""", re.IGNORECASE)
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def prose_lines(text: str, blank_code_spans: bool = True):
    """(line number, line) outside fenced code blocks, code spans blanked unless asked not to."""
    fence = None
    for number, line in enumerate(text.splitlines(), start=1):
        match = FENCE.match(line)
        if fence is None and match:
            fence = match.group(1)[0] * 3
            continue
        if fence is not None:
            if line.strip().startswith(fence):
                fence = None
            continue
        yield number, re.sub(r"(`+)(.+?)\1", lambda m: " " * len(m.group(0)), line) if blank_code_spans else line


def heading_text(markdown: str) -> str:
    """What a heading shows: links' texts, no HTML (markers such as ` and * go with punctuation)."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", markdown)
    return re.sub(r"<[^>]+>", "", text)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading's text."""
    kept = []
    for character in heading_text(heading).strip().lower():
        category = unicodedata.category(character)
        if character in "-_" or character == " " or category[0] in "LN" or category == "Mn":
            kept.append("-" if character == " " else character)
    return "".join(kept)


def anchors(path: Path, cache={}) -> set:
    if path not in cache:
        found, seen = set(), {}
        text = path.read_text(encoding="utf-8")
        for _, line in prose_lines(text, blank_code_spans=False):
            match = HEADING.match(line)
            if match:
                base = slug(match.group(2))
                count = seen.get(base, 0)
                seen[base] = count + 1
                found.add(base if count == 0 else f"{base}-{count}")
        # Explicit anchors may sit anywhere, code blocks aside.
        for _, line in prose_lines(text):
            found.update(EXPLICIT_ANCHOR.findall(line))
        cache[path] = found
    return cache[path]


def links(text: str):
    for number, line in prose_lines(text):
        for pattern in (INLINE, HREF):
            for match in pattern.finditer(line):
                yield number, match.group(1)
        match = REFERENCE.match(line)
        if match:
            yield number, match.group(1)


def check(path: Path) -> list:
    problems = []
    for number, target in links(path.read_text(encoding="utf-8")):
        if SCHEME.match(target) or target.startswith("//"):
            continue
        file_part, _, anchor = target.partition("#")
        destination = (path.parent / file_part).resolve() if file_part else path
        where = f"{os.path.relpath(path, ROOT)}:{number}: {target}"
        if not destination.exists():
            problems.append(f"{where}: no such file {file_part}")
            continue
        if anchor:
            if destination.suffix.lower() != ".md" or destination.is_dir():
                continue  # anchors into source files are line numbers GitHub renders; not checked
            if anchor not in anchors(destination):
                problems.append(f"{where}: no heading #{anchor} in {os.path.relpath(destination, ROOT)}")
    return problems


def main(arguments) -> int:
    if arguments:
        files = [Path(a).resolve() for a in arguments]
    else:
        listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "*.md"], capture_output=True, check=True)
        files = [ROOT / name for name in listed.stdout.decode().split("\0") if name]
    problems = [problem for path in files if path.exists() for problem in check(path)]
    for problem in problems:
        print(problem)
    print(f"check-links: {len(files)} Markdown files, {len(problems)} broken link(s)", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
