import { oneLineText } from '../../corpus/errors.js';
import type { RunColumn } from '../results/row.js';
import { canonicalSetting } from '../results/setting-value.js';
import { heldRows, type PairGroups } from './pairs.js';
import { resolveParams, type Params } from '../../solvers/api/params.js';
import { builtInStrategies } from '../../solvers/strategies/registry.js';

/**
 * The settings of two runs side by side. Runs made with a different time limit, solution cap,
 * warm-up, configuration parameters or benchmark definition measure different things, so compare
 * refuses them (unless --allow-different); a different machine (cpu_model, node_version), number of
 * workers or memory limit is only noted. A CSV lacking a column (written before it existed) leaves
 * that setting unknown, never refused; a built-in strategy's parameter a run's params lacks counts
 * at its default (see paramsDifferences).
 */

/** Settings whose difference refuses the comparison, in the order they are listed; params is per configuration. */
export const REFUSING_SETTINGS = ['timeout_s', 'max_solutions', 'warmup', 'params', 'definition'] as const satisfies readonly RunColumn[];
/** Settings whose difference is only noted. */
export const NOTED_SETTINGS = ['cpu_model', 'node_version', 'workers', 'memory_mb'] as const satisfies readonly RunColumn[];

export interface SettingDifference {
  setting: RunColumn;
  /** The configuration, for params; '' otherwise. */
  configuration: string;
  /** Each run's values, as shown (several joined by ", "; an empty value is `none`). */
  base: string;
  next: string;
  /** A difference that refuses the comparison without --allow-different. */
  refuses: boolean;
}

export interface SettingsComparison {
  differences: SettingDifference[];
  /** Settings a run's CSV does not record, so not compared. */
  unknown: RunColumn[];
}

const QUOTED: ReadonlySet<RunColumn> = new Set(['cpu_model', 'node_version', 'definition']);

/** Values for a message: `none` for an empty one, texts quoted, one line whatever they hold. */
function shown(column: RunColumn, values: readonly string[]): string {
  return values.map((v) => (v === '' ? 'none' : QUOTED.has(column) ? quoted(v) : oneLineText(v))).join(', ');
}

/** `"text"` with `"` and `\` backslash-escaped and control characters as oneLineText writes them (JSON.stringify leaves C1 controls such as U+009B raw). */
const quoted = (text: string) => `"${oneLineText(text.replace(/["\\]/g, '\\$&'))}"`;

/**
 * The distinct values of a text column over the held rows of a run, in task order, by group (the
 * value of `group` on the row, '' without one): canonical form → value as written. Each distinct
 * (group, value) is looked at once, so a million rows cost one pass over their codes.
 */
function valuesOf(g: PairGroups, held: Uint8Array, column: RunColumn, group?: RunColumn): Map<string, Map<string, string>> {
  const col = g.table.text(column)!;
  const by = group ? g.table.text(group) : undefined;
  const out = new Map<string, Map<string, string>>();
  const seen = new Set<number>();
  const width = col.values.length;
  for (const i of g.order) {
    if (!held[i]) continue;
    const code = col.codes[i]!;
    const groupCode = by ? by.codes[i]! : 0;
    if (seen.has(groupCode * width + code)) continue;
    seen.add(groupCode * width + code);
    const name = by ? by.values[groupCode]! : '';
    let values = out.get(name);
    if (!values) out.set(name, (values = new Map()));
    const text = col.values[code]!;
    const key = canonicalSetting(column, text);
    if (!values.has(key)) values.set(key, text);
  }
  return out;
}

const sameKeys = (a: Map<string, string>, b: Map<string, string>) => a.size === b.size && [...a.keys()].every((k) => b.has(k));

/** The differences between two runs' settings, refusing ones first (see the top of this file). */
export function compareSettings(base: PairGroups, next: PairGroups): SettingsComparison {
  const differences: SettingDifference[] = [];
  const unknown: RunColumn[] = [];
  const heldBase = heldRows(base);
  const heldNext = heldRows(next);
  const one = (setting: RunColumn, refuses: boolean) => {
    if (!base.table.text(setting) || !next.table.text(setting)) {
      unknown.push(setting);
      return;
    }
    if (setting === 'params') {
      const strategies = builtInConfigurations([base, heldBase], [next, heldNext]);
      differences.push(...paramsDifferences(valuesOf(base, heldBase, 'params', 'config'), valuesOf(next, heldNext, 'params', 'config'), strategies));
      return;
    }
    const b = valuesOf(base, heldBase, setting).get('') ?? new Map<string, string>();
    const n = valuesOf(next, heldNext, setting).get('') ?? new Map<string, string>();
    if (b.size > 0 && n.size > 0 && !sameKeys(b, n)) differences.push({ setting, configuration: '', base: shown(setting, [...b.values()]), next: shown(setting, [...n.values()]), refuses });
  };
  for (const s of REFUSING_SETTINGS) one(s, true);
  for (const s of NOTED_SETTINGS) one(s, false);
  return { differences, unknown };
}

