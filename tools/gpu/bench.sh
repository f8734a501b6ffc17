#!/usr/bin/env bash
# Runs, on an NVIDIA machine with nvcc, CMake and ninja but no Rust and no network, kgscope's
# llama.cpp benchmark on the GPU. Needs gpu-pack/ (made here by tools/gpu/pack.sh).
#
#   1. unpacks gpu-pack/: kgscope (built with llama.cpp as shared libraries), the llama.cpp
#      sources it was built from, a tokenizer
#   2. builds libllama/libggml (shared, -DGGML_CUDA=ON for this GPU's architecture) and
#      llama-server from those sources: CMake, ninja, targets llama ggml llama-server only
#   3. writes a random-weight GGUF of Llama-3-8B's shape (Q4_0; tools/gpu/fake_gguf.py)
#   4. runs `kgscope bench llama` on it with every layer on the GPU, kgscope finding the CUDA
#      libraries through LD_LIBRARY_PATH, and llama-server (same libraries) as the baseline
#   5. prints everything; the logs and the JSON go straight to $OUT when it is set (so they
#      come back even from a run stopped at its time limit), else to $WORK/logs
#
# Usage (from the repository root):
#   tools/gpu/bench.sh            # the GPU run
#   tools/gpu/bench.sh --dry-run  # the same pipeline on the CPU (no CUDA), a 2-layer model
#   STAGE=build tools/gpu/bench.sh  # steps 1-3 only (a first call: the CUDA build with
#                                   # FlashAttention takes minutes); a second call on the warm
#                                   # machine reuses the build and the model
# Environment: PACK (gpu-pack), WORK (${TMPDIR:-/tmp}/kgscope-gpu[-dry]), OUT, QUESTIONS (2000;
#   dry 64), SERVER_QUESTIONS (256; dry 16), PARALLEL (32,64,128,256; dry 4,8), ANSWER_TOKENS
#   (8), GREEDY (argmax,device), MEM_BANDWIDTH (GB/s; from the GPU's name), CTX_PER_SEQ (512),
#   GPU_LAYERS (99), CUDA_ARCH (from nvidia-smi),
#   JOBS (nproc), MODEL_TYPE (q4_0), MODEL_PRESET (8b; dry tiny), KGSCOPE_BENCH_ARGS (replaces
#   the bench arguments below), NICE (0; dry 10), DEADLINE (570 s; dry none: the bench is
#   stopped so that the whole script ends within DEADLINE seconds, inside the device tool's
#   600 s), BENCH_TIMEOUT (seconds for the bench; default what DEADLINE leaves), CUDA_FA (ON;
#   OFF skips the FlashAttention kernels: a shorter build, both sides then run without
#   FlashAttention), EXTRA_CMAKE_ARGS (added to the llama.cpp configure).
set -uo pipefail

DRY=0
for a in "$@"; do
  case "$a" in
    --dry-run) DRY=1 ;;
    -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
    *) echo "bench.sh: unknown argument $a" >&2; exit 2 ;;
  esac
done

HERE=$(cd "$(dirname "$0")" && pwd)
PACK=$(cd "${PACK:-gpu-pack}" 2>/dev/null && pwd) || { echo "bench.sh: FAILED: no ${PACK:-gpu-pack}/ here ($(pwd)): make it with tools/gpu/pack.sh and carry it" >&2; exit 1; }
if [ "$DRY" = 1 ]; then
  WORK=${WORK:-${TMPDIR:-/tmp}/kgscope-gpu-dry}
  QUESTIONS=${QUESTIONS:-64}; PARALLEL=${PARALLEL:-4,8}; MODEL_PRESET=${MODEL_PRESET:-tiny}
  SERVER_QUESTIONS=${SERVER_QUESTIONS:-16}
  NICE=${NICE:-10}; DEADLINE=${DEADLINE:-0}
else
  WORK=${WORK:-${TMPDIR:-/tmp}/kgscope-gpu}
  QUESTIONS=${QUESTIONS:-2000}; PARALLEL=${PARALLEL:-32,64,128,256}; MODEL_PRESET=${MODEL_PRESET:-8b}
  SERVER_QUESTIONS=${SERVER_QUESTIONS:-256}
  NICE=${NICE:-0}; DEADLINE=${DEADLINE:-570}
