#!/usr/bin/env bash
# The GPU path without a GPU: kgscope's Vulkan build run on Mesa's software Vulkan device
# (lavapipe, "llvmpipe" in vulkaninfo), checked against the CPU path of the same binary.
#
# What it proves, on any Debian/Ubuntu machine, no GPU needed:
#   1. `cargo build --release --features vulkan` builds (llama.cpp's Vulkan backend: shaders
#      compiled with glslc, C++ against Vulkan headers) and the binary links libvulkan;
#   2. llama.cpp finds the Vulkan device and offloads every layer of the default model to it
#      ("offloaded N/N layers to GPU" in llama.cpp's own log, shown through KGSCOPE_LLAMA_LOG=1);
#   3. the offloaded run computes what the CPU path computes (`--gpu-layers 0`, same binary, no
#      Vulkan device), at temperature 0 and `--parallel 1`, question by question:
#        - the generated answers are compared ("answers equal: N/N", every difference printed);
#        - for closed-answer tasks both paths also score the options (`--scoring logprob`), and
#          every option's log-probability must agree within --tolerance nats; an answer that
#          differs must be a near-tie (the CPU path's two best options within --tolerance).
#      Why not plain equality: the two backends round differently (most likely: the CPU
#      kernels quantise activations to 8 bits, the Vulkan shaders do not), so a greedy answer
#      at a near-tie can flip; a wrong shader shows up as log-probabilities far apart.
# It does NOT measure GPU speed: lavapipe runs the shaders on the CPU (LLVM-compiled), so it is
# 13-40 times slower than llama.cpp's own CPU kernels here. It tests the code path, not hardware.
#
# Usage: tools/vulkan_lavapipe.sh [--limit N] [--kg K] [--task T] [--skip-install] [--skip-build]
#                                 [--no-logprob] [--tolerance NATS] [--strict]
#   --limit N          questions per run [default: 20]
#   --kg K             the KG [default: sample:countries]
#   --task T           the kgscope task [default: statement]
#   --skip-install     do not check/install the Debian packages
#   --skip-build       use the binary already in the target dir
#   --no-logprob       skip the log-probability runs; then every verdict must be equal
#   --tolerance NATS   allowed log-probability difference, and near-tie margin [default: 0.5]
#   --strict           fail when any answer TEXT differs
# Environment: KGSCOPE_VULKAN_TARGET  cargo target dir of the Vulkan build [default: target/vulkan]
#              KGSCOPE_VULKAN_WORK    where the runs are written [default: $TARGET/lavapipe-check]
# On 2 cores: ~15 min to build the first time, then 5-13 min (by load) for the four runs of 20
# questions (lavapipe is slow). Re-runnable: installs only what is missing, cargo rebuilds only
# what changed, and the runs start from an empty directory each time. Exit status 0 only when
# all of the above holds.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"

limit=20
kg=sample:countries
task=statement
skip_install=0
skip_build=0
strict=0
logprob=1
tolerance=0.5
usage() {
  sed -n '/^# Usage:/,/^# On 2 cores/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
  exit "${1:-2}"
}
while [ $# -gt 0 ]; do
  case "$1" in
    --limit) [ $# -ge 2 ] || usage; limit="$2"; shift 2 ;;
    --kg) [ $# -ge 2 ] || usage; kg="$2"; shift 2 ;;
    --task | --method) [ $# -ge 2 ] || usage; task="$2"; shift 2 ;;
    --skip-install) skip_install=1; shift ;;
    --skip-build) skip_build=1; shift ;;
    --strict) strict=1; shift ;;
    --no-logprob) logprob=0; shift ;;
    --tolerance) [ $# -ge 2 ] || usage; tolerance="$2"; shift 2 ;;
    -h | --help) usage 0 ;;
    *) echo "unknown argument: $1" >&2; usage ;;
  esac
done

