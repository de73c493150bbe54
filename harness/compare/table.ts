import { InputError } from '../../corpus/errors.js';
import { csvNumber, CsvValueError, readCsvInput, requireColumns, scanCsvFile } from '../results/csv.js';
import { withConfig, type RunColumn, type RunRecord } from '../results/row.js';
import { checkStatus, NUMBER_RULES } from '../results/row-values.js';

/**
 * A run CSV held by column, for compare, report and bench-check on runs of any size: only the
 * columns they read, texts interned (a column stores one small code per row and each distinct value
 * once), numbers in typed arrays (NaN where the CSV leaves them empty). A million rows take about
 * 100 MB. Every value is checked as it is read, so a bad one is `FILE:LINE: column …: …`.
 */

/** Columns a CSV needs for compare and report. */
export const NEEDED_COLUMNS: readonly RunColumn[] = ['puzzle_id', 'puzzle_path', 'strategy', 'status', 'verified', 'time_ms', 'dead_ends', 'decisions', 'line_solves'];

/** How a kept column is read: text, or a number by its rule (csvNumber). */
type Kind = 'text' | { whole: boolean; min: number };

/** The columns kept, and how: numbers by NUMBER_RULES, which every reader of run CSVs shares. */
const KINDS: Partial<Record<RunColumn, Kind>> = {
  run_id: 'text',
  started_at: 'text',
  nonobench_version: 'text',
  git_commit: 'text',
  node_version: 'text',
  cpu_model: 'text',
  task: NUMBER_RULES.task!,
  puzzle_id: 'text',
  puzzle_path: 'text',
  title: 'text',
  width: 'text',
  height: 'text',
  strategy: 'text',
  config: 'text',
  rep: NUMBER_RULES.rep!,
  status: 'text',
  verified: 'text',
  time_ms: NUMBER_RULES.time_ms!,
  cpu_ms: NUMBER_RULES.cpu_ms!,
  calib_ms: NUMBER_RULES.calib_ms!,
  dead_ends: NUMBER_RULES.dead_ends!,
  decisions: NUMBER_RULES.decisions!,
  line_solves: NUMBER_RULES.line_solves!,
  max_depth: NUMBER_RULES.max_depth!,
  timeout_s: 'text',
  max_solutions: 'text',
  workers: 'text',
  warmup: 'text',
  memory_mb: 'text',
  params: 'text',
  strategy_file: 'text',
  definition: 'text',
};

type Codes = Uint8Array | Uint16Array | Uint32Array;

/** A text column: a code per row, each distinct value once, with the first row that has it. */
export class TextColumn {
  codes: Codes;
  readonly values: string[] = [];
  readonly firstRow: number[] = [];
  private readonly index = new Map<string, number>();

  constructor(capacity: number) {
    this.codes = new Uint8Array(capacity);
  }

  set(row: number, text: string): void {
    let code = this.index.get(text);
    if (code === undefined) {
      code = this.values.length;
      this.index.set(text, code);
      this.values.push(text);
      this.firstRow.push(row);
      if (code === 0x100 || code === 0x10000) this.codes = widen(this.codes, this.codes.length, code === 0x100 ? Uint16Array : Uint32Array);
    }
    this.codes[row] = code;
  }

  get(row: number): string {
    return this.values[this.codes[row]!]!;
  }

  grow(capacity: number): void {
    this.codes = widen(this.codes, capacity, this.codes.constructor as new (n: number) => Codes);
  }
}

function widen(codes: Codes, capacity: number, type: new (n: number) => Codes): Codes {
  const next = new type(capacity);
  next.set(codes);
  return next;
}

/** A run CSV's rows by column (see the top of this file). */
export class RunTable {
  size = 0;
  lines = new Uint32Array(1024);
  private readonly texts = new Map<RunColumn, TextColumn>();
  private readonly numbers = new Map<RunColumn, Float64Array>();
  /** Kept columns with where each is in a record; config falls back to strategy (CSVs from before configurations). */
  private readonly slots: { column: RunColumn; at: number; kind: Kind; fallback: number }[] = [];

  constructor(
    readonly file: string,
    readonly columns: readonly string[],
  ) {
    for (const [column, kind] of Object.entries(KINDS) as [RunColumn, Kind][]) {
      const at = columns.indexOf(column);
      const fallback = column === 'config' ? columns.indexOf('strategy') : -1;
      if (at < 0 && fallback < 0) continue;
      this.slots.push({ column, at, kind, fallback });
      if (kind === 'text') this.texts.set(column, new TextColumn(this.lines.length));
      else this.numbers.set(column, new Float64Array(this.lines.length));
    }
  }

  /** The file has this column (config: or strategy, which stands for it). */
  has(column: RunColumn): boolean {
    return this.texts.has(column) || this.numbers.has(column);
  }

  text(column: RunColumn): TextColumn | undefined {
    return this.texts.get(column);
  }

  /** A number column: NaN where the value is empty. */
  num(column: RunColumn): Float64Array | undefined {
    return this.numbers.get(column);
  }

