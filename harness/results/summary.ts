import { formatTable } from '../io/table.js';
import { oneLine } from '../io/thrown.js';
import { median } from './median.js';
import type { RowStatus, RunRow } from './row.js';
import { BasisTally, figure, isAnswer, ScoreSheet, UNSOLVED_STATUSES, type Scores, type TimeBasis } from './scores.js';

export { median };

/** What the summary reads of a row. */
export type SummaryRow = Pick<RunRow, 'status' | 'time_ms' | 'cpu_ms' | 'dead_ends' | 'timeout_s'>;

interface ConfigTally {
  statuses: Map<RowStatus, number>;
  wall: ScoreSheet;
  cpu: ScoreSheet;
  /** Summed over solved tasks; null while none has reported dead ends (an external solver reports none). */
  deadEnds: number | null;
}

export interface StrategySummary extends Scores {
  /** The configuration's name. */
  strategy: string;
  tasks: number;
  statuses: Partial<Record<RowStatus, number>>;
  deadEnds: number | null;
}

/** Widest line of the table and its notes: an 80-column terminal. */
export const SUMMARY_WIDTH = 80;
/** Configuration names get at least this many columns (or their full width) before statuses merge to make room. */
export const MIN_NAME_WIDTH = 16;

const num = (x: number | '') => (x === '' ? NaN : x);

/**
 * Per configuration, accumulated task by task: tasks per status, and over the solved tasks (an
 * answer: unique, multiple, solved, contradiction) the median and total time and dead ends, with
 * the PAR-2 score over all tasks. Times are CPU times when every solved task has one, else wall times.
 */
export class RunSummary {
  private readonly tallies = new Map<string, ConfigTally>();
  private readonly basisTally = new BasisTally();

  /** `order`: configuration names in the order the table lists them (others follow as they come). */
  constructor(private readonly order: readonly string[] = []) {}

  add(config: string, row: SummaryRow): void {
    let t = this.tallies.get(config);
    if (!t) {
      t = { statuses: new Map(), wall: new ScoreSheet(), cpu: new ScoreSheet(), deadEnds: null };
      this.tallies.set(config, t);
    }
    t.statuses.set(row.status, (t.statuses.get(row.status) ?? 0) + 1);
    const solved = isAnswer(row.status);
    const limitS = num(row.timeout_s);
    t.wall.add(solved, num(row.time_ms), limitS);
    t.cpu.add(solved, num(row.cpu_ms), limitS);
    this.basisTally.add(row.status, num(row.time_ms), num(row.cpu_ms));
    if (solved && row.dead_ends !== '') t.deadEnds = (t.deadEnds ?? 0) + row.dead_ends;
  }

  count(status: RowStatus): number {
    let n = 0;
    for (const t of this.tallies.values()) n += t.statuses.get(status) ?? 0;
    return n;
  }

  /** CPU time when every solved task with a time has one, else wall time. */
  basis(): TimeBasis {
    return this.basisTally.basis;
  }

  strategies(): StrategySummary[] {
    const rank = (name: string) => {
      const i = this.order.indexOf(name);
      return i < 0 ? this.order.length : i;
    };
    const basis = this.basis();
    return [...this.tallies]
      .sort(([a], [b]) => rank(a) - rank(b))
      .map(([strategy, t]) => ({
        strategy,
        tasks: [...t.statuses.values()].reduce((a, b) => a + b, 0),
        statuses: Object.fromEntries(t.statuses),
        ...t[basis].scores(),
        deadEnds: t.deadEnds,
      }));
  }

  /** The table printed at the end of a run, at most `width` columns wide (see summaryTable). */
  format(width = SUMMARY_WIDTH): string {
    return summaryTable(this.strategies(), this.basis(), width);
  }
}

interface Column {
  header: string;
  cell: (r: StrategySummary) => string;
}

const countOf = (r: StrategySummary, statuses: readonly RowStatus[]) => statuses.reduce((n, s) => n + (r.statuses[s] ?? 0), 0);
const statusColumn = (header: string, statuses: readonly RowStatus[]): Column => ({ header, cell: (r) => String(countOf(r, statuses)) });

/** Status groups of the narrower layouts. */
const LIMITS: readonly RowStatus[] = ['timeout', 'memory', 'too-large'];
const FAILURES: readonly RowStatus[] = ['wrong', 'error'];

/** Code points a terminal shows two columns wide: East Asian wide and fullwidth forms, and emoji (as wcwidth counts them). */
const wide = (cp: number) =>
  cp >= 0x1100 &&
  (cp <= 0x115f || (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) || (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) || (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1faff) || (cp >= 0x20000 && cp <= 0x3fffd));

/** Emoji shown as pictures by default, outside the ranges above: flags (regional indicators), ⌚, ⏳, ⚡, ✅ … */
const PICTURE = /\p{Emoji_Presentation}/u;

/**
 * Code units looked at per column of room: a grapheme is seldom longer, and Intl.Segmenter over a
 * long text costs time and memory that grow faster than the text.
 */
const UNITS_PER_COLUMN = 8;

/** Columns a text takes on a terminal, one per grapheme, two for a wide one; counted to `limit` + 1 at most. */
export function displayWidth(text: string, limit = Infinity): number {
  if (text.length > (limit + 1) * UNITS_PER_COLUMN) return limit + 1;
  let w = 0;
  for (const { segment } of new Intl.Segmenter().segment(text)) {
    w += wide(segment.codePointAt(0)!) || PICTURE.test(segment) ? 2 : 1;
    if (w > limit) return limit + 1;
  }
  return w;
}

