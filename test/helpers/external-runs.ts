import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsv, type CsvRecord } from '../../harness/results/csv.js';
import { runCli } from './cli.js';

/** Writes an executable program `name` into `dir`; its path. */
export function executable(dir: string, name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  chmodSync(file, 0o755);
  return file;
}

/** webpbn #1's solution, row by row as 0 and 1: what the test programs print as their answer. */
export const DANCER_ROWS = '01100011010010101110101001010000110010100101111000'.match(/.{5}/g)!;

/** `nonobench run --config` of the definition `yaml` (written into `dir`), into `dir`/run.csv: the CLI's result, the CSV's path (`csv`) and its rows. */
export function runDefinitionIn(dir: string, yaml: string, ...args: string[]) {
  const file = join(dir, 'bench.yaml');
  writeFileSync(file, yaml);
  const csv = join(dir, 'run.csv');
  const r = runCli('run', '--config', file, '--out', csv, '--quiet', ...args);
  return { ...r, csv, rows: (): CsvRecord[] => parseCsv(readFileSync(csv, 'utf8')).records };
}
