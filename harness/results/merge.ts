import { closeSync, fstatSync, lstatSync, openSync, readdirSync, readlinkSync, readSync, realpathSync, renameSync, rmSync, statSync, type Stats } from 'node:fs';
import { openMayWait } from '../../corpus/stop-signals.js';
import { basename, dirname, join, resolve } from 'node:path';
import { InputError } from '../../corpus/errors.js';
import { refuseIfLocked } from '../io/output-lock.js';
import { ensureParentDir } from '../io/output-path.js';
import { BufferedWriter, csvNumber, csvRecord, CsvValueError, decodeCsvBytes, parseRecord, requireColumns, scanCsvFile, type CsvScan } from './csv.js';
import type { RunColumn } from './row.js';
import { ConfigurationSettings } from './merge-settings.js';
import { checkRunValues } from './row-values.js';

export interface MergeResult {
  rows: number;
  duplicates: number;
}

/** The columns merging needs: a task's identity and its place in the run. */
const KEY_COLUMNS: readonly RunColumn[] = ['task', 'puzzle_id', 'puzzle_path', 'strategy', 'rep'];

/** Growable typed arrays, one slot per record read. */
class Records {
  size = 0;
  input = new Uint32Array(1024);
  start = new Float64Array(1024);
  end = new Float64Array(1024);
  task = new Float64Array(1024);
  rep = new Float64Array(1024);
  pair = new Uint32Array(1024);

  push(input: number, start: number, end: number, task: number, rep: number, pair: number): void {
    if (this.size === this.task.length) {
      const grow = <T extends Float64Array | Uint32Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(a.length * 2);
        b.set(a);
        return b;
      };
      this.input = grow(this.input);
      this.start = grow(this.start);
      this.end = grow(this.end);
      this.task = grow(this.task);
      this.rep = grow(this.rep);
      this.pair = grow(this.pair);
    }
    const i = this.size++;
    this.input[i] = input;
    this.start[i] = start;
    this.end[i] = end;
    this.task[i] = task;
    this.rep[i] = rep;
    this.pair[i] = pair;
  }
}

/** Numbers for the (puzzle, path, configuration) of each record: a task's identity is its pair and its rep. */
class PairCodes {
  private puzzles = new Map<string, number>();
  private configs = new Map<string, Map<number, number>>();
  count = 0;

  code(puzzleId: string, puzzlePath: string, config: string): number {
    const key = `${puzzleId}\u0000${puzzlePath}`;
    let puzzle = this.puzzles.get(key);
    if (puzzle === undefined) this.puzzles.set(key, (puzzle = this.puzzles.size));
    let pairs = this.configs.get(config);
    if (!pairs) this.configs.set(config, (pairs = new Map()));
    let pair = pairs.get(puzzle);
    if (pair === undefined) pairs.set(puzzle, (pair = this.count++));
    return pair;
  }
}

/**
 * Merges run CSVs (for example the shards of one run) into one, ordered by task index. A task
 * recorded in several inputs (or twice in one) is kept once, from the first input that has it.
 * Inputs are read twice, never whole: first through csv-parse, for what places each record (its
 * task, identity and byte range), then each record's bytes again in the output's order, copied as
 * they were written (a record is already RFC 4180: csv-parse read it), in UTF-8 and with an LF line
 * end. A record holding a CR besides its line end is parsed and written again by csvRecord, so that
 * a CR left unquoted by another writer comes out quoted. The output is written beside OUT and
 * renamed over it at the end, so OUT may be one of the inputs and a failed or interrupted merge leaves
 * it as it was.
 */
