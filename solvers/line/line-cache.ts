/**
 * Caches of line-solver results, so that the same state of the same line is solved only once.
 * All three forget everything when full (states met again are simply solved again): an age-aware
 * eviction would cost more bookkeeping than it saves on a search's recurring states.
 */

/** Marks a line found impossible. Mask words hold 31 bits, so they never have the sign bit. */
export const IMPOSSIBLE_LINE = -1;

export const CACHE_MISS = 0;
export const CACHE_HIT = 1;
export const CACHE_IMPOSSIBLE = 2;

const SLOT = 9; // line + 1 (0 = free slot), filled lo/hi, empty lo/hi, then the same four for the result
const FIRST_SLOTS = 1 << 12;
const MAX_SLOTS = 1 << 20;

/**
 * Results of lines held as two-word bit masks (lines up to 61 cells), keyed by (line index, FILLED
 * mask, EMPTY mask), in one Int32Array with open addressing and linear probing.
 */
export class MaskLineCache {
  /** After a hit: the line's deduced masks (filledLo = IMPOSSIBLE_LINE for an impossible line). */
  filledLo = 0;
  filledHi = 0;
  emptyLo = 0;
  emptyHi = 0;
  resets = 0;
  private table = new Int32Array(FIRST_SLOTS * SLOT);
  private slots = FIRST_SLOTS;
  private used = 0;
  /** Free slot where the last missed key goes. */
  private vacancy = 0;

  /** True on a hit (results in filledLo … emptyHi). A miss remembers where `store` puts the key. */
  lookup(line: number, filledLo: number, filledHi: number, emptyLo: number, emptyHi: number): boolean {
    const table = this.table;
    const mask = this.slots - 1;
    let slot = hash(line, filledLo, filledHi, emptyLo, emptyHi) & mask;
    const tag = line + 1;
    for (;;) {
      const at = slot * SLOT;
      const t = table[at]!;
      if (t === 0) {
        this.vacancy = slot;
        return false;
      }
      if (
        t === tag &&
        table[at + 1] === filledLo &&
        table[at + 2] === filledHi &&
        table[at + 3] === emptyLo &&
        table[at + 4] === emptyHi
      ) {
        this.filledLo = table[at + 5]!;
        this.filledHi = table[at + 6]!;
        this.emptyLo = table[at + 7]!;
        this.emptyHi = table[at + 8]!;
        return true;
      }
      slot = (slot + 1) & mask;
    }
  }

  /** Stores the result for the key of the last missed `lookup` (resultFilledLo = IMPOSSIBLE_LINE when impossible). */
  store(
    line: number,
    filledLo: number,
    filledHi: number,
    emptyLo: number,
    emptyHi: number,
    resultFilledLo: number,
    resultFilledHi: number,
    resultEmptyLo: number,
    resultEmptyHi: number,
  ): void {
    if (this.used * 2 >= this.slots) {
      this.makeRoom();
      this.lookup(line, filledLo, filledHi, emptyLo, emptyHi);
    }
    const at = this.vacancy * SLOT;
    const table = this.table;
    table[at] = line + 1;
    table[at + 1] = filledLo;
    table[at + 2] = filledHi;
    table[at + 3] = emptyLo;
    table[at + 4] = emptyHi;
    table[at + 5] = resultFilledLo;
    table[at + 6] = resultFilledHi;
    table[at + 7] = resultEmptyLo;
    table[at + 8] = resultEmptyHi;
    this.used++;
  }

  private makeRoom(): void {
    if (this.slots < MAX_SLOTS) {
      const old = this.table;
      this.slots *= 2;
      this.table = new Int32Array(this.slots * SLOT);
      this.used = 0;
      const mask = this.slots - 1;
      for (let at = 0; at < old.length; at += SLOT) {
        if (old[at] === 0) continue;
        let slot = hash(old[at]! - 1, old[at + 1]!, old[at + 2]!, old[at + 3]!, old[at + 4]!) & mask;
        while (this.table[slot * SLOT] !== 0) slot = (slot + 1) & mask;
        this.table.set(old.subarray(at, at + SLOT), slot * SLOT);
        this.used++;
      }
      return;
    }
    this.resets++;
    this.table.fill(0);
    this.used = 0;
  }
}

