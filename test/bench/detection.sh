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
# The slowdown: after each solve, as much more computation as the solve took CPU time, times 0.25,
# measured on the thread's own clock as the harness measures it.
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
function slowedBy<T>(fraction: number, solve: () => T): T {
  const start = slowdownCpuMs();
  const result = solve();
  const until = slowdownCpuMs() + (slowdownCpuMs() - start) * fraction;
  let x = 1;
  while (slowdownCpuMs() < until) for (let i = 0; i < 2000; i++) x = (x ^ (x << 13) ^ (x >>> 17)) | 0;
  if (x === 0) throw new Error('unreachable');
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
  done
done