/**
 * Each configuration's strategy where both runs ran the same built-in one: one strategy name in
 * both, and an empty strategy_file in both (a plugin may take a built-in's name; a run without
 * that column cannot tell them apart).
 */
function builtInConfigurations(...runs: [PairGroups, Uint8Array][]): Map<string, string> {
  const each = runs.map(([g, held]) => {
    const files = g.table.text('strategy_file') ? valuesOf(g, held, 'strategy_file', 'config') : undefined;
    const builtIn = new Map<string, string>();
    for (const [config, names] of valuesOf(g, held, 'strategy', 'config')) {
      const file = files?.get(config);
      if (names.size === 1 && file?.size === 1 && file.has('')) builtIn.set(config, [...names.keys()][0]!);
    }
    return builtIn;
  });
  const [first, ...rest] = each;
  return new Map([...first!].filter(([config, name]) => rest.every((other) => other.get(config) === name)));
}

/**
 * The params of each configuration both runs have, where they differ. An empty params (an older
 * run) is unknown. A built-in strategy's parameter only one run records (added since the other
 * run) counts at its default for the other: when that is the only difference, it is noted, not
 * refused (`strategies`: each configuration's strategy, when both runs agree on it).
 */
function paramsDifferences(base: Map<string, Map<string, string>>, next: Map<string, Map<string, string>>, strategies: Map<string, string>): SettingDifference[] {
  const out: SettingDifference[] = [];
  for (const [name, b] of base) {
    const n = next.get(name);
    if (!n) continue;
    b.delete('');
    n.delete('');
    if (b.size === 0 || n.size === 0 || sameKeys(b, n)) continue;
    const strategy = strategies.get(name);
    const refuses = strategy === undefined || !sameBesideDefaults(strategy, b, n);
    out.push({ setting: 'params', configuration: name, base: shown('params', [...b.values()]), next: shown('params', [...n.values()]), refuses });
  }
  return out;
}

/**
 * Whether two runs' params of a built-in strategy's configuration, one value each, are the same
 * once each is completed with the strategy's defaults for what it does not record. A plugin's or an
 * external solver's parameters have no defaults to complete them with: they must match as recorded.
 */
function sameBesideDefaults(strategy: string, base: Map<string, string>, next: Map<string, string>): boolean {
  if (base.size !== 1 || next.size !== 1) return false;
  const b = completed(strategy, [...base.keys()][0]!);
  const n = completed(strategy, [...next.keys()][0]!);
  return b !== undefined && n !== undefined && JSON.stringify(b) === JSON.stringify(n);
}

/** A built-in strategy's recorded params with its defaults for the rest; undefined for another strategy or params it refuses. */
function completed(strategy: string, canonical: string): Params | undefined {
  const declared = builtInStrategies().find((s) => s.name === strategy)?.params;
  const given = paramsObject(canonical);
  if (!declared || !given) return undefined;
  try {
    return resolveParams(strategy, declared, given as Params);
  } catch {
    return undefined;
  }
}

/** A canonical params value as an object of parameters; undefined when it is no JSON object. */
function paramsObject(canonical: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(canonical);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** `timeout_s: 10 vs 5`, `params of configuration fast: {…} vs {…}`. */
export const differenceText = (d: SettingDifference) => `${d.setting}${d.configuration ? ` of configuration ${oneLineText(d.configuration)}` : ''}: ${d.base} vs ${d.next}`;

/**
 * The differences as lines, each prefixed with the command's name: `compare: A and B differ in
 * timeout_s: 10 vs 5; give --allow-different to compare them anyway` (or, when `allowed`, `…
 * (compared anyway: --allow-different)`), and `compare: note: A and B differ in cpu_model: …`.
 */
export function settingsLines(command: string, baseFile: string, nextFile: string, settings: SettingsComparison, allowed = false): string[] {
  const runs = `${oneLineText(baseFile)} and ${oneLineText(nextFile)} differ in`;
  return settings.differences.map((d) =>
    !d.refuses
      ? `${command}: note: ${runs} ${differenceText(d)}`
      : `${command}: ${runs} ${differenceText(d)}${allowed ? ' (compared anyway: --allow-different)' : '; give --allow-different to compare them anyway'}`,
  );
}

/** Runs whose settings differ where a comparison would mislead (see settingsLines for what to print). */
export class SettingsRefusal extends Error {
  override readonly name = 'SettingsRefusal';
  constructor(
    readonly baseFile: string,
    readonly nextFile: string,
    readonly settings: SettingsComparison,
  ) {
    super(settingsLines('compare', baseFile, nextFile, { ...settings, differences: settings.differences.filter((d) => d.refuses) }).join('\n'));
  }

  /** The lines to print: refusals, then what is only noted. */
  lines(command: string): string[] {
    return settingsLines(command, this.baseFile, this.nextFile, this.settings);
  }
}
