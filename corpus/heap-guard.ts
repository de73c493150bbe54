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