function hash(line: number, filledLo: number, filledHi: number, emptyLo: number, emptyHi: number): number {
  let h = Math.imul(filledLo ^ (line << 24), 0x9e3779b1);
  h = Math.imul(h ^ (h >>> 15) ^ filledHi, 0x85ebca77);
  h = Math.imul(h ^ (h >>> 13) ^ emptyLo, 0xc2b2ae3d);
  h = Math.imul(h ^ (h >>> 16) ^ emptyHi, 0x27d4eb2f);
  return finish(h);
}

/** Words of a SetLineCache table kept before it is emptied (32 MB). */
const SET_TABLE_MAX_WORDS = 1 << 23;

/**
 * Results of lines held as bit sets of `setWords` words each (the FILLED set, then the EMPTY set:
 * exact-multi.ts), keyed by (line index, both sets), in one Int32Array with open addressing and
 * linear probing. A slot holds the line + 1 (0 = free), the key's 2·setWords words, then the
 * result's (its first word IMPOSSIBLE_LINE for an impossible line).
 */
export class SetLineCache {
  resets = 0;
  private readonly keyWords: number;
  private readonly slotWords: number;
  private table: Int32Array;
  private slots = FIRST_SLOTS;
  private used = 0;
  /** The slot the last probe ended on (see probe). */
  private at = 0;

  /** `maxWords` bounds the table (tests make it small to see it emptied). */
  constructor(
    readonly setWords: number,
    private readonly maxWords = SET_TABLE_MAX_WORDS,
  ) {
    this.keyWords = 2 * setWords;
    this.slotWords = 1 + 2 * this.keyWords;
    this.table = new Int32Array(this.slots * this.slotWords);
  }

  /**
   * CACHE_HIT (the result copied into `out`, as `key` is laid out), CACHE_IMPOSSIBLE, or
   * CACHE_MISS (the free slot is remembered for `store`).
   */
  lookup(line: number, key: Int32Array, out: Int32Array): number {
    if (!this.probe(line, key)) return CACHE_MISS;
    const { table, keyWords } = this;
    const result = this.at + 1 + keyWords;
    if (table[result] === IMPOSSIBLE_LINE) return CACHE_IMPOSSIBLE;
    for (let i = 0; i < keyWords; i++) out[i] = table[result + i]!;
    return CACHE_HIT;
  }

  /** Stores the result for the key of the last missed `lookup` (null when the line is impossible). */
  store(line: number, key: Int32Array, result: Int32Array | null): void {
    if (this.used * 2 >= this.slots) {
      this.makeRoom();
      this.probe(line, key);
    }
    const { table, keyWords } = this;
    const at = this.at;
    table[at] = line + 1;
    for (let i = 0; i < keyWords; i++) table[at + 1 + i] = key[i]!;
    const to = at + 1 + keyWords;
    if (result === null) table[to] = IMPOSSIBLE_LINE;
    else for (let i = 0; i < keyWords; i++) table[to + i] = result[i]!;
    this.used++;
  }

  /** True when the key is stored, at slot offset `at`; otherwise `at` is the free slot where it goes. */
  private probe(line: number, key: Int32Array): boolean {
    const { table, keyWords, slotWords } = this;
    const mask = this.slots - 1;
    const tag = line + 1;
    let slot = hashSets(tag, key, keyWords) & mask;
    for (;;) {
      const at = slot * slotWords;
      const t = table[at]!;
      this.at = at;
      if (t === 0) return false;
      if (t === tag && sameWords(table, at + 1, key, keyWords)) return true;
      slot = (slot + 1) & mask;
    }
  }

