#!/usr/bin/env python3
"""The import graph of kgscope's library, from its own `crate::` paths.

Reads every `.rs` file under src/ (test modules left out: what a test imports does not shape the
house), takes each `crate::X` path (in code or in a doc link) as an import of the top-level
module X by the file's top-level module, and prints:

- the edges between top-level modules, with how many files make each;
- the circles: groups of top-level modules that reach each other (strongly connected
  components of more than one module);
- the imports that run back up the layers below: a module importing one listed above it, with
  the files that do it.

Usage: tools/imports.py [--quiet] [SRC]      (SRC defaults to src/ beside this script)
Exit status: 0 when there is no circle and no import runs back up; 1 otherwise, so CI and a
test can hold the line.
"""

import collections
import os
import re
import sys

# Bottom to top: a module may import the ones before it, never one after. Modules on one line
# are peers that do not import each other. `main`/`cli` (the binary) sit above everything.
LAYERS = [
    ["sanitize", "durable"],
    ["process"],
    ["credentials", "models", "display_width"],
    ["sampling"],
    ["kg"],
    ["core"],
    ["verify"],
    ["metrics"],
    ["record"],
    ["backends"],
    ["store"],
    ["questions"],
    ["method"],
    ["run"],
    ["report"],
    ["compare"],
    ["figures"],
    ["document"],
    ["tui"],
    ["lib", "main", "cli"],
]
RANK = {m: i for i, layer in enumerate(LAYERS) for m in layer}


def top_module(path, src):
    rel = os.path.relpath(path, src).split(os.sep)
    return rel[0].removesuffix(".rs")


def strip_tests(text):
    """The file without its `#[cfg(test)]` modules (they come last, by the house style)."""
    return text.split("#[cfg(test)]")[0]


def graph(src):
    """{importer: {imported: [files]}} over top-level modules."""
    known = {
        n.removesuffix(".rs")
        for n in os.listdir(src)
        if n.endswith(".rs") or os.path.isdir(os.path.join(src, n))
    }
    edges = collections.defaultdict(lambda: collections.defaultdict(list))
    for d, _, files in os.walk(src):
        for f in sorted(files):
            if not f.endswith(".rs"):
                continue
            path = os.path.join(d, f)
            me = top_module(path, src)
            with open(path, encoding="utf-8", errors="replace") as fh:
                # Comments count too: an intra-doc link (`[x](crate::run::X)`) ties the module
                # to the one it names as much as a `use` does.
                body = strip_tests(fh.read())
            for used in sorted(set(re.findall(r"\bcrate::([a-z_][a-z0-9_]*)", body))):
                if used != me and used in known:
                    edges[me][used].append(os.path.relpath(path, src))
    return edges


def circles(edges):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
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
                out.append(sorted(comp))

    nodes = set(edges) | {w for v in edges.values() for w in v}
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return sorted(out)


def back_up(edges):
    """(importer, imported, files) where the importer sits below what it imports."""
    out = []
    for a, targets in sorted(edges.items()):
        for b, files in sorted(targets.items()):
            if a in RANK and b in RANK and RANK[a] <= RANK[b] and a != b:
                out.append((a, b, files))
    return out


def main(argv):
    quiet = "--quiet" in argv
    args = [a for a in argv if a != "--quiet"]
    src = args[0] if args else os.path.join(os.path.dirname(__file__), "..", "src")
    edges = graph(src)
    unplaced = sorted((set(edges) | {w for v in edges.values() for w in v}) - set(RANK))
    if not quiet:
        print("edges (importer -> imported: files):")
        for a, targets in sorted(edges.items()):
            print(f"  {a} -> " + ", ".join(f"{b} ({len(f)})" for b, f in sorted(targets.items())))
    cyc = circles(edges)
    up = back_up(edges)
    print(f"circles between top-level modules: {len(cyc)}")
    for c in cyc:
        print("  " + " <-> ".join(c))
    print(f"imports from a lower layer to a higher one: {len(up)}")
    for a, b, files in up:
        print(f"  {a} -> {b}: " + ", ".join(files))
    if unplaced:
        print("modules in no layer (add them to LAYERS): " + ", ".join(unplaced))
    return 0 if not cyc and not up and not unplaced else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