  /** A value as text ('' when the column is absent). */
  str(column: RunColumn, row: number): string {
    const t = this.texts.get(column);
    if (t) return t.get(row);
    const v = this.numbers.get(column)?.[row];
    return v === undefined || Number.isNaN(v) ? '' : String(v);
  }

  /** Adds a record (its fields in the file's column order); a bad value is `FILE:LINE: column …`. */
  push(fields: readonly string[], line: number): void {
    const row = this.size;
    if (row === this.lines.length) this.grow(row * 2);
    this.lines[row] = line;
    for (const { column, at, kind, fallback } of this.slots) {
      let text = at >= 0 ? fields[at]! : '';
      if (text === '' && fallback >= 0) text = fields[fallback]!;
      try {
        if (kind === 'text') {
          if (column === 'status') checkStatus(text);
          this.texts.get(column)!.set(row, text);
          continue;
        }
        this.numbers.get(column)![row] = csvNumber(column, text, kind.whole, kind.min);
      } catch (err) {
        if (err instanceof CsvValueError) throw new InputError(this.file, line, err.message);
        throw err;
      }
    }
    this.size++;
  }

  private grow(capacity: number): void {
    const lines = new Uint32Array(capacity);
    lines.set(this.lines);
    this.lines = lines;
    for (const t of this.texts.values()) t.grow(capacity);
    for (const [c, a] of this.numbers) {
      const b = new Float64Array(capacity);
      b.set(a);
      this.numbers.set(c, b);
    }
  }

  /** A table of records held in memory (tests, small callers); `lines` as read, else 0. */
  static fromRecords(file: string, columns: readonly string[], records: readonly RunRecord[], lines?: readonly number[]): RunTable {
    const all = [...new Set([...columns, ...Object.keys(records[0] ?? {})])];
    const table = new RunTable(file, all);
    records.forEach((r, i) => table.push(all.map((c) => r[c as RunColumn] ?? ''), lines?.[i] ?? 0));
    return table;
  }
}

/** A run CSV held in memory as records, in task order (see loadRunCsv). */
export interface RunCsv {
  file: string;
  columns: string[];
  records: RunRecord[];
  /** File line of each record, for messages (absent for records built in memory). */
  lines?: number[];
}

/** A table for either form. */
export const asTable = (csv: RunCsv | RunTable): RunTable => (csv instanceof RunTable ? csv : RunTable.fromRecords(csv.file, csv.columns, csv.records, csv.lines));

/**
 * Reads a run CSV as a table, in chunks, keeping only what compare, report and bench-check read;
 * one line naming the file (and the line) when it is not one: `FILE:0: cannot read the file (…)`,
 * `FILE:0: not a run CSV (empty file)`, `FILE:1: not a run CSV (no … columns)`, `FILE:LINE: …`.
 */
export function loadRunTable(file: string, needed: readonly RunColumn[] = NEEDED_COLUMNS): RunTable {
  let table: RunTable | undefined;
  const scan = scanCsvFile(file, (row) => table!.push(row.fields, row.line), {
    header: (columns) => {
      requireColumns(file, columns, needed);
      table = new RunTable(file, columns);
    },
  });
  if (!table || scan.columns.length === 0) throw new InputError(file, 0, 'not a run CSV (empty file)');
  return table;
}

/**
 * A run CSV read whole into records, checked as loadRunTable checks it, in task order with config
 * filled in (for tests and small files; compare and report read tables).
 */
export function loadRunCsv(file: string, needed: readonly RunColumn[] = NEEDED_COLUMNS): RunCsv & { lines: number[] } {
  const { columns, records, lines } = readCsvInput(file);
  if (columns.length === 0) throw new InputError(file, 0, 'not a run CSV (empty file)');
  requireColumns(file, columns, needed);
  const order = taskOrder(RunTable.fromRecords(file, columns, records, lines));
  return { file, columns, records: withConfig(Array.from(order, (i) => records[i]! as RunRecord)), lines: Array.from(order, (i) => lines[i]!) };
}

/**
 * The rows by task number (puzzle by puzzle, strategies in the order the run named them), keeping
 * file order among equal numbers and putting rows without one last. Rows are written as tasks finish,
 * in rounds and on several workers, so file order would make pair and strategy order vary by run.
 */
export function taskOrder(t: RunTable): Uint32Array {
  const n = t.size;
  const task = t.num('task');
  if (!task) return Uint32Array.from({ length: n }, (_x, i) => i);
  let max = 0;
  for (let i = 0; i < n; i++) if (task[i]! > max) max = task[i]!;
  const last = max + 1; // rows without a task
  if ((last + 1) * n < Number.MAX_SAFE_INTEGER) {
    // One numeric sort of task × n + row: exact below 2^53, and no comparator to call a million times.
    const keys = new Float64Array(n);
    for (let i = 0; i < n; i++) keys[i] = (Number.isNaN(task[i]!) ? last : task[i]!) * n + i;
    keys.sort();
    return Uint32Array.from(keys, (k) => k % n);
  }
  const key = (i: number) => (Number.isNaN(task[i]!) ? Infinity : task[i]!);
  return Uint32Array.from({ length: n }, (_x, i) => i).sort((a, b) => key(a) - key(b) || a - b);
}
