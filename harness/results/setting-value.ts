import { basename, isAbsolute } from 'node:path';
import { typedParams } from '../../solvers/api/params.js';
import { EXTERNAL_STRATEGY, type RunColumn } from './row.js';

/** Settings written as numbers. */
const NUMERIC: ReadonlySet<RunColumn> = new Set(['timeout_s', 'max_solutions', 'warmup', 'workers', 'memory_mb']);

/** A value as compared: numbers by value (`10` = `10.0`), params as JSON with sorted keys, else the text. */
export function canonicalSetting(column: RunColumn, text: string): string {
  // No time limit is written empty (`--timeout 0`) and read as 0 too (report, --resume): the same setting.
  if (text === '') return column === 'timeout_s' ? '0' : '';
  if (NUMERIC.has(column)) return /^-?\d+(\.\d+)?$/.test(text) ? String(Number(text)) : text;
  if (column !== 'params') return text;
  try {
    return JSON.stringify(JSON.parse(text), (_k, v: unknown) =>
      v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
    );
  } catch {
    return text;
  }
}

/**
 * A row's params as --resume and merge compare them: as canonicalSetting, with text values read as
 * `--param` reads them (a plugin that declares none got `STRATEGY:key=5` as the text "5" from older
 * versions, the number 5 now: the same setting). An external solver's command holds the absolute
 * paths of its program and files, which move with the checkout: each is compared by its file name.
 */
export function comparableParams(text: string, strategy: string): string {
  let params: unknown;
  try {
    params = JSON.parse(text);
  } catch {
    return text;
  }
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return canonicalSetting('params', text);
  if (strategy !== EXTERNAL_STRATEGY) return canonicalSetting('params', JSON.stringify(typedParams(params as Record<string, unknown>)));
  const external = params as { command?: unknown };
  if (Array.isArray(external.command)) external.command = external.command.map((word: unknown) => (typeof word === 'string' && isAbsolute(word) ? basename(word) : word));
  return canonicalSetting('params', JSON.stringify(external));
}

/** The files of a `strategy_file` value (`PATH@HASH …`, where a path may hold blanks). */
export const programFiles = (text: string) => [...text.matchAll(/(.*?)@([0-9a-f]{12})(?: |$)/g)].map((m) => ({ path: m[1]!, hash: m[2]! }));

/** A program's files as compared: their contents, not their paths, which move with the checkout. */
export const programContents = (file: string) => programFiles(file).map((f) => f.hash).join(' ');

/**
 * What kind of program a row ran (`strategy`, `strategy_file`), as --resume and merge compare it: a
 * built-in strategy by its name (its strategy_file is empty), else a plugin or an external program,
 * whose files' contents tell them apart. A plugin's name is not compared: one whose import
 * outlasted the limit is named after its file.
 */
export const programFamily = ({ strategy, file }: { strategy: string; file: string }) =>
  file === '' ? `built-in ${strategy}` : strategy === EXTERNAL_STRATEGY ? 'external' : 'plugin';