fi
GPU_LAYERS=${GPU_LAYERS:-99}
MODEL_TYPE=${MODEL_TYPE:-q4_0}
ANSWER_TOKENS=${ANSWER_TOKENS:-8}
GREEDY=${GREEDY:-argmax,device}
CTX_PER_SEQ=${CTX_PER_SEQ:-512}
STAGE=${STAGE:-all}
JOBS=${JOBS:-$(nproc)}
LOGS=${OUT:-$WORK/logs}
mkdir -p "$LOGS" "$WORK" || { echo "bench.sh: FAILED: cannot create $LOGS and $WORK" >&2; exit 1; }
# Everything printed also goes to $LOGS/bench-sh.out.
exec > >(tee "$LOGS/bench-sh.out") 2>&1

T_START=$(date +%s)
say() { printf '[bench %s +%ss] %s\n' "$(date +%H:%M:%S)" "$(( $(date +%s) - T_START ))" "$*"; }
die() { printf 'bench.sh: FAILED: %s\n' "$*" >&2; exit 1; }
nicely() { if [ "$NICE" != 0 ]; then nice -n "$NICE" "$@"; else "$@"; fi; }

say "kgscope GPU bench ($( [ "$DRY" = 1 ] && echo 'DRY RUN: CPU only' || echo CUDA)), pack $PACK, work dir $WORK, logs $LOGS"

# ------------------------------------------------------------------ prerequisites
for t in tar python3 c++ cc ldd timeout; do
  command -v "$t" >/dev/null || die "$t not found"
done
python3 -c 'import sys; sys.exit(sys.version_info < (3, 6))' 2>/dev/null || die "python3 does not run or is older than 3.6"
# .xz: the xz tool, else Python's lzma module.
if command -v xz >/dev/null; then
  unxz_c() { xz -dc "$1"; }
else
  python3 -c 'import lzma' 2>/dev/null || die "neither xz nor Python's lzma module found (needed to unpack $PACK)"
  unxz_c() { python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer, 1 << 20)' "$1"; }
fi
for f in kgscope.xz llama.cpp.tar.xz vocab.gguf.xz; do
  [ -f "$PACK/$f" ] || die "$PACK/$f missing: remake the pack with tools/gpu/pack.sh"
done
# cmake and ninja may be Python packages whose bin folder is not on PATH.
if ! command -v cmake >/dev/null; then
  d=$(python3 -c 'import cmake; print(cmake.CMAKE_BIN_DIR)' 2>/dev/null) && [ -x "$d/cmake" ] && PATH="$d:$PATH"
fi
command -v cmake >/dev/null || die "cmake not found"
if ! command -v ninja >/dev/null; then
  d=$(python3 -c 'import ninja; print(ninja.BIN_DIR)' 2>/dev/null) && [ -x "$d/ninja" ] && PATH="$d:$PATH"
fi
if command -v ninja >/dev/null; then
  GENERATOR=Ninja
elif [ "$DRY" = 1 ]; then
  GENERATOR="Unix Makefiles"; say "ninja not found: the dry run builds with make"
else
  die "ninja not found"
fi
CMAKE_CUDA=()
if [ "$DRY" = 0 ]; then
  if ! command -v nvcc >/dev/null; then
    for d in /usr/local/cuda/bin /usr/local/cuda-*/bin /opt/cuda/bin; do
      [ -x "$d/nvcc" ] && { PATH="$d:$PATH"; break; }
    done
  fi
  command -v nvcc >/dev/null || die "nvcc not found (the CUDA toolkit is needed; not on PATH nor in /usr/local/cuda*/bin)"
  command -v nvidia-smi >/dev/null || die "nvidia-smi not found: no NVIDIA driver"
  nvidia-smi -L 2>/dev/null | grep -q '^GPU ' || die "no NVIDIA GPU visible (nvidia-smi -L lists none)"
  if [ -z "${CUDA_ARCH:-}" ]; then
    cc_=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')
    CUDA_ARCH=${cc_:-native}
  fi
  CMAKE_CUDA=(-DGGML_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES="$CUDA_ARCH" -DGGML_CUDA_NCCL=OFF
              -DCMAKE_CUDA_COMPILER="$(command -v nvcc)" -DGGML_CUDA_COMPRESSION_MODE=none
              -DGGML_CUDA_FA="${CUDA_FA:-ON}")
  nvidia-smi --query-gpu=name,memory.total,driver_version,compute_cap --format=csv,noheader | sed 's/^/  GPU: /'
  nvcc --version | tail -2 | head -1 | sed 's/^/  nvcc: /'
