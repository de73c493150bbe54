import { getHeapStatistics } from 'node:v8';
import { InputError } from './errors.js';

/**
 * Puzzles are read whole before anything runs, so a file of millions of them (47 MB of 1×1
 * tournament puzzles is four million) would fill the heap and end the process with V8's
 * out-of-memory abort. Readers call checkHeap for each puzzle; past this share of the heap limit the
 * load stops with one line. The heap's use counts garbage not yet collected, which V8 collects as
 * the heap fills: near this share, what is left is mostly live, and V8 gives up a little further on
 * (at about 83% of the limit with a 256 MiB old space, whose young generation counts in the limit).
 */
const MAX_HEAP_SHARE = 0.75;
/**
 * What V8's heap limit holds beside the old generation (puzzles end up there): its young generation,
 * three semi-spaces of 16 MiB on 64-bit Node whatever --max-old-space-size says. With a small old
 * space it is most of the limit: 75% of 176 MiB lies beyond a 128 MiB old space.
 */
const YOUNG_GENERATION_BYTES = 48 * 2 ** 20;
/** Puzzles between two looks at the heap (a look costs about a microsecond). */
const LOOK_EVERY = 64;

let sinceLook = 0;

/** No more puzzles fit in memory: ends the whole load (every command that reads puzzles exits 2). */
export class CorpusTooLarge extends InputError {}

/** Called once per puzzle read or built, at its file and line: throws CorpusTooLarge once the heap is too full. */
export function checkHeap(file: string, line: number): void {
  if (++sinceLook < LOOK_EVERY) return;
  sinceLook = 0;
  const { used_heap_size: used, heap_size_limit: limit } = getHeapStatistics();
  const oldSpace = Math.max(limit - YOUNG_GENERATION_BYTES, limit / 2);
  if (used <= MAX_HEAP_SHARE * oldSpace) return;
  throw new CorpusTooLarge(
    file,
    line,
    `more puzzles than memory holds (the heap is ${Math.round((100 * used) / oldSpace)}% of its ${Math.round(oldSpace / 2 ** 20)} MiB limit here): load a part (FILE#FIRST-LAST), or give node more (NODE_OPTIONS=--max-old-space-size=MIB)`,
  );
}

/**
 * Most lines a file may have: V8's arrays hold at most 2^27 − 1 (134,217,727) elements, and splitting
 * more aborts the process.
 */
export const MAX_LINES = 100_000_000;
/**
 * What a line that is not empty takes on the heap once the text is split: its array slot and its
 * string. (Empty lines share one string; V8 holds tens of millions of them in a small heap.)
 */
const BYTES_PER_LINE = 32;

const count = (n: number) => n.toLocaleString('en-US');

/**
 * Refuses, with one line at the file as a whole, a text that splitting into lines would not fit in:
 * V8 aborts the process inside the split (ten million short lines with `--max-old-space-size=128`,
 * 134 million lines with any heap), before any per-puzzle look at the heap. The file is skipped and
 * the others still load, since nothing of it was built.
 */
export function checkLineCount(text: string, file: string): void {
  let lines = 1;
  let filled = 0;
  let start = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', start)) {
    if (at > start && !(at === start + 1 && text.charCodeAt(start) === 13)) filled++;
    lines++;
    start = at + 1;
  }
  if (start < text.length) filled++;
  if (lines > MAX_LINES) throw new InputError(file, 0, `${count(lines)} lines, more than the ${count(MAX_LINES)} a file may have`);
  const { used_heap_size: used, heap_size_limit: limit } = getHeapStatistics();
  const oldSpace = Math.max(limit - YOUNG_GENERATION_BYTES, limit / 2);
  if (used + filled * BYTES_PER_LINE <= MAX_HEAP_SHARE * oldSpace) return;
  throw new InputError(
    file,
    0,
    `${count(filled)} lines that are not empty, more than memory holds (the heap's limit is ${Math.round(oldSpace / 2 ** 20)} MiB here): give node more (NODE_OPTIONS=--max-old-space-size=MIB)`,
  );
}
