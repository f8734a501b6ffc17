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
import functools
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


def rust_files(src):
    """(path, text without its test modules) of every `.rs` file under `src`, in a fixed order.
    Comments stay: an intra-doc link (`[x](crate::run::X)`) ties a file to the module it names
    as much as a `use` does."""
    for d, _, files in sorted(os.walk(src)):
        for f in sorted(files):
            if f.endswith(".rs"):
                path = os.path.join(d, f)
                with open(path, encoding="utf-8", errors="replace") as fh:
                    yield path, strip_tests(fh.read())


def graph(src):
    """{importer: {imported: [files]}} over top-level modules."""
    known = {
        n.removesuffix(".rs")
        for n in os.listdir(src)
        if n.endswith(".rs") or os.path.isdir(os.path.join(src, n))
    }
    edges = collections.defaultdict(lambda: collections.defaultdict(list))
    for path, body in rust_files(src):
        me = top_module(path, src)
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


# ---- inside each folder ------------------------------------------------------------------
# A folder's children are its files and subfolders. Its `mod.rs` (the folder itself) declares
# them, re-exports them and holds what they share: edges to and from it are left out, and only
# circles among the children themselves count as knots. Every path a file names
# (`crate::a::b`, `super::b`, `self::b`, `use x::{a, b}`) is resolved to a module path; where
# the importer and the imported part ways inside a folder, that is an edge between two of its
# children. A name the folder's `mod.rs` re-exports (`pub use child::X`) counts as the child it
# comes from.

PATH_RE = re.compile(r"\b(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)*)(?:::\{([^{}]*)\})?")


def module_path(path, src):
    rel = os.path.relpath(path, src)[:-3].split(os.sep)
    if rel[-1] in ("mod", "lib", "main"):
        rel = rel[:-1]
    return rel


@functools.lru_cache(maxsize=None)
def children(src, folder):
    """The names of a folder's files and subfolders (`folder` a tuple of module names)."""
    d = os.path.join(src, *folder)
    if not os.path.isdir(d):
        return frozenset()
    return frozenset(
        n[:-3] if n.endswith(".rs") else n
        for n in os.listdir(d)
        if (n.endswith(".rs") and n not in ("mod.rs", "lib.rs", "main.rs"))
        or os.path.isdir(os.path.join(d, n))
    )


@functools.lru_cache(maxsize=None)
def reexports(src, folder):
    """{name: child} for the `pub use child::...::Name` lines of a folder's mod.rs."""
    f = os.path.join(src, *folder, "mod.rs")
    if not folder or not os.path.exists(f):
        return {}
    kids = children(src, folder)
    out = {}
    with open(f, encoding="utf-8", errors="replace") as fh:
        body = strip_tests(fh.read())
    for m in re.finditer(r"pub(?:\([a-z]+\))?\s+use\s+(?:self::)?([a-z_][a-z0-9_]*)::([^;]*);", body):
        child, rest = m.group(1), m.group(2)
        if child in kids:
            for name in re.findall(r"([A-Za-z_][A-Za-z0-9_]*)\s*(?:[,}]|$)", rest):
                out[name] = child
    return out


def resolve(me_mod, head, tail, group):
    """Absolute module paths a reference names (one per item of a `{...}` group)."""
    segs = [s for s in tail.split("::") if s]
    if head == "crate":
        base = []
    elif head == "self":
        base = list(me_mod)
    else:  # super, possibly repeated
        base = list(me_mod[:-1])
        while segs and segs[0] == "super":
            base = base[:-1]
            segs = segs[1:]
    if not group:
        return [base + segs]
    paths = []
    for item in group.split(","):
        item = item.strip().split(" as ")[0].strip()
        first = [s for s in item.split("::") if s and s != "self"]
        paths.append(base + segs + first[:1])
    return paths


def folder_edges(src):
    """{folder (tuple): {importer child: {imported child: [files]}}}, children only."""
    out = collections.defaultdict(lambda: collections.defaultdict(lambda: collections.defaultdict(list)))
    for path, body in rust_files(src):
        me = module_path(path, src)
        rel = os.path.relpath(path, src)
        for m in PATH_RE.finditer(body):
            for p in resolve(me, m.group(1), m.group(2) or "", m.group(3)):
                # Where the two part ways: the deepest folder both lie in. Top-level modules are
                # `graph`'s; the folder's own mod.rs on either side is no edge.
                n = 0
                while n < len(me) and n < len(p) and me[n] == p[n]:
                    n += 1
                if n == 0 or n == len(me) or n == len(p):
                    continue
                folder = tuple(p[:n])
                kids = children(src, folder)
                b = p[n] if p[n] in kids else reexports(src, folder).get(p[n])
                if b is not None and b != me[n]:
                    out[folder][me[n]][b].append(rel)
    return out


def folder_circles(src):
    """[(folder, circle, {edge: files})] for every folder whose children import in a circle."""
    out = []
    for folder, edges in sorted(folder_edges(src).items()):
        for c in circles(edges):
            files = {(a, b): edges[a][b] for a in c for b in c if b in edges.get(a, {})}
            out.append(("/".join(folder), c, files))
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
    inner = folder_circles(src)
    print(f"circles inside folders: {len(inner)}")
    for folder, c, files in inner:
        print(f"  {folder}/: " + " <-> ".join(c))
        if not quiet:
            for (a, b), fs in sorted(files.items()):
                print(f"      {a} -> {b}: " + ", ".join(sorted(set(fs))))
    return 0 if not cyc and not up and not unplaced and not inner else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
