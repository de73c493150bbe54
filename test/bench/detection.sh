#!/usr/bin/env bash
# How often `npm run bench:check` fails on this checkout unchanged, and on a copy of it whose `sat`
# strategy spends 25% more CPU time per solve, with two busy processes beside them (the checks
# alternate: unchanged, slowed, unchanged, …). Prints each check's exit code and verdict line.
#
#   bash test/bench/detection.sh [RUNS]     (default 5 of each; run from a clean checkout, built)
set -u
runs=${1:-5}
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
yes >/dev/null & busy+=($!)
yes >/dev/null & busy+=($!)

for i in $(seq 1 "$runs"); do
  for side in unchanged slowed; do
    dir=$root
    [ "$side" = slowed ] && dir=$slowed
    log="$work/$side-$i.log"
    (cd "$dir" && npm run --silent bench:check >"$log" 2>&1)
    code=$?
    echo "$side $i: exit $code: $(grep -E '^(OK|FAIL)' "$log" | tail -1)"
    # Each strategy's typical ratio NEW/BASE in the A/B part (the last per-strategy table).
    echo "  typical ratios: $(grep -E '^(enumeration|overlap|backtrack|probe|sat) +[0-9]' "$log" | tail -5 | awk '{printf "%s %s  ", $1, $5}')"
  done
done
