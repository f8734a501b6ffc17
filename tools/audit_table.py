#!/usr/bin/env python3
"""The before/after table of issue 24: what `kgscope audit` finds in two generators' question
sets, per sample KG and method.

    # sets of each generator: kgscope questions --kg sample:KG --task METHOD --limit 2000 --seed 7
    #   > DIR/q-KG-METHOD.jsonl   (for both binaries), then:
    python3 tools/audit_table.py --bin target/release/kgscope BEFORE_DIR AFTER_DIR

Both sets are read by the same (current) audit, so the counts compare generators, not audits.
Prints a Markdown table; each cell is "before → after".
"""
from __future__ import annotations

import argparse
import json
import subprocess

KGS = ["countries", "elements", "nba"]
METHODS = ["statement", "yesno", "tfq", "mcq-fib", "mcq-wh", "saq", "kg-fpq", "kglens"]
COLS = [
    ("gives_answer_away", "give-aways"),
    ("ambiguous_subjects", "ambiguous subjects"),
    ("duplicates", "duplicates"),
    ("article_errors", "articles"),
    ("unnatural_wording", "unnatural"),
    ("grammar", "grammar"),
    ("type_mismatched", "type-mismatched negatives"),
    ("true_in_words", "negatives true in words"),
]
FPQ = [
    ("KG-FPQ meta property in an edit", "FPQ meta property"),
    ("KG-FPQ premise the KG states true", "FPQ true premise"),
    ("KG-FPQ object of a sort the slot does not take", "FPQ slot misfit"),
]
OPTIONS = ["several_right", "overlapping", "tied", "stated", "too_close", "matched", "malformed"]


def audit(binary: str, kg: str, path: str) -> dict:
    out = subprocess.run([binary, "audit", "--json", "--kg", f"sample:{kg}", path],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def check(d: dict, what: str):
    return next((c["count"] for c in d.get("method_checks", []) if c["what"] == what), None)


def bad_options(d: dict):
    o = d.get("options") or {}
    return sum(o.get(k, 0) for k in OPTIONS) if o.get("questions") else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default="target/release/kgscope")
    ap.add_argument("before")
    ap.add_argument("after")
    a = ap.parse_args()
    head = ["KG", "method", "questions"] + [c[1] for c in COLS] + [f[1] for f in FPQ] + ["MCQ bad options"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for kg in KGS:
        for m in METHODS:
            b = audit(a.bin, kg, f"{a.before}/q-{kg}-{m}.jsonl")
            n = audit(a.bin, kg, f"{a.after}/q-{kg}-{m}.jsonl")
            cells = [kg, m, f"{b['questions']} → {n['questions']}"]
            cells += [f"{b.get(k, 0)} → {n.get(k, 0)}" for k, _ in COLS]
            for what, _ in FPQ:
                x, y = check(b, what), check(n, what)
                cells.append("" if x is None and y is None else f"{x or 0} → {y or 0}")
            x, y = bad_options(b), bad_options(n)
            cells.append("" if x is None and y is None else f"{x or 0} → {y or 0}")
            print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
