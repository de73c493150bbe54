#!/usr/bin/env bash
# How often `npm run bench:check` fails on this checkout unchanged, and on a copy of it whose `sat`
# strategy spends 25% more CPU time per solve, under load (the checks alternate: unchanged, slowed,
# unchanged, …). Prints each check's exit code and verdict line.
#
#   bash test/bench/detection.sh [RUNS] [steady|intermittent] [KEEP_DIR]
#
# RUNS: checks of each (default 5); run from a clean checkout, built. The load: `steady`, two busy
# processes all along (default); `intermittent`, two processes streaming through 512 MB arrays (which
# slows other processes' CPU time too, through memory and caches) switched on and off for 5 to 40 s
# at random. KEEP_DIR keeps each check's rerun and ab folder (unchanged-N-ab/, slowed-N-ab/), whose
# turns `node dist/test/bench/turns.js` draws on.
set -u
runs=${1:-5}
load=${2:-steady}
keep=${3:-}
case $load in steady | intermittent) ;; *) echo "detection.sh: the load is steady or intermittent, not $load" >&2; exit 2 ;; esac
root=$(git rev-parse --show-toplevel)
work=$(mktemp -d)
slowed="$work/slowed"
cleanup() {
  kill "${busy[@]}" 2>/dev/null
  git -C "$root" worktree remove --force "$slowed" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

git -C "$root" worktree add --quiet --detach "$slowed" HEAD
cp -al "$root/node_modules" "$slowed/node_modules"
# The slowdown: after each solve, a quarter of the CPU time it took in more computation (loop turns
# calibrated on the thread's own clock, as the harness measures it; the readings' own cost included).
sed -i 's/^  solve: solveBySat,$/  solve: (puzzle: Puzzle, options: SolveOptions) => slowedBy(0.25, () => solveBySat(puzzle, options)),/' "$slowed/solvers/strategies/sat.ts"
grep -q slowedBy "$slowed/solvers/strategies/sat.ts" || { echo "detection.sh: sat.ts no longer has the line to patch" >&2; exit 2; }
cat >> "$slowed/solvers/strategies/sat.ts" <<'EOF'

import { openSync as openForSlowdown, readSync as readForSlowdown } from 'node:fs';
const slowdownClock = openForSlowdown('/proc/thread-self/schedstat', 'r');
const slowdownBuffer = Buffer.alloc(64);
const slowdownSleep = new Int32Array(new SharedArrayBuffer(4));
function slowdownCpuMs(): number {
  Atomics.wait(slowdownSleep, 0, 0, 0.01);
  const n = readForSlowdown(slowdownClock, slowdownBuffer, 0, 64, 0);
  return Number.parseInt(slowdownBuffer.toString('latin1', 0, n), 10) / 1e6;
}
// What two readings cost, and how many loop turns a millisecond of CPU takes, measured once.
function slowdownCalibration(): { readingMs: number; turnsPerMs: number } {
  const costs: number[] = [];
  for (let i = 0; i < 31; i++) {
    const a = slowdownCpuMs();
    costs.push(slowdownCpuMs() - a);
  }
  const readingMs = costs.sort((p, q) => p - q)[15]!;
  spin(2_000_000); // optimised before it is timed
  const start = slowdownCpuMs();
  spin(2_000_000);
  return { readingMs, turnsPerMs: 2_000_000 / Math.max(1e-3, slowdownCpuMs() - start - readingMs) };
}
let slowdownScale: { readingMs: number; turnsPerMs: number } | undefined;
function spin(turns: number): void {
  let x = 1;
  for (let i = 0; i < turns; i++) x = (x ^ (x << 13) ^ (x >>> 17)) | 0;
  if (x === 0) throw new Error('unreachable');
}
function slowedBy<T>(fraction: number, solve: () => T): T {
  slowdownScale ??= slowdownCalibration();
  const start = slowdownCpuMs();
  const result = solve();
  // The solve's CPU time, less what the two readings cost; the readings are part of the slowdown.
  const solveMs = slowdownCpuMs() - start - slowdownScale.readingMs;
  spin(Math.max(0, fraction * solveMs - slowdownScale.readingMs) * slowdownScale.turnsPerMs);
  return result;
}
EOF
(cd "$slowed" && npm run build --silent) || exit 2

busy=()
if [ "$load" = steady ]; then
  yes >/dev/null & busy+=($!)
  yes >/dev/null & busy+=($!)
else
  stream='const a = new Float64Array(64 << 20); for (;;) for (let i = 0; i < a.length; i += 8) a[i] += 1;'
  (
    trap 'kill $(jobs -p) 2>/dev/null; exit' TERM
    while true; do
      node -e "$stream" & node -e "$stream" &
      sleep $((5 + RANDOM % 36)) & wait $! # waiting in the background lets the trap end it at once
      kill $(jobs -p) 2>/dev/null
      sleep $((5 + RANDOM % 36)) & wait $!
    done
  ) & busy+=($!)
fi
[ -n "$keep" ] && mkdir -p "$keep"

for i in $(seq 1 "$runs"); do
  for side in unchanged slowed; do
    dir=$root
    [ "$side" = slowed ] && dir=$slowed
    log="$work/$side-$i.log"
    out=()
    [ -n "$keep" ] && out=(--run-out "$(realpath "$keep")/$side-$i.csv")
    (cd "$dir" && npm run --silent bench:check -- "${out[@]}" >"$log" 2>&1)
    code=$?
    echo "$side $i: exit $code: $(grep -E '^(OK|FAIL)' "$log" | tail -1)"
    # Each strategy's typical ratio NEW/BASE in the A/B part (the last per-strategy table).
    echo "  typical ratios: $(grep -E '^(enumeration|overlap|backtrack|probe|sat|auto) +[0-9]' "$log" | tail -6 | awk '{printf "%s %s  ", $1, $5}')"
  done
done