TARGET="${KGSCOPE_VULKAN_TARGET:-$ROOT/target/vulkan}"
case "$TARGET" in /*) ;; *) TARGET="$ROOT/$TARGET" ;; esac
WORK="${KGSCOPE_VULKAN_WORK:-$TARGET/lavapipe-check}"
BIN="$TARGET/release/kgscope"

step() { printf '\n==> %s\n' "$*"; }
say() { printf '    %s\n' "$*"; }
die() { printf 'vulkan_lavapipe: %s\n' "$*" >&2; exit 1; }
now() { date +%s.%N; }
# "1.3.239" from a vulkan_core.h.
vk_version() {
  awk '/#define VK_HEADER_VERSION_COMPLETE/ { gsub(/[(),]/, " "); mm = $5 "." $6 }
       /#define VK_HEADER_VERSION / { p = $3 } END { print mm "." p }' "$1" 2>/dev/null
}
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# ---------------------------------------------------------------------------------------------
step "1/5 Debian packages"
# What each is for (checked against llama.cpp's ggml/src/ggml-vulkan/CMakeLists.txt):
#   mesa-vulkan-drivers  lavapipe itself (lvp_icd.*.json, libvulkan_lvp.so)
#   libvulkan-dev        the Vulkan loader to link, and the C and C++ headers (vulkan.hpp)
#   glslc                find_package(Vulkan COMPONENTS glslc): compiles the compute shaders
#   spirv-headers        find_package(SPIRV-Headers CONFIG REQUIRED)
#   vulkan-tools         vulkaninfo, to show the device (step 3)
#   cmake, clang, libclang-dev  llama-cpp-sys-2's build (as tools/setup.sh installs them)
#   python3              the answer comparison (step 5)
packages=(mesa-vulkan-drivers libvulkan-dev glslc spirv-headers vulkan-tools cmake clang libclang-dev python3)
if [ "$skip_install" = 1 ]; then
  say "skipped (--skip-install)"
else
  missing=()
  for p in "${packages[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
    say "installing ${missing[*]}"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
  for p in "${packages[@]}"; do
    say "$(dpkg-query -W -f='${Package} ${Version}' "$p")"
  done
fi
command -v cargo >/dev/null || die "cargo not found: install Rust (https://rustup.rs) first"

# llama.cpp's Vulkan backend (llama-cpp-sys-2 0.1.161) uses VK_EXT_layer_settings
# (vk::LayerSettingEXT) unconditionally, which Vulkan headers before 1.3.272 lack: Debian 12
# ships 1.3.239 and the build fails with "'LayerSettingEXT' is not a member of 'vk'". Then the
# headers of Debian 13's libvulkan-dev are unpacked into the target dir (apt-get download with a
# private apt state: the system's sources and packages are left alone) and passed to CMake as
# VULKAN_SDK, with the system's libvulkan.so linked. The headers only declare; the loader and
# lavapipe at run time stay the system's.
vk_headers="/usr/include"
if grep -qs VK_EXT_layer_settings /usr/include/vulkan/vulkan_core.h; then
  say "system Vulkan headers: $(vk_version /usr/include/vulkan/vulkan_core.h) (have VK_EXT_layer_settings)"
else
  HDR="$TARGET/vulkan-headers"
  say "system Vulkan headers $(vk_version /usr/include/vulkan/vulkan_core.h) lack VK_EXT_layer_settings: using Debian 13's in $HDR"
  if ! grep -qs VK_EXT_layer_settings "$HDR/include/vulkan/vulkan_core.h"; then
    apt_dir="$HDR/apt"
    rm -rf "$HDR"
    mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$HDR/deb"
    keyring=/usr/share/keyrings/debian-archive-keyring.gpg
    if [ ! -f "$keyring" ]; then  # Ubuntu: Debian's archive keys, to verify the download
      SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
      DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq debian-archive-keyring >/dev/null
    fi
    echo "deb [signed-by=$keyring] http://deb.debian.org/debian trixie main" >"$apt_dir/sources.list"
    apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
      -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache" -o Debug::NoLocking=1
      -o APT::Sandbox::User="$(id -un)")
    apt-get "${apt_opts[@]}" update -qq
    (cd "$HDR/deb" && apt-get "${apt_opts[@]}" download -qq libvulkan-dev)
    dpkg-deb -x "$HDR"/deb/libvulkan-dev_*.deb "$HDR/root"
    mv "$HDR/root/usr/include" "$HDR/include"
    rm -rf "$apt_dir" "$HDR/root"
  fi
  grep -qs VK_EXT_layer_settings "$HDR/include/vulkan/vulkan_core.h" || die "could not get Vulkan headers with VK_EXT_layer_settings"
  sys_vulkan_so="$(dpkg -L libvulkan-dev | grep -m1 '/libvulkan\.so$' || true)"
  [ -n "$sys_vulkan_so" ] || die "no libvulkan.so from libvulkan-dev"
  mkdir -p "$HDR/lib"
  ln -sfn "$sys_vulkan_so" "$HDR/lib/libvulkan.so"
  debs=("$HDR"/deb/*.deb)
  say "headers ${debs[0]##*/} ($(vk_version "$HDR/include/vulkan/vulkan_core.h")), loader $sys_vulkan_so"
  export VULKAN_SDK="$HDR"
  vk_headers="$HDR/include"