fi
say "cmake $(cmake --version | head -1 | awk '{print $3}'), generator $GENERATOR, $JOBS jobs, $(c++ --version | head -1)"

# ------------------------------------------------------------------ 1. unpack
t0=$(date +%s)
STAMP=$(cat "$PACK"/kgscope.xz "$PACK"/llama.cpp.tar.xz | cksum | cut -d' ' -f1)
if [ "$(cat "$WORK/.unpacked" 2>/dev/null)" != "$STAMP" ]; then
  rm -rf "$WORK/llama.cpp" "$WORK/bin"
  mkdir -p "$WORK/bin"
  unxz_c "$PACK/llama.cpp.tar.xz" | tar -x -C "$WORK" || die "unpacking llama.cpp.tar.xz"
  unxz_c "$PACK/kgscope.xz" > "$WORK/bin/kgscope" && chmod +x "$WORK/bin/kgscope" || die "unpacking kgscope.xz"
  unxz_c "$PACK/vocab.gguf.xz" > "$WORK/vocab.gguf" || die "unpacking vocab.gguf.xz"
  echo "$STAMP" > "$WORK/.unpacked"
fi
[ -f "$PACK/MANIFEST.txt" ] && sed 's/^/  pack: /' "$PACK/MANIFEST.txt" | head -6
cat "$WORK/llama.cpp/KGSCOPE-SOURCES" 2>/dev/null | sed 's/^/  sources: /'
say "unpacked in $(( $(date +%s) - t0 )) s"

# ------------------------------------------------------------------ 2. build llama.cpp
t0=$(date +%s)
BUILD="$WORK/build-$( [ "$DRY" = 1 ] && echo cpu || echo cuda)"
say "configuring $BUILD"
nicely cmake -S "$WORK/llama.cpp" -B "$BUILD" -G "$GENERATOR" \
  -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON -DGGML_NATIVE=ON -DGGML_OPENMP=ON \
  -DGGML_BACKEND_DL=OFF -DLLAMA_BUILD_COMMON=ON -DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_SERVER=ON \
  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_APP=OFF \
  -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_CURL=OFF \
  "${CMAKE_CUDA[@]}" ${EXTRA_CMAKE_ARGS:-} > "$LOGS/build.log" 2>&1 \
  || { tail -40 "$LOGS/build.log"; die "cmake configure failed (log: $LOGS/build.log)"; }
grep -E 'CUDA Toolkit found|Using CUDA architectures|Including .* backend' "$LOGS/build.log" | sed 's/^/  /'
say "building llama ggml llama-server llama-batched-bench (-j$JOBS)"
nicely cmake --build "$BUILD" --config Release -j "$JOBS" --target llama ggml llama-server llama-batched-bench \
  >> "$LOGS/build.log" 2>&1 \
  || { grep -E 'error|Error' "$LOGS/build.log" | head -20; tail -20 "$LOGS/build.log"; die "llama.cpp build failed (log: $LOGS/build.log)"; }
LIBDIR="$BUILD/bin"
SERVER="$LIBDIR/llama-server"
BATCHED="$LIBDIR/llama-batched-bench"
[ -x "$SERVER" ] || die "$SERVER was not built"
[ -x "$BATCHED" ] || die "$BATCHED was not built"
[ -e "$LIBDIR/libllama.so.0" ] || die "no libllama.so.0 in $LIBDIR"
if [ "$DRY" = 0 ]; then
  ls "$LIBDIR"/libggml-cuda.so* >/dev/null 2>&1 || die "no libggml-cuda.so in $LIBDIR: the CUDA backend was not built"
fi
T_BUILD=$(( $(date +%s) - t0 ))
say "llama.cpp built in $T_BUILD s: $(cd "$LIBDIR" && ls lib*.so.0 | tr '\n' ' ')"

# kgscope was linked against libllama.so.0 & co. built from the same sources; here the ones just
# built (CUDA) replace them: LD_LIBRARY_PATH, which ld.so searches before the binary's RUNPATH.
export LD_LIBRARY_PATH="$LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
KGSCOPE="$WORK/bin/kgscope"
LDD=$(ldd "$KGSCOPE" 2>&1)
say "ldd kgscope (LD_LIBRARY_PATH=$LIBDIR):"
grep -E 'llama|ggml|cuda|cublas|gomp|not found' <<< "$LDD" | sed 's/^/  /'
grep -q 'not found' <<< "$LDD" && die "kgscope misses shared libraries (ldd above)"
grep -q "$LIBDIR/libllama.so" <<< "$LDD" || die "kgscope does not load $LIBDIR/libllama.so.0"
if [ "$DRY" = 0 ]; then
  grep -q 'libggml-cuda' <<< "$LDD" || die "kgscope would not load libggml-cuda (ldd above)"
