#!/usr/bin/env bash
# Records `kgscope demo` from the start of its first round to the start of its second one's run:
# each step, the second it came on screen, how long the demo keeps it, and the screen as it
# then was; then whether round two loaded the model again. Runs the real demo in tmux (120×40)
# with the bundled model (tools/setup.sh fetches it).
#
#   tools/capture-demo.sh [OUT] [-- extra `kgscope demo` arguments]
#
# OUT defaults to docs/captures/demo-round.txt. KGSCOPE_BIN names the binary
# (default target/release/kgscope).
set -euo pipefail
out=${1:-docs/captures/demo-round.txt}
shift || true
[ "${1:-}" = "--" ] && shift
bin=${KGSCOPE_BIN:-target/release/kgscope}
tmp=$(mktemp -d)
session="kgscope-capture-$$"
log="$tmp/demo.log"
frames="$tmp/frames"
mkdir -p "$frames"
cleanup() { tmux kill-session -t "$session" 2>/dev/null || true; }
trap cleanup EXIT
tmux new-session -d -s "$session" -x 120 -y 40 \
  "'$bin' demo --compare-with none --runs-dir '$tmp/runs' --log '$log' $*; sleep 600"
# A frame every quarter second, named by its time (seconds since the epoch, with fractions).
deadline=$(( $(date +%s) + ${CAPTURE_TIMEOUT:-1200} ))
while :; do
  t=$(date +%s.%N)
  tmux capture-pane -p -t "$session" > "$frames/$t.txt" 2>/dev/null || true
  # Done once round two has prepared its run (the model loaded again, or not).
  if grep -q 'round=1 step=Start' "$log" 2>/dev/null \
     && grep -Eq 'run started|run stopped' <(grep -A100 'round=1 step=Start' "$log"); then
    # A few more frames: round two's Live as its run begins.
    for _ in 1 2 3 4 5 6 7 8; do
      sleep 0.25
      tmux capture-pane -p -t "$session" > "$frames/$(date +%s.%N).txt" 2>/dev/null || true
    done
    break
  fi
  [ "$(date +%s)" -lt "$deadline" ] || { echo "capture-demo: timed out" >&2; break; }
  sleep 0.25
done
tmux send-keys -t "$session" x
python3 - "$log" "$frames" "$out" "$*" <<'EOF'
import datetime, os, re, sys
log, frames, out, args = sys.argv[1:5]
def ts(s):
    return datetime.datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()
lines = open(log).read().splitlines()
steps, events = [], []
for l in lines:
    m = re.match(r"(\S+)\s+INFO .*demo step round=(\d+) step=(\w+) dwell_ms=(\d+)", l)
    if m:
        steps.append((ts(m[1]), int(m[2]), m[3], int(m[4]) / 1000))
        continue
    m = re.match(r"(\S+)\s+INFO \S+ (.*)", l)
    if m and re.search(r"loading the model|is loaded already|model loaded|run started|run ended", m[2]):
        events.append((ts(m[1]), m[2]))
shots = sorted((float(f[:-4]), f) for f in os.listdir(frames))
t0 = steps[0][0]
def screen_after(t):
    # The first frame at least half a second after the step: the screen it drew.
    for ft, f in shots:
        if ft >= t + 0.5:
            return open(os.path.join(frames, f)).read().rstrip() + "\n"
    return "(no frame)\n"
w = open(out, "w")
w.write("kgscope demo, one round from its start to its finding, then round two's start\n")
w.write(f"(tools/capture-demo.sh, bundled model, 120x40{', ' + args if args else ''})\n\n")
w.write("  at (s)  round  step        stays (s)\n")
for t, r, s, d in steps:
    w.write(f"  {t - t0:6.1f}  {r + 1:>5}  {s:<11} {d:6.1f}\n")
w.write("\nmodel and run events (from the log):\n")
for t, e in events:
    w.write(f"  {t - t0:6.1f}  {e}\n")
loads = sum("loading the model" in e for _, e in events)
w.write(f"\nthe model was loaded {loads} time(s) over {len({r for _, r, _, _ in steps})} round(s)\n")
for t, r, s, d in steps:
    w.write(f"\n── {t - t0:.1f} s · round {r + 1} · {s} (stays {d:.1f} s) " + "─" * 40 + "\n")
    w.write(screen_after(t))
w.close()
print(open(out).read().split("\n\n── ")[0])
EOF