fi

# lavapipe's ICD manifest; forcing the loader to it hides any other driver (a real GPU too).
LVP_ICD="$(ls /usr/share/vulkan/icd.d/lvp_icd.*.json 2>/dev/null | head -n1 || true)"
[ -n "$LVP_ICD" ] || die "no lavapipe ICD (/usr/share/vulkan/icd.d/lvp_icd.*.json): install mesa-vulkan-drivers"
export VK_ICD_FILENAMES="$LVP_ICD"  # Vulkan loader before 1.3.207
export VK_DRIVER_FILES="$LVP_ICD"   # its newer name

# ---------------------------------------------------------------------------------------------
step "2/5 build kgscope --features vulkan (release) into $TARGET"
if [ "$skip_build" = 1 ]; then
  say "skipped (--skip-build)"
else
  # Seed a fresh target dir from the main one: every dependency whose features do not change
  # with `vulkan` is then reused as is (cargo's fingerprints hold no absolute target path), and
  # only llama-cpp-sys-2, llama-cpp-2 and kgscope compile.
  if [ ! -d "$TARGET/release/deps" ] && [ -d "$ROOT/target/release/deps" ] && [ "$TARGET" != "$ROOT/target" ]; then
    say "seeding $TARGET/release from target/release (deps, build, .fingerprint)"
    mkdir -p "$TARGET/release"
    for d in deps build .fingerprint; do
      [ -d "$ROOT/target/release/$d" ] && cp -a --reflink=auto "$ROOT/target/release/$d" "$TARGET/release/"
    done
  fi
  # A CMake cache from a configure against other Vulkan headers (a failed build before the
  # headers above were in place) would keep its Vulkan_INCLUDE_DIR: let CMake configure anew.
  for cache in "$TARGET"/release/build/llama-cpp-sys-2-*/out/build/CMakeCache.txt; do
    [ -f "$cache" ] || continue
    cached="$(sed -n 's/^Vulkan_INCLUDE_DIR:PATH=//p' "$cache")"
    if [ -n "$cached" ] && [ "$cached" != "$vk_headers" ]; then
      say "dropping a CMake cache configured with Vulkan headers in $cached"
      rm -f "$cache"
    fi
  done
  say "${VULKAN_SDK:+VULKAN_SDK=$VULKAN_SDK }nice -n 10 cargo build --release --features vulkan --target-dir $TARGET"
  say "(a first build compiles llama.cpp with its Vulkan shaders: 15-30 min on 2 cores)"
  t0=$(now)
  nice -n 10 cargo build --release --features vulkan --target-dir "$TARGET"
  t1=$(now)
  say "build took $(secs "$t0" "$t1") s"