const graphemes = (text: string) => Array.from(new Intl.Segmenter().segment(text), (s) => s.segment);

/** `text` cut in the middle to at most `width` columns, with `…` where it was cut (start and end kept: names often differ at the end). */
export function shorten(text: string, width: number): string {
  if (displayWidth(text, width) <= width) return text;
  // Only the two ends can show: a long text is segmented there alone, less the grapheme each slice may have cut.
  const reach = (width + 1) * UNITS_PER_COLUMN;
  const long = text.length > 2 * reach;
  const front = long ? graphemes(text.slice(0, reach)).slice(0, -1) : graphemes(text);
  const back = long ? graphemes(text.slice(-reach)).slice(1) : front;
  let head = '';
  let tail = '';
  let i = 0;
  let j = back.length - 1;
  // The two ends never meet in a long text: they hold more graphemes than fit.
  for (let room = width - 1, turn = 0; long ? i < front.length && j >= 0 : i <= j; turn++) {
    const next = turn % 2 === 0 ? front[i]! : back[j]!;
    const w = displayWidth(next);
    if (w > room) break;
    room -= w;
    if (turn % 2 === 0) head += front[i++]!;
    else tail = back[j--]! + tail;
  }
  return `${head}…${tail}`;
}

/** Words wrapped into lines of at most `width` columns (the notes' words are short). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && displayWidth(line) + 1 + displayWidth(word) > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * The summary as a plain-text table of at most `width` columns. Numbers are never cut: when the
 * columns do not leave the configuration names their full width, the dead ends column goes; when
 * they do not leave MIN_NAME_WIDTH columns, the statuses merge into stuck / limit / failed, then
 * into one unsolved column; names still too long are cut in the middle with `…`.
 */
export function summaryTable(rows: StrategySummary[], basis: TimeBasis, width = SUMMARY_WIDTH): string {
  const names = rows.map((r) => oneLine(r.strategy));
  const used = (statuses: readonly RowStatus[]) => statuses.filter((s) => rows.some((r) => r.statuses[s]));
  const head: Column[] = [
    { header: 'tasks', cell: (r) => String(r.tasks) },
    { header: 'solved', cell: (r) => String(r.solved) },
  ];
  const unit = basis === 'cpu' ? 'cpu' : 'wall';
  const tail: Column[] = [
    { header: `median\n${unit} ms`, cell: (r) => figure(r.medianMs) },
    { header: `total\n${unit} s`, cell: (r) => figure(r.totalMs / 1000) },
    { header: 'PAR-2\ns', cell: (r) => figure(r.par2S) },
  ];
  const deadEnds: Column = { header: 'dead\nends', cell: (r) => (r.deadEnds === null ? '-' : String(r.deadEnds)) };
  const each = used(UNSOLVED_STATUSES).map((s) => statusColumn(s, [s]));
  const grouped = (
    [
      ['stuck', ['stuck']],
      ['limit', LIMITS],
      ['failed', FAILURES],
    ] as const
  )
    .filter(([, group]) => used(group).length > 0)
    .map(([h, group]) => statusColumn(h, group));
  const unsolved = rows.some((r) => r.solved < r.tasks) ? [statusColumn('unsolved', UNSOLVED_STATUSES)] : [];
  const layouts: { columns: Column[]; note: string }[] = [
    { columns: [...head, ...each, ...tail, deadEnds], note: '' },
    { columns: [...head, ...each, ...tail], note: '' },
    { columns: [...head, ...grouped, ...tail], note: ' limit: timeout, memory or too-large; failed: wrong or error.' },
    { columns: [...head, ...unsolved, ...tail], note: ' unsolved: any other status.' },
  ];
  const widthOf = (c: Column) => Math.max(...c.header.split('\n').map((line) => displayWidth(line)), ...rows.map((r) => displayWidth(c.cell(r))));
  const longest = Math.max(6, ...names.map((n) => displayWidth(n, width)));
  const roomOf = (layout: (typeof layouts)[number]) => width - layout.columns.reduce((w, c) => w + widthOf(c) + 2, 0);
  // Full names are worth the dead ends column; statuses merge only to keep names MIN_NAME_WIDTH wide.
  const chosen =
    layouts.slice(0, 2).find((l) => roomOf(l) >= longest) ?? layouts.find((l) => roomOf(l) >= Math.min(longest, MIN_NAME_WIDTH)) ?? layouts[layouts.length - 1]!;
  const room = roomOf(chosen);
  const nameWidth = Math.max(6, Math.min(longest, room));
  const cut = names.some((n) => displayWidth(n, nameWidth) > nameWidth);
  const header = ['\nconfig', ...chosen.columns.map((c) => (c.header.includes('\n') ? c.header : `\n${c.header}`))];
  const body = rows.map((r, i) => [shorten(names[i]!, nameWidth), ...chosen.columns.map((c) => c.cell(r))]);
  const what = basis === 'cpu' ? 'CPU time (cpu_ms)' : 'wall time (time_ms)';
  const note =
    `solved: an answer (unique, multiple, solved, contradiction). Median, total${chosen.columns.includes(deadEnds) ? ' and dead ends' : ''}: ` +
    `solved tasks only, ${what}. PAR-2: solved tasks' times + twice the time limit per unsolved task, in s (- without a limit).` +
    chosen.note +
    (cut ? ' Long names are cut in the middle (…).' : '');
  const table = formatTable(header, body);
  return [table, ...wrap(note, width)].join('\n');
}
