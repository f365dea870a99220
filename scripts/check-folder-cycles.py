#!/usr/bin/env python3
"""Fails when the folders of a Swift module use each other in a cycle.

Modules cannot depend on each other in a cycle (SwiftPM refuses it); folders inside one module
can, silently. A folder "uses" another when one of its files names a type, protocol or free
function declared in the other (whole words, comments and strings left out). Each module's
folders must form a graph without cycles, so every folder could become a module of its own.
Files directly in a module's root count as a folder named after the module.
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources")
DECLARATION = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|final|indirect|nonisolated)\s+)*"
    r"(?:struct|enum|class|actor|protocol|typealias|func)\s+([A-Za-z_][A-Za-z0-9_]*)",
    re.M,
)
COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
STRING = re.compile(r'"""(?:.|\n)*?"""|"(?:\\.|[^"\\\n])*"')
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def folders(module_path, module):
    found = {}
    for directory, _, files in os.walk(module_path):
        relative = os.path.relpath(directory, module_path)
        folder = module if relative == "." else relative.split(os.sep)[0]
        for name in files:
            if name.endswith(".swift"):
                found.setdefault(folder, []).append(os.path.join(directory, name))
    return found


def cycles(graph):
    """Strongly connected components with more than one folder (Tarjan)."""
    index, low, stack, on, result, counter = {}, {}, [], set(), [], [0]

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on.add(node)
        for other in graph.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                on.discard(other)
                component.append(other)
                if other == node:
                    break
            if len(component) > 1:
                result.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return result


def check(module):
    module_path = os.path.join(ROOT, module)
    by_folder = folders(module_path, module)
    if len(by_folder) < 2:
        return []
    texts = {}
    declared = {}
    for folder, paths in by_folder.items():
        for path in paths:
            text = STRING.sub('""', COMMENT.sub("", open(path, encoding="utf-8").read()))
            texts[path] = (folder, text)
            for name in DECLARATION.findall(text):
                declared.setdefault(name, set()).add(folder)
    graph = {folder: set() for folder in by_folder}
    why = {}
    for path, (folder, text) in texts.items():
        for word in set(WORD.findall(text)):
            for owner in declared.get(word, ()):
                if owner != folder and len(declared[word]) == 1:
                    graph[folder].add(owner)
                    why.setdefault((folder, owner), (os.path.relpath(path, ROOT), word))
    problems = []
    for component in cycles(graph):
        edges = [
            f"    {a} -> {b} ({why[(a, b)][0]} names {why[(a, b)][1]})"
            for a in component for b in sorted(graph[a]) if b in component
        ]
        problems.append(f"{module}: folders in a cycle: {', '.join(component)}\n" + "\n".join(edges))
    return problems


def main():
    modules = sys.argv[1:] or sorted(
        name for name in os.listdir(ROOT) if os.path.isdir(os.path.join(ROOT, name)) and not name.startswith("C"))
    problems = [problem for module in modules for problem in check(module)]
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