fi
[ -x "$BIN" ] || die "no binary at $BIN (run without --skip-build)"
vk_lib="$(ldd "$BIN" | awk '/libvulkan/ { print $1 " => " $3 }')"
[ -n "$vk_lib" ] || die "$BIN does not link libvulkan: not a Vulkan build"
say "binary: $BIN"
say "links:  $vk_lib"

# ---------------------------------------------------------------------------------------------
step "3/5 the Vulkan device lavapipe provides"
say "VK_ICD_FILENAMES=VK_DRIVER_FILES=$LVP_ICD"
if command -v vulkaninfo >/dev/null; then
  vulkaninfo --summary 2>/dev/null | sed -n '/^Devices:/,$p' | sed 's/^/    /'
  device_type="$(vulkaninfo --summary 2>/dev/null | awk -F'= ' '/deviceType/ { print $2; exit }')"
  [ "$device_type" = PHYSICAL_DEVICE_TYPE_CPU ] || die "expected lavapipe's CPU-type device, got '${device_type:-none}'"
else
  say "vulkaninfo not installed (vulkan-tools): skipping the summary"
fi

# ---------------------------------------------------------------------------------------------
step "4/5 the default model, every layer offloaded to lavapipe"
model="$("$BIN" model path)"
if [ ! -f "$model" ]; then
  say "fetching the default model ($BIN model fetch)"
  "$BIN" model fetch
fi
say "model: $model"
rm -rf "$WORK"
mkdir -p "$WORK"

# One run into its own runs directory $WORK/$name (re-runs start clean).
#   $1 name, $2 --gpu-layers, $3 --scoring, $4 llama-cpp-2's log level, rest: `env` arguments.
# KGSCOPE_LLAMA_LOG=1 routes llama.cpp's log into tracing; KGSCOPE_LOG lets it (and kgscope's
# warnings) through to stderr, kept in $WORK/$name/stderr.log.
run_one() {
  local name="$1" layers="$2" scoring="$3" level="$4"; shift 4
  local dir="$WORK/$name" t0 t1
  mkdir -p "$dir/runs"
  say "\$ kgscope run --task $task --kg $kg --limit $limit --model default --parallel 1 --temperature 0 --gpu-layers $layers --scoring $scoring"
  t0=$(now)
  if ! env "$@" KGSCOPE_LLAMA_LOG=1 KGSCOPE_LOG="kgscope=warn,llama-cpp-2=$level" NO_COLOR=1 \
    "$BIN" run --task "$task" --kg "$kg" --limit "$limit" --model default \
    --parallel 1 --temperature 0 --gpu-layers "$layers" --scoring "$scoring" \
    --runs-dir "$dir/runs" --json >"$dir/metrics.json" 2>"$dir/stderr.log"; then
    tail -n 30 "$dir/stderr.log" | sed 's/^/    | /' >&2
    die "the $name run failed (full log: $dir/stderr.log)"
  fi
  t1=$(now)
  secs "$t0" "$t1" >"$dir/wall_s"
  say "  done in $(cat "$dir/wall_s") s"
}
# llama.cpp's lines that matter, without timestamps and levels.
show_log() {
  grep -E "$1" "$2" | sed -E 's/^[^ ]+ +(INFO|WARN|DEBUG|ERROR) +//; s/ module="[^"]*"$//' | sed 's/^/      | /' || true
}

# llama.cpp's Vulkan backend skips devices of type CPU unless GGML_VK_VISIBLE_DEVICES names
# them; lavapipe is device 0 (the loader sees no other driver).
say "load average before the runs: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores; other work on the machine slows both paths)"
say "GGML_VK_VISIBLE_DEVICES=0 (llama.cpp ignores CPU-type Vulkan devices unless named)"
run_one vulkan 99 generate debug GGML_VK_VISIBLE_DEVICES=0
vlog="$WORK/vulkan/stderr.log"
say "llama.cpp says:"
show_log '^[^ ]+ +[A-Z]+ +(Found [0-9]+ Vulkan|[0-9]+ = .*warp size|using device|offload|.*model buffer size|.*KV buffer size|.*compute buffer size|graph: nodes)' "$vlog"
offloaded="$(grep -oE 'offloaded [0-9]+/[0-9]+ layers to GPU' "$vlog" | tail -n1 || true)"
[ -n "$offloaded" ] || die "llama.cpp did not report offloading (log: $vlog)"
n_off="${offloaded#offloaded }"; n_off="${n_off%% layers*}"
[ "${n_off%/*}" = "${n_off#*/}" ] || die "not every layer was offloaded: $offloaded"
grep -q 'using device Vulkan' "$vlog" || die "llama.cpp did not use a Vulkan device (log: $vlog)"