fi
"$KGSCOPE" --version || die "kgscope does not start"

# ------------------------------------------------------------------ 3. the model
t0=$(date +%s)
MODEL="$WORK/random-llama-$MODEL_PRESET-$MODEL_TYPE.gguf"
GGUF_PY="$HERE/fake_gguf.py"; [ -f "$GGUF_PY" ] || GGUF_PY="$PACK/fake_gguf.py"
if [ ! -s "$MODEL" ]; then
  say "writing $MODEL"
  nicely python3 "$GGUF_PY" --vocab "$WORK/vocab.gguf" --out "$MODEL" --preset "$MODEL_PRESET" \
    --type "$MODEL_TYPE" || die "writing the model failed"
else
  say "reusing $MODEL"
fi
T_MODEL=$(( $(date +%s) - t0 ))
if [ "$STAGE" = build ]; then
  say "STAGE=build: llama.cpp built in $T_BUILD s, model ready in $T_MODEL s; run again (without STAGE) for the bench"
  exit 0
fi

# ------------------------------------------------------------------ 4. the benchmark
# llama-server through a shim: it accepts the PyPI launcher's form (`-m M --port P -- ARGS`) and
# plain llama-server arguments, puts every layer on the GPU unless told otherwise, and keeps
# the server's log.
SHIM="$WORK/bin/llama-server-shim"
cat > "$SHIM" <<SHIM
#!/usr/bin/env bash
args=(); ngl=0
for a in "\$@"; do
  [ "\$a" = "--" ] && continue
  case "\$a" in -ngl|--gpu-layers|--n-gpu-layers) ngl=1 ;; esac
  args+=("\$a")
done
[ \$ngl = 1 ] || args+=(-ngl "$( [ "$DRY" = 1 ] && echo 0 || echo "$GPU_LAYERS")")
echo "+ $SERVER \${args[*]}" >> "$LOGS/llama-server.log"
exec "$SERVER" "\${args[@]}" > >(tee -a "$LOGS/llama-server.log") 2>&1
SHIM
chmod +x "$SHIM"
: > "$LOGS/llama-server.log"

# ===================== THE BENCH INVOCATION: adjust here when `kgscope bench llama` changes ======
# Fixed 8-token answers (a random-weight model never stops), FlashAttention on unless the build
# left it out, llama-batched-bench as llama.cpp's ceiling on the same work, the weights' bound
# from the GPU's memory bandwidth. KGSCOPE_BENCH_ARGS replaces all of it.
if [ -z "${MEM_BANDWIDTH:-}" ] && [ "$DRY" = 0 ]; then
  # Peak memory bandwidth (GB/s) by model: NVIDIA's data sheets.
  case "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" in
    *H200*) MEM_BANDWIDTH=4800 ;;
    *H100*NVL*) MEM_BANDWIDTH=3900 ;;
    *H100*PCIe*) MEM_BANDWIDTH=2000 ;;
    *H100*) MEM_BANDWIDTH=3350 ;;
    *A100*80GB*) MEM_BANDWIDTH=2039 ;;
    *A100*) MEM_BANDWIDTH=1555 ;;
  esac
fi
FA=on; [ "${CUDA_FA:-ON}" = OFF ] && [ "$DRY" = 0 ] && FA=off
BENCH_ARGS=(bench llama --model "$MODEL" --kg sample:countries --questions "$QUESTIONS"
  --server-questions "$SERVER_QUESTIONS" --parallel "$PARALLEL" --max-tokens "$ANSWER_TOKENS"
  --fixed-answers --flash-attn "$FA" --greedy "$GREEDY" --ctx-per-seq "$CTX_PER_SEQ"
  --gpu-layers "$( [ "$DRY" = 1 ] && echo 0 || echo "$GPU_LAYERS")"
  --llama-server "$SHIM" --batched-bench "$BATCHED" --json)
[ -n "${MEM_BANDWIDTH:-}" ] && BENCH_ARGS+=(--mem-bandwidth "$MEM_BANDWIDTH")
"$KGSCOPE" bench llama --help 2>&1 | grep -q -- '--fixed-answers' \
  || die "this kgscope's bench llama is older than the script (no --fixed-answers): remake the pack with tools/gpu/pack.sh"
