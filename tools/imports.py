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


# ---- inside each folder ------------------------------------------------------------------
# A folder's children are its files and subfolders; `mod.rs` is the folder itself ("mod"): it
# declares the children, re-exports them and holds what they share, so edges to and from it are
# left out: only circles among the children themselves count as knots.
# Every path a file names (`crate::a::b`, `super::b`, `self::b`, `use x::{a, b}`, and in a
# `mod.rs` a bare `child::`) is resolved to a module path; where the importer and the imported
# part ways inside a folder, that is an edge between two of its children. A `pub use` in a
# `mod.rs` is a facade, not a dependency: what it re-exports counts as the child it comes from.

PATH_RE = re.compile(r"\b(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)*)(?:::\{([^{}]*)\})?")


def module_path(path, src):
    rel = os.path.relpath(path, src)[:-3].split(os.sep)
    if rel[-1] in ("mod", "lib", "main"):
        rel = rel[:-1]
    return rel


def children(src, folder):
    d = os.path.join(src, *folder)
    out = set()
    for n in os.listdir(d):
        if n.endswith(".rs") and n not in ("mod.rs", "lib.rs", "main.rs"):
            out.add(n[:-3])
        elif os.path.isdir(os.path.join(d, n)):
            out.add(n)
    return out


def is_folder(src, mp):
    return os.path.isdir(os.path.join(src, *mp)) if mp else True


def reexports(src, folder):
    """{name: child} for the `pub use child::...::Name` lines of a folder's mod.rs."""
    f = os.path.join(src, *folder, "mod.rs") if folder else None
    if not f or not os.path.exists(f):
        return {}
    kids = children(src, folder)
    out = {}
    body = strip_tests(open(f, encoding="utf-8", errors="replace").read())
    for m in re.finditer(r"pub(?:\([a-z]+\))?\s+use\s+(?:self::)?([a-z_][a-z0-9_]*)::([^;]*);", body):
        child, rest = m.group(1), m.group(2)
        if child not in kids:
            continue
        for name in re.findall(r"([A-Za-z_][A-Za-z0-9_]*)\s*(?:[,}]|$)", rest):
            out[name] = child
    return out


def resolve(me_mod, is_mod_file, head, tail, group):
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
    paths = []
    if group:
        for item in group.split(","):
            item = item.strip().split(" as ")[0].strip()
            first = [s for s in item.split("::") if s and s != "self"]
            paths.append(base + segs + first[:1])
    else:
        paths.append(base + segs)
    return paths


def folder_edges(src):
    """{folder (tuple): {importer child: {imported child: [files]}}}."""
    out = collections.defaultdict(lambda: collections.defaultdict(lambda: collections.defaultdict(list)))
    for d, _, files in os.walk(src):
        for f in sorted(files):
            if not f.endswith(".rs"):
                continue
            path = os.path.join(d, f)
            me = module_path(path, src)
            is_mod_file = f in ("mod.rs", "lib.rs", "main.rs")
            body = strip_tests(open(path, encoding="utf-8", errors="replace").read())
            refs = []
            for m in PATH_RE.finditer(body):
                refs += resolve(me, is_mod_file, m.group(1), m.group(2) or "", m.group(3))
            if is_mod_file and me is not None:
                kids = children(src, me)
                for m in re.finditer(r"(?<![:\w])([a-z_][a-z0-9_]*)::", body):
                    if m.group(1) in kids:
                        refs.append(me + [m.group(1)])
                # A mod.rs's own `pub use child::X` is its facade, not an import.
                facade = set()
                for m in re.finditer(r"pub(?:\([a-z]+\))?\s+use\s+(?:self::)?([a-z_][a-z0-9_]*)::", body):
                    facade.add(m.group(1))
            rel = os.path.relpath(path, src)
            for p in refs:
                # Where the two part ways: the deepest folder both lie in.
                n = 0
                while n < len(me) and n < len(p) and me[n] == p[n]:
                    n += 1
                folder = p[:n]
                if not is_folder(src, folder):
                    continue
                kids = children(src, folder)
                a = me[n] if n < len(me) else "mod"
                if n < len(p) and p[n] in kids:
                    b = p[n]
                elif n < len(p) and p[n] in reexports(src, folder):
                    b = reexports(src, folder)[p[n]]
                else:
                    b = "mod"
                if a == "mod" and is_mod_file and n == len(me) and b in facade and not _used_beyond_facade(body, b):
                    continue
                if a != b and not (folder == [] and True):
                    out[tuple(folder)][a][b].append(rel)
    return out


def _used_beyond_facade(body, child):
    """Whether a mod.rs names `child` other than in `pub use child::...` lines."""
    rest = re.sub(r"pub(?:\([a-z]+\))?\s+use\s+(?:self::)?[a-z_][a-z0-9_]*::[^;]*;", "", body)
    return re.search(rf"(?<![\w:]){child}::", rest) is not None or re.search(rf"(?:crate|super|self)(?:::\w+)*::{child}\b", rest) is not None


def folder_circles(src):
    """[(folder, circle, {edge: files})] for every folder whose children import in a circle."""
    out = []
    for folder, edges in sorted(folder_edges(src).items()):
        edges = {a: {b: f for b, f in t.items() if b != "mod"} for a, t in edges.items() if a != "mod"}
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
