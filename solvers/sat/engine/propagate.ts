import { HEADER } from './clause-arena.js';
import { binaryReason, clauseOfWatcher, FALSE, isBinaryWatcher, NO_REASON, TRUE } from './literals.js';
import type { EngineState } from './state.js';

/**
 * Unit propagation to a fixpoint with two watched literals per clause; returns the conflicting
 * clause or NO_REASON. Each watcher carries a blocker, another literal of its clause: when the
 * blocker is true the clause is skipped unread. A binary clause's blocker is its other literal, so
 * propagating it never reads the clause, and the literal it implies keeps that other literal as
 * its reason (see binaryReason).
 */
export function propagate(s: EngineState): number {
  const { vals, watches } = s;
  const { start: watchStart, count: watchCount } = watches;
  let ws = watches.buf; // re-read after a push, which may grow it
  const mem = s.arena.mem; // no clause is allocated during propagation
  const start = s.qhead;
  let qhead = start;
  let conflict = NO_REASON;
  while (qhead < s.trailSize) {
    const falseLit = s.trail[qhead++]! ^ 1;
    const listStart = watchStart[falseLit]!;
    const n = listStart + watchCount[falseLit]!;
    let i = listStart;
    let j = listStart;
    while (i < n) {
      const watcher = ws[i]!;
      const blocker = ws[i + 1]!;
      i += 2;
      const blockerValue = vals[blocker]!;
      if (blockerValue === TRUE) {
        ws[j++] = watcher;
        ws[j++] = blocker;
        continue;
      }
      if (isBinaryWatcher(watcher)) {
        ws[j++] = watcher;
        ws[j++] = blocker;
        if (blockerValue === FALSE) {
          conflict = clauseOfWatcher(watcher);
          while (i < n) ws[j++] = ws[i++]!;
        } else {
          s.enqueue(blocker, binaryReason(falseLit));
        }
        continue;
      }
      const cr = watcher;
      // Keep the false literal in the second slot.
      const base = cr + HEADER;
      if (mem[base] === falseLit) {
        mem[base] = mem[base + 1]!;
        mem[base + 1] = falseLit;
      }
      const first = mem[base]!;
      if (first !== blocker && vals[first] === TRUE) {
        ws[j++] = cr;
        ws[j++] = first;
        continue;
      }
      // Look for a literal that is not false to watch instead.
      const end = base + mem[cr]!;
      let moved = false;
      for (let k = base + 2; k < end; k++) {
        const l = mem[k]!;
        if (vals[l] !== FALSE) {
          mem[base + 1] = l;
          mem[k] = falseLit;
          watches.push(l, cr, first); // never this list: l is not false
          ws = watches.buf;
          moved = true;
          break;
        }
      }
      if (moved) continue;
      // The clause is unit or conflicting.
      ws[j++] = cr;
      ws[j++] = first;
      if (vals[first] === FALSE) {
        conflict = cr;
        while (i < n) ws[j++] = ws[i++]!;
      } else {
        s.enqueue(first, cr);
      }
    }
    watchCount[falseLit] = j - listStart;
    if (conflict !== NO_REASON) break;
  }
  s.stats.propagations += qhead - start;
  s.qhead = conflict === NO_REASON ? qhead : s.trailSize;
  return conflict;
}