export function mergeCsvs(out: string, inputs: string[]): MergeResult {
  // A run still writing OUT would go on writing the file this replaces: its later rows would be lost.
  refuseIfLocked(out);
  // What OUT is now: a run that writes it while the inputs are read (merge holds no lock) must not be replaced.
  const before = statSync(out, { throwIfNoEntry: false });
  let columns: string[] | undefined;
  const records = new Records();
  const pairs = new PairCodes();
  const settings = new ConfigurationSettings();
  const scans: CsvScan[] = [];
  const identities: { dev: number; ino: number }[] = [];
  inputs.forEach((input, k) => {
    const first = records.size;
    // The file as read now: the second pass must read the same file, not one written over it since.
    const stats = statSync(input, { throwIfNoEntry: false });
    if (stats) identities[k] = { dev: stats.dev, ino: stats.ino };
    let at: Record<string, number> = {};
    const scan = scanCsvFile(
      input,
      (row) => {
        const f = row.fields;
        try {
          const task = csvNumber('task', f[at.task!]!, true, 0);
          const rep = csvNumber('rep', f[at.rep!]!, true, 1);
          if (Number.isNaN(task)) throw new CsvValueError('column task: empty, so the row has no place in the run');
          if (Number.isNaN(rep)) throw new CsvValueError('column rep: empty, so the row is no task of the run');
          // Held to the rules every reader holds rows to: a merged file compare and report refuse is no merge.
          checkRunValues(f, at);
          const config = (at.config !== undefined ? f[at.config] : '') || f[at.strategy!]!;
          settings.check(f, at, config, input, row.line);
          records.push(k, row.start, row.end, task, rep, pairs.code(f[at.puzzle_id!]!, f[at.puzzle_path!]!, config));
        } catch (err) {
          if (err instanceof CsvValueError) throw new InputError(input, row.line, err.message);
          throw err;
        }
      },
      {
        header: (cols) => {
          requireColumns(input, cols, KEY_COLUMNS);
          if (!columns) columns = [...cols];
          else if (cols.join('\u0000') !== columns.join('\u0000')) throw new InputError(input, 1, `its columns differ from those of ${inputs[0]}`);
          at = Object.fromEntries(cols.map((c, i) => [c, i]));
        },
        restart: () => (records.size = first),
      },
    );
    if (scan.columns.length === 0) requireColumns(input, [], KEY_COLUMNS);
    scans.push(scan);
  });
  const { kept, duplicates } = firstOfEachTask(records, pairs.count);
  const order = byTask(records, kept);
  writeMerged(out, inputs, scans, columns ?? [], records, order, before, identities);
  return { rows: order.length, duplicates };
}

/** Which records to keep: the first of each (pair, rep), in input and file order. */
function firstOfEachTask(records: Records, pairCount: number): { kept: Uint32Array; duplicates: number } {
  const n = records.size;
  // Records grouped by pair (a stable counting sort), so each pair's repetitions are checked together.
  const starts = new Uint32Array(pairCount + 1);
  for (let i = 0; i < n; i++) starts[records.pair[i]! + 1]!++;
  for (let p = 0; p < pairCount; p++) starts[p + 1]! += starts[p]!;
  const fill = starts.slice(0, pairCount);
  const grouped = new Uint32Array(n);
  for (let i = 0; i < n; i++) grouped[fill[records.pair[i]!]!++] = i;
  const keep = new Uint8Array(n);
  const seen = new Set<number>();
  for (let p = 0; p < pairCount; p++) {
    seen.clear();
    for (let g = starts[p]!; g < starts[p + 1]!; g++) {
      const i = grouped[g]!;
      if (seen.has(records.rep[i]!)) continue;
      seen.add(records.rep[i]!);
      keep[i] = 1;
    }
  }
  let count = 0;
  for (let i = 0; i < n; i++) count += keep[i]!;
  const kept = new Uint32Array(count);
  for (let i = 0, j = 0; i < n; i++) if (keep[i]) kept[j++] = i;
  return { kept, duplicates: n - count };
}

/** The kept records by task index, records of one index in input and file order. */
function byTask(records: Records, kept: Uint32Array): Uint32Array {
  const n = records.size;
  let maxTask = 0;
  for (const i of kept) if (records.task[i]! > maxTask) maxTask = records.task[i]!;
  if ((maxTask + 1) * n < Number.MAX_SAFE_INTEGER) {
    // One numeric sort of task × n + record, which is exact below 2^53.
    const keys = Float64Array.from(kept, (i) => records.task[i]! * n + i).sort();
    return Uint32Array.from(keys, (key) => key % n);
  }
  return kept.slice().sort((a, b) => records.task[a]! - records.task[b]! || a - b);
}

const LF = 0x0a;

/** An input written (truncated, replaced or rewritten) between merge's two passes. */
const changedInput = (input: string) => new InputError(input, 0, 'changed while the merge read it (a run writing it?): nothing was written; merge again once it is done');

/** Whether record i must end in an LF byte: every record but possibly its file's last, in a file of one-byte line ends. */
const endsInLf = (records: Records, i: number, scan: CsvScan) =>
  (scan.encoding === 'utf-8' || scan.encoding === 'windows-1252') && (records.end[i]! < scan.validBytes || scan.lastEol);
const CR = 0x0d;
const NEWLINE = Buffer.from('\n');

/** The names of merges' temporary files beside `base`: the prefix, then the merging process's id and `.tmp`. */
const tempPrefix = (base: string) => `.${base}.merge-`;
const tempName = (base: string, pid: number) => `${tempPrefix(base)}${pid}.tmp`;

