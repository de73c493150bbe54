import { clip, InputError } from '../../corpus/errors.js';
import { canonicalSetting, comparableParams, programContents, programFamily } from './setting-value.js';

/**
 * Settings every row of one configuration shares within one run. Rows of a configuration that
 * differ in one (shards run with another --timeout, other params, a changed plugin) measured
 * something else: pooled under one name, compare and report would take them for repetitions.
 */
const SHARED = ['timeout_s', 'max_solutions', 'warmup', 'params', 'strategy_file'] as const;
type Shared = (typeof SHARED)[number];

/** The program a row ran, as --resume compares it (see programFamily); the setting is kept as `STRATEGY\0FILES`. */
function programOf(text: string): string {
  const [strategy, file] = text.split('\u0000') as [string, string];
  return `${programFamily({ strategy, file })} ${programContents(file)}`;
}

/** A setting as compared; null when the row says nothing of it (params an older version did not write). */
function comparable(column: Shared, text: string, strategy: string): string | null {
  if (column === 'params') return text === '' ? null : comparableParams(text, strategy);
  if (column === 'strategy_file') return programOf(text);
  return canonicalSetting(column, text);
}

interface FirstSeen {
  file: string;
  line: number;
  /** Per setting: the value as written (most rows repeat it: compared as text first) and as compared. */
  raw: (string | undefined)[];
  value: (string | null)[];
  /** Per setting: the row it was taken from, when not the first (whose rows said nothing of it). */
  at: ({ file: string; line: number } | undefined)[];
}

/** Checks, row by row across merge's inputs, that each configuration keeps the settings of its first row. */
export class ConfigurationSettings {
  private readonly first = new Map<string, FirstSeen>();

  /** Throws an InputError at the row when one of its settings differs from its configuration's first row's. */
  check(fields: readonly string[], at: Readonly<Record<string, number>>, config: string, file: string, line: number): void {
    const strategy = at.strategy === undefined ? '' : fields[at.strategy]!;
    const raw = SHARED.map((c) => (at[c] === undefined ? undefined : c === 'strategy_file' ? `${strategy}\u0000${fields[at[c]!]!}` : fields[at[c]!]));
    const seen = this.first.get(config);
    if (!seen) {
      this.first.set(config, { file, line, raw, value: raw.map((text, k) => (text === undefined ? null : comparable(SHARED[k]!, text, strategy))), at: [] });
      return;
    }
    for (let k = 0; k < SHARED.length; k++) {
      const text = raw[k];
      if (text === undefined || text === seen.raw[k]) continue;
      const value = comparable(SHARED[k]!, text, strategy);
      const was = seen.value[k];
      if (was === null) {
        // The first rows said nothing of it (an older version's): the first that does sets it.
        // And it is the row a later difference is found against.
        seen.raw[k] = text;
        seen.value[k] = value;
        seen.at[k] = { file, line };
        continue;
      }
      if (value === null || value === was) continue;
      const program = SHARED[k] === 'strategy_file';
      const builtIn = (t: string) => t.endsWith('\u0000');
      const setting = !program ? SHARED[k] : builtIn(text) || builtIn(seen.raw[k]!) ? 'program' : 'program files';
      const show = program ? shownProgram : shown;
      const there = seen.at[k] ?? seen;
      throw new InputError(
        file,
        line,
        `configuration ${clip(config)} ran with ${setting} ${show(text)} here and ${show(seen.raw[k]!)} at ${there.file}:${there.line}: rows of runs with other settings, which merge does not pool under one name (merge them apart, or run them under different names)`,
      );
    }
  }
}

const shown = (text: string) => (text === '' ? 'none' : clip(text));

/** A `STRATEGY\0FILES` setting as shown: a built-in by its name, else its files. */
const shownProgram = (text: string) => {
  const [strategy, file] = text.split('\u0000') as [string, string];
  return file === '' ? `the built-in strategy ${clip(strategy)}` : clip(file);
};
