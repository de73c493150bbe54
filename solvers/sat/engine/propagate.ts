import type { EngineState } from './state.js';

/**
 * Unit propagation to a fixpoint; returns the conflict or NO_REASON. For each literal taken off
 * the trail, the binary clauses it falsifies come first, from a list of their other literals: an
 * implied literal keeps the false one as its reason (see binaryReason), and a conflicting binary
 * clause is returned as binaryReason(other literal), with the false literal left in
 * `s.binaryConflictLit`, so neither reads the clause. Then the longer clauses, with two watched
 * literals, the first two of the clause: each watcher carries a blocker, another literal of its
 * clause, and when the blocker is true the clause is skipped unread.
 *
 * This is the hot loop of the engine, written for the JIT: every array is a local typed array,
 * assignments are inlined (they do what EngineState.enqueue does), and the constants are literals:
 * literal values TRUE = 1, FALSE = -1, UNDEF = 0 and NO_REASON = -1, binaryReason(l) = -2 - l
 * (literals.ts), and clause literals at cr + HEADER = cr + 4, after the search position at cr + 3
 * (clause-arena.ts).
 */
export function propagate(s: EngineState): number {
  const { vals, trail, level, reason, trailPos, binaries, watches } = s;
  const decisionLevel = s.levels;
  const binBuf = binaries.buf; // no binary clause is added during propagation
  const binStart = binaries.start;
  const binCount = binaries.count;
  const watchStart = watches.start;
  const watchCount = watches.count;
  let ws = watches.buf; // re-read after a push, which may grow it
  const mem = s.arena.mem; // no clause is allocated during propagation
  const start = s.qhead;
  let qhead = start;
  let trailSize = s.trailSize;
  let conflict = -1;
  while (qhead < trailSize) {
    const falseLit = trail[qhead++]! ^ 1;

    const binEnd = binStart[falseLit]! + binCount[falseLit]!;
    for (let b = binStart[falseLit]!; b < binEnd; b++) {
      const other = binBuf[b]!;
      const value = vals[other]!;
      if (value === 1) continue;
      if (value === -1) {
        s.binaryConflictLit = falseLit;
        conflict = -2 - other;
        break;
      }
      const v = other >> 1;
      vals[other] = 1;
      vals[other ^ 1] = -1;
      level[v] = decisionLevel;
      reason[v] = -2 - falseLit;
      trailPos[v] = trailSize;
      trail[trailSize++] = other;
    }
    if (conflict !== -1) break;

    const listStart = watchStart[falseLit]!;
    const n = listStart + watchCount[falseLit]!;
    let i = listStart;
    let j = listStart;
    while (i < n) {
      const cr = ws[i]!;
      const blocker = ws[i + 1]!;
      i += 2;
      if (vals[blocker] === 1) {
        ws[j] = cr;
        ws[j + 1] = blocker;
        j += 2;
        continue;
      }
      // Keep the false literal in the second slot.
      const base = cr + 4;
      let first = mem[base]!;
      if (first === falseLit) {
        first = mem[base + 1]!;
        mem[base] = first;
        mem[base + 1] = falseLit;
      }
      if (first !== blocker && vals[first] === 1) {
        ws[j] = cr;
        ws[j + 1] = first;
        j += 2;
        continue;
      }
      // Look for a literal that is not false to watch instead, from where the last search ended.
      const end = base + mem[cr]!;
      const from = base + mem[cr + 3]!;
      let k = from;
      while (k < end && vals[mem[k]!] === -1) k++;
      if (k === end) {
        k = base + 2;
        while (k < from && vals[mem[k]!] === -1) k++;
        if (k === from) k = end;
      }
      if (k < end) {
        mem[cr + 3] = k - base;
        const l = mem[k]!;
        mem[base + 1] = l;
        mem[k] = falseLit;
        watches.push(l, cr, first); // never this list: l is not false
        ws = watches.buf;
        continue;
      }
      // The clause is unit or conflicting.
      ws[j] = cr;
      ws[j + 1] = first;
      j += 2;
      if (vals[first] === -1) {
        conflict = cr;
        while (i < n) ws[j++] = ws[i++]!;
        break;
      }
      const v = first >> 1;
      vals[first] = 1;
      vals[first ^ 1] = -1;
      level[v] = decisionLevel;
      reason[v] = cr;
      trailPos[v] = trailSize;
      trail[trailSize++] = first;
    }
    watchCount[falseLit] = j - listStart;
    if (conflict !== -1) break;
  }
  s.trailSize = trailSize;
  s.stats.propagations += qhead - start;
  s.qhead = conflict === -1 ? qhead : trailSize;
  return conflict;
}