/**
 * Removes the temporary files that merges into `target` left when they were killed (Ctrl-C ends a
 * merge at once, since no handler could run before its synchronous work ends): those of processes
 * that are gone.
 */
function removeLeftTemps(target: string): void {
  const prefix = tempPrefix(basename(target));
  let names: string[];
  try {
    names = readdirSync(dirname(target));
  } catch {
    return; // not listable: the write below says what is wrong
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const pid = name.slice(prefix.length, -'.tmp'.length);
    if (!/^[1-9]\d*$/.test(pid) || isAlive(Number(pid))) continue;
    rmSync(join(dirname(target), name), { force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Most input files held open at once while records are read back. */
const MAX_OPEN = 256;

function writeMerged(out: string, inputs: string[], scans: CsvScan[], columns: string[], records: Records, order: Uint32Array, before?: Stats, identities: { dev: number; ino: number }[] = []): void {
  ensureParentDir(out);
  // A device or pipe (`/dev/stdout`) is written as it is; a link to a file keeps linking to the file written.
  const existing = statSync(out, { throwIfNoEntry: false });
  const direct = existing !== undefined && !existing.isFile();
  // A link to a file not there yet is followed too, as a shell's `>` follows it.
  const dangling = existing === undefined && lstatSync(out, { throwIfNoEntry: false })?.isSymbolicLink();
  const target = existing?.isFile() ? realpathSync(out) : dangling ? resolve(dirname(out), readlinkSync(out)) : out;
  if (dangling) ensureParentDir(target);
  const temp = direct ? out : join(dirname(target), tempName(basename(target), process.pid));
  if (!direct) removeLeftTemps(target);
  const open = new Map<number, number>();
  const fdOf = (k: number) => {
    let fd = open.get(k);
    if (fd !== undefined) {
      open.delete(k); // re-inserted: the map's order is the order of use
    } else {
      if (open.size >= MAX_OPEN) {
        const [oldest, oldFd] = open.entries().next().value!;
        closeSync(oldFd);
        open.delete(oldest);
      }
      fd = openSync(inputs[k]!, 'r');
      const now = fstatSync(fd);
      const was = identities[k];
      if (was && (now.dev !== was.dev || now.ino !== was.ino)) {
        closeSync(fd);
        throw changedInput(inputs[k]!);
      }
    }
    open.set(k, fd);
    return fd;
  };
  const outFd = openMayWait(temp, 'w'); // temp is OUT itself for a pipe or device
  let done = false;
  try {
    const writer = new BufferedWriter(outFd, out);
    writer.write(csvRecord(columns));
    let buffer = Buffer.allocUnsafe(1 << 16);
    for (const i of order) {
      const k = records.input[i]!;
      const start = records.start[i]!;
      const length = records.end[i]! - start;
      if (length > buffer.length) buffer = Buffer.allocUnsafe(length);
      const read = readSync(fdOf(k), buffer, 0, length, start);
      // Fewer bytes than the first pass found, or a record no longer ending its line: the file was written meanwhile.
      if (read !== length || (endsInLf(records, i, scans[k]!) && buffer[length - 1] !== LF)) throw changedInput(inputs[k]!);
      let bytes = buffer.subarray(0, read);
      const encoding = scans[k]!.encoding;
      if (encoding !== 'utf-8') bytes = Buffer.from(decodeCsvBytes(bytes, encoding), 'utf8');
      // The record without its line end.
      let end = bytes.length;
      if (bytes[end - 1] === LF) end -= bytes[end - 2] === CR ? 2 : 1;
      const record = bytes.subarray(0, end);
      if (record.includes(CR)) writer.write(csvRecord(parseRecord(record.toString('utf8'))));
      else {
        writer.write(record);
        writer.write(NEWLINE);
      }
    }
    writer.flush();
    closeSync(outFd);
    if (!direct) {
      // A run that began writing OUT since the merge started (or wrote and ended): its rows would be lost.
      refuseIfLocked(out);
      const now = statSync(target, { throwIfNoEntry: false });
      const same = now === undefined ? before === undefined : before !== undefined && now.ino === before.ino && now.dev === before.dev && now.size === before.size && now.mtimeMs === before.mtimeMs;
      if (!same) throw new Error(`${out}: written by another process while the merge ran (a nonobench run?): left as it is; merge again once it is done`);
      renameSync(temp, target);
    }
    done = true;
  } finally {
    for (const fd of open.values()) closeSync(fd);
    if (!done) {
      try {
        closeSync(outFd);
      } catch {}
      if (!direct) rmSync(temp, { force: true });
    }
  }
}