# ---------------------------------------------------------------------------------------------
step "5/5 the same questions on the CPU path (--gpu-layers 0, same binary), compared"
# GGML_VK_VISIBLE_DEVICES unset: the CPU-type lavapipe device is skipped, so llama.cpp has no
# Vulkan device at all and offloads nothing, not even single operations.
run_one cpu 0 generate info -u GGML_VK_VISIBLE_DEVICES
clog="$WORK/cpu/stderr.log"
show_log 'No devices found|offloaded|using device' "$clog"
if grep -q 'using device Vulkan' "$clog"; then die "the CPU run used a Vulkan device (log: $clog)"; fi

# Greedy answers of a small model can flip at a near-tie when two backends round differently.
# To tell a near-tie from a wrong kernel, both paths also score the closed answers
# (--scoring logprob: one forward pass, every option's log-probability recorded).
case "$task" in statement | yesno | tfq | mcq-fib | mcq-wh | kg-fpq) closed=1 ;; *) closed=0 ;; esac
if [ "$logprob" = 1 ] && [ "$closed" = 1 ]; then
  say "option log-probabilities on both paths (to tell near-ties from wrong results):"
  run_one vulkan-logprob 99 logprob info GGML_VK_VISIBLE_DEVICES=0
  run_one cpu-logprob 0 logprob info -u GGML_VK_VISIBLE_DEVICES
else
  logprob=0
fi

say "comparison, question by question:"
set +e
python3 - "$WORK" "$strict" "$tolerance" "$logprob" <<'EOF'
import glob, json, statistics, sys

work, strict, tol, logprob = sys.argv[1], sys.argv[2] == "1", float(sys.argv[3]), sys.argv[4] == "1"

def load(name):
    files = glob.glob(f"{work}/{name}/runs/*/results.jsonl")
    if len(files) != 1:
        sys.exit(f"expected one run under {work}/{name}/runs, found {files}")
    recs = {}
    with open(files[0]) as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                recs[r["question"]["id"]] = r
    return recs

def text(r):
    return " | ".join(a.get("response", "") for a in r.get("attempts", []))

def likelihood(r):
    a = r.get("attempts") or [{}]
    return a[-1].get("likelihood")

def margin(lik):
    top = sorted(lik["logprobs"], reverse=True)
    return top[0] - top[1] if len(top) > 1 else float("inf")

vk, cpu = load("vulkan"), load("cpu")
lvk, lcpu = (load("vulkan-logprob"), load("cpu-logprob")) if logprob else ({}, {})
ids = sorted(set(vk) | set(cpu), key=lambda i: (cpu.get(i) or vk.get(i))["question"]["prompt"])
n = len(ids)
same_text = same_verdict = 0
problems = []
for i in ids:
    a, b = vk.get(i), cpu.get(i)
    if a is None or b is None:
        problems.append(f"question {i} is missing from the {'lavapipe' if a is None else 'CPU'} run")
        continue
    ta, tb = text(a), text(b)
    same_text += ta == tb
    same_verdict += a.get("verdict") == b.get("verdict")
    if ta == tb:
        continue
    print(f"    DIFF {a['question']['prompt']}")
    print(f"         lavapipe: {ta!r} -> {a.get('verdict')}")
    print(f"         cpu:      {tb!r} -> {b.get('verdict')}")
    la, lb = likelihood(lvk.get(i, {})), likelihood(lcpu.get(i, {}))
    if la and lb:
        fmt = lambda l: ", ".join(f"{o} {p:.3f}" for o, p in zip(l["options"], l["logprobs"]))
        m = margin(lb)
        print(f"         option log-probs, lavapipe: {fmt(la)}")
        print(f"         option log-probs, cpu:      {fmt(lb)}  (top-two margin {m:.3f} nats)")
        if a.get("verdict") != b.get("verdict") and m > tol:
            problems.append(f"verdicts differ where the CPU path is sure (margin {m:.3f} > {tol} nats): {a['question']['prompt']}")
    elif a.get("verdict") != b.get("verdict"):
        problems.append(f"verdicts differ: {a['question']['prompt']}")
    if strict:
        problems.append(f"answer text differs (--strict): {a['question']['prompt']}")