[ -n "${KGSCOPE_BENCH_ARGS:-}" ] && read -r -a BENCH_ARGS <<< "$KGSCOPE_BENCH_ARGS"
# ================================================================================================

GPU_MON=
if [ "$DRY" = 0 ]; then
  nvidia-smi --query-gpu=timestamp,utilization.gpu,memory.used --format=csv,noheader,nounits -l 1 \
    > "$LOGS/gpu-usage.csv" 2>/dev/null &
  GPU_MON=$!
fi
t0=$(date +%s)
if [ -z "${BENCH_TIMEOUT:-}" ]; then
  if [ "$DEADLINE" -gt 0 ]; then
    BENCH_TIMEOUT=$(( DEADLINE - (t0 - T_START) ))
    [ "$BENCH_TIMEOUT" -ge 60 ] || BENCH_TIMEOUT=60
  else
    BENCH_TIMEOUT=7200
  fi
fi
say "running (at most $BENCH_TIMEOUT s): kgscope ${BENCH_ARGS[*]}"
nicely timeout -k 10 "$BENCH_TIMEOUT" "$KGSCOPE" "${BENCH_ARGS[@]}" > "$LOGS/bench.json" 2> >(tee "$LOGS/bench.stderr" >&2)
RC=$?
[ "$RC" = 124 ] && say "the bench ran past BENCH_TIMEOUT=$BENCH_TIMEOUT s and was stopped"
T_BENCH=$(( $(date +%s) - t0 ))
[ -n "$GPU_MON" ] && kill "$GPU_MON" 2>/dev/null
sleep 0.2
echo "---- kgscope bench llama (exit $RC, $T_BENCH s; the JSON: $LOGS/bench.json) ----"
# A summary small enough for the device tool's output tail.
python3 - "$LOGS/bench.json" <<'PY' || cat "$LOGS/bench.json"
import json, sys
d = json.load(open(sys.argv[1]))
print("questions %s, answer tokens %s (fixed %s), flash_attn %s, gpu_layers %s" % (
    d["questions"], d["max_tokens"], d.get("fixed_answers"), d.get("flash_attn"), d["gpu_layers"]))
for r in d["runs"]:
    sp = r.get("split") or {}
    ms = sp.get("ms", {})
    steps = max(sp.get("steps", 0), 1)
    split = " ".join("%s=%.2f" % (k.replace("forward ", "fwd").replace(" ", ""), v / steps)
                     for k, v in ms.items()) if ms else ""
    print("%-36s p=%-4d %8.2f q/s %9.1f tok/s %5d steps %6.1f seq/step  ms/step: %s" % (
        r["side"], r["parallel"], r["questions_per_s"], r["completion_tokens_per_s"],
        sp.get("steps", 0), sp.get("mean_sequences_per_step", 0), split))
for r in d.get("llama_batched_bench") or []:
    print("llama-batched-bench pl=%-4d pp=%d tg=%d: generate %.2f/s, prompt alone %.2f/s (S_PP %.0f t/s, S_TG %.0f t/s)" % (
        r["pl"], r["pp"], r["tg"], r["pl"] / (r["t_pp"] + r["t_tg"]), r["pl"] / r["t_pp"], r["speed_pp"], r["speed_tg"]))
for r in d["ratios"]:
    print("p=%-4d " % r["parallel"] + ", ".join("%s %.3g" % (k, v) for k, v in r.items() if k != "parallel" and v is not None))
if d.get("weights_bound"):
    print("weights bound:", d["weights_bound"])
PY
echo "----"
if [ -n "$GPU_MON" ] && [ -s "$LOGS/gpu-usage.csv" ]; then
  awk -F', *' '{ if ($2>u) u=$2; if ($3>m) m=$3 } END { printf "  GPU during the bench: max utilisation %s %%, max memory used %s MiB (%d samples)\n", u, m, NR }' "$LOGS/gpu-usage.csv"
fi
grep -hE 'offloaded|CUDA0 model buffer|using device' "$LOGS/llama-server.log" "$LOGS/bench.stderr" 2>/dev/null | sort -u | head -6 | sed 's/^/  /'
say "timings: build $T_BUILD s, model $T_MODEL s, bench $T_BENCH s, total $(( $(date +%s) - T_START )) s"
[ "$RC" = 0 ] || die "kgscope bench llama exited with $RC (stderr: $LOGS/bench.stderr)"
say "done"
