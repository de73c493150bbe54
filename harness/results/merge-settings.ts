import { clip, InputError } from '../../corpus/errors.js';
import { canonicalSetting, comparableParams } from './setting-value.js';

/**
 * Settings every row of one configuration shares within one run. Rows of a configuration that
 * differ in one (shards run with another --timeout, other params, a changed plugin) measured
 * something else: pooled under one name, compare and report would take them for repetitions.
 */
const SHARED = ['timeout_s', 'max_solutions', 'warmup', 'params', 'strategy_file'] as const;
type Shared = (typeof SHARED)[number];

/** A plugin's or program's files by their contents (`PATH@HASH …`): paths move with the checkout. */
const contentsOf = (text: string) => [...text.matchAll(/@([0-9a-f]{12})(?: |$)/g)].map((m) => m[1]).join(' ');

/** A setting as compared; null when the row says nothing of it (params an older version did not write). */
function comparable(column: Shared, text: string, strategy: string): string | null {
  if (column === 'params') return text === '' ? null : comparableParams(text, strategy);
  if (column === 'strategy_file') return contentsOf(text);
  return canonicalSetting(column, text);
}

interface FirstSeen {
  file: string;
  line: number;
  /** Per setting: the value as written (most rows repeat it: compared as text first) and as compared. */
  raw: (string | undefined)[];
  value: (string | null)[];
}

/** Checks, row by row across merge's inputs, that each configuration keeps the settings of its first row. */
export class ConfigurationSettings {
  private readonly first = new Map<string, FirstSeen>();

  /** Throws an InputError at the row when one of its settings differs from its configuration's first row's. */
  check(fields: readonly string[], at: Readonly<Record<string, number>>, config: string, file: string, line: number): void {
    const strategy = at.strategy === undefined ? '' : fields[at.strategy]!;
    const raw = SHARED.map((c) => (at[c] === undefined ? undefined : fields[at[c]!]));
    const seen = this.first.get(config);
    if (!seen) {
      this.first.set(config, { file, line, raw, value: raw.map((text, k) => (text === undefined ? null : comparable(SHARED[k]!, text, strategy))) });
      return;
    }
    for (let k = 0; k < SHARED.length; k++) {
      const text = raw[k];
      if (text === undefined || text === seen.raw[k]) continue;
      const value = comparable(SHARED[k]!, text, strategy);
      const was = seen.value[k];
      if (was === null) {
        // The first rows said nothing of it (an older version's): the first that does sets it.
        seen.raw[k] = text;
        seen.value[k] = value;
        continue;
      }
      if (value === null || value === was) continue;
      const setting = SHARED[k] === 'strategy_file' ? 'program files' : SHARED[k];
      throw new InputError(
        file,
        line,
        `configuration ${clip(config)} ran with ${setting} ${shown(text)} here and ${shown(seen.raw[k]!)} at ${seen.file}:${seen.line}: rows of runs with other settings, which merge does not pool under one name (merge them apart, or run them under different names)`,
      );
    }
  }
}

const shown = (text: string) => (text === '' ? 'none' : clip(text));