print(f"    answers equal: {same_text}/{n}")
print(f"    verdicts equal: {same_verdict}/{n}")
if logprob:
    deltas, chosen = [], 0
    for i in ids:
        la, lb = likelihood(lvk.get(i, {})), likelihood(lcpu.get(i, {}))
        if not (la and lb) or la["options"] != lb["options"]:
            problems.append(f"no comparable option log-probs for question {i}")
            continue
        deltas += [abs(x - y) for x, y in zip(la["logprobs"], lb["logprobs"])]
        chosen += la.get("chosen") == lb.get("chosen")
    if deltas:
        mx = max(deltas)
        print(f"    option log-probs: {len(deltas)} compared, |lavapipe - cpu| max {mx:.3f}, mean {statistics.mean(deltas):.3f} nats (tolerance {tol}); most likely option equal: {chosen}/{n}")
        if not mx <= tol:
            problems.append(f"option log-probs differ by up to {mx:.3f} nats (> {tol}): a kernel computes something else")

def timing(name, recs, wall):
    att = [a for r in recs.values() for a in r.get("attempts", [])]
    if not att:
        return
    first = min(recs.values(), key=lambda r: r.get("finished_at", ""))["attempts"][0]["total_ms"]
    per_q = statistics.median(a["total_ms"] for a in att)
    ttft = statistics.median(a.get("first_token_ms") or 0 for a in att)
    toks = [(a["total_ms"] - a["first_token_ms"]) / (a["completion_tokens"] - 1)
            for a in att if a.get("completion_tokens", 0) > 1 and a.get("first_token_ms") is not None]
    tok = f", {statistics.median(toks):.0f} ms per further token" if toks else ""
    print(f"    {name:9} wall {wall} s (model load included); first question {first / 1000:.1f} s; "
          f"median {per_q / 1000:.2f} s per question, {ttft / 1000:.2f} s to the first token{tok}")

print("    timing (generate runs):")
for name, d, recs in (("lavapipe", "vulkan", vk), ("cpu", "cpu", cpu)):
    timing(name, recs, open(f"{work}/{d}/wall_s").read().strip())
if logprob:
    print("    timing (logprob runs):")
    for name, d, recs in (("lavapipe", "vulkan-logprob", lvk), ("cpu", "cpu-logprob", lcpu)):
        timing(name, recs, open(f"{work}/{d}/wall_s").read().strip())

if n == 0:
    problems.append("no questions were answered")
for p in problems:
    print(f"    FAIL {p}")
sys.exit(3 if problems else 0)
EOF
cmp_rc=$?
set -e
say "load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
say "runs and logs: $WORK"
[ "$cmp_rc" -eq 0 ] || die "the lavapipe and CPU paths disagree (FAIL lines above)"
if [ "$logprob" = 1 ]; then
  printf '\nOK: %s on lavapipe; its option log-probabilities match the CPU path within %s nats, and every differing answer is a near-tie.\n' "$offloaded" "$tolerance"
else
  printf '\nOK: %s on lavapipe; same %s as the CPU path.\n' "$offloaded" "$([ "$strict" = 1 ] && echo answers || echo verdicts)"
fi
