#!/usr/bin/env python3
"""Every test has a deadline of its own, so a hang fails by name instead of stalling CI.

Swift: every `@Suite` carries a `.timeLimit(...)` trait (its tests inherit it), and a `@Test`
outside any suite carries its own. Python: the suites run under pytest-timeout (`pytest.ini`'s
`timeout`), which this checks is configured. Prints what lacks one and exits 1."""

import configparser
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def swift_problems():
    problems = []
    for path in sorted((ROOT / "Tests").rglob("*.swift")):
        text = path.read_text()
        depth = 0
        for number, line in enumerate(text.splitlines(), 1):
            stripped = line.strip()
            if stripped.startswith("@Suite") and "timeLimit" not in stripped:
                problems.append(f"{path.relative_to(ROOT)}:{number}: @Suite without .timeLimit")
            if re.match(r"@Test\b", stripped) and depth == 0 and "timeLimit" not in stripped:
                problems.append(f"{path.relative_to(ROOT)}:{number}: @Test outside a suite without .timeLimit")
            depth += line.count("{") - line.count("}")
    return problems


def python_problems():
    config = configparser.ConfigParser()
    if not config.read(ROOT / "pytest.ini") or not config.has_option("pytest", "timeout"):
        return ["pytest.ini sets no pytest-timeout `timeout`"]
    return []


def main():
    problems = swift_problems() + python_problems()
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