  private makeRoom(): void {
    const { slotWords, keyWords } = this;
    if (this.slots * 2 * slotWords <= this.maxWords) {
      const old = this.table;
      this.slots *= 2;
      this.table = new Int32Array(this.slots * slotWords);
      this.used = 0;
      const mask = this.slots - 1;
      for (let at = 0; at < old.length; at += slotWords) {
        if (old[at] === 0) continue;
        let slot = hashSets(old[at]!, old.subarray(at + 1, at + 1 + keyWords), keyWords) & mask;
        while (this.table[slot * slotWords] !== 0) slot = (slot + 1) & mask;
        this.table.set(old.subarray(at, at + slotWords), slot * slotWords);
        this.used++;
      }
      return;
    }
    this.resets++;
    this.table.fill(0);
    this.used = 0;
  }
}

function hashSets(tag: number, key: Int32Array, words: number): number {
  let h = Math.imul(tag, 0x9e3779b1);
  for (let i = 0; i < words; i++) h = Math.imul(h ^ (h >>> 15) ^ key[i]!, 0x85ebca77);
  return finish(h);
}

/** A multiplication moves bits only upwards: this mixes the last word's high bits down to the slot bits (murmur3's finalizer). */
function finish(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** True when a[at …] and b[0 …] agree on `words` words. */
export function sameWords(a: Int32Array, at: number, b: Int32Array, words: number): boolean {
  for (let i = 0; i < words; i++) if (a[at + i] !== b[i]) return false;
  return true;
}

/** Lines up to this many cells get a numeric key (3^33 < 2^53); longer ones a string key. */
const NUMERIC_KEY_MAX = 33;
/** Result bytes kept before the cache is emptied. */
const ARENA_MAX = 1 << 24;

/**
 * Results of lines held as cell arrays (any length), keyed by line index and the line's cells.
 * A result is the solved line, stored in a shared byte arena.
 */
export class ArrayLineCache {
  resets = 0;
  private readonly maps: Map<number | string, number>[];
  private arena = new Uint8Array(1 << 16);
  private arenaUsed = 0;
  private missKey: number | string = 0;

  constructor(lines: number) {
    this.maps = Array.from({ length: lines }, () => new Map());
  }

  /**
   * CACHE_HIT (and `cells` overwritten with the cached solved line), CACHE_IMPOSSIBLE (the line
   * was found impossible before) or CACHE_MISS (the key is remembered for `store`).
   */
  lookup(line: number, cells: Uint8Array, length: number): number {
    const key = lineKey(cells, length);
    const hit = this.maps[line]!.get(key);
    if (hit === undefined) {
      this.missKey = key;
      return CACHE_MISS;
    }
    if (hit === IMPOSSIBLE_LINE) return CACHE_IMPOSSIBLE;
    cells.set(this.arena.subarray(hit, hit + length));
    return CACHE_HIT;
  }

  /** Stores the outcome for the key of the last missed `lookup`: the solved cells, or null when impossible. */
  store(line: number, cells: Uint8Array | null, length: number): void {
    const map = this.maps[line]!;
    if (cells === null) {
      map.set(this.missKey, IMPOSSIBLE_LINE);
      return;
    }
    if (this.arenaUsed + length > this.arena.length) {
      if (this.arena.length * 2 <= ARENA_MAX) {
        const bigger = new Uint8Array(this.arena.length * 2);
        bigger.set(this.arena.subarray(0, this.arenaUsed));
        this.arena = bigger;
      } else {
        this.resets++;
        for (const m of this.maps) m.clear();
        this.arenaUsed = 0;
      }
    }
    this.arena.set(cells.subarray(0, length), this.arenaUsed);
    map.set(this.missKey, this.arenaUsed);
    this.arenaUsed += length;
  }
}

/** A key naming a line state exactly: base-3 digits as a number, or as a string for long lines. */
function lineKey(cells: Uint8Array, length: number): number | string {
  if (length <= NUMERIC_KEY_MAX) {
    let key = 0;
    for (let i = 0; i < length; i++) key = key * 3 + cells[i]!;
    return key;
  }
  // Ten cells per UTF-16 unit (3^10 = 59049 < 65536).
  let key = '';
  for (let i = 0; i < length; i += 10) {
    let chunk = 0;
    const end = Math.min(length, i + 10);
    for (let j = i; j < end; j++) chunk = chunk * 3 + cells[j]!;
    key += String.fromCharCode(chunk);
  }
  return key;
}
