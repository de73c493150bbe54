import { SingleBar } from 'cli-progress';

/** What the progress display shows besides done/total. */
export interface ProgressCounts {
  timeouts: number;
  errors: number;
}

export interface Progress {
  tick(counts: ProgressCounts): void;
  stop(): void;
}

/** Everything one progress line shows. */
export interface ProgressState extends ProgressCounts {
  done: number;
  total: number;
  /** Tasks finished per second. */
  rate: number;
  /** Seconds left; anything not finite (no rate yet) shows as `?`. */
  etaS: number;
}

const NONE: Progress = { tick() {}, stop() {} };
/** Width of a line written to a log, which has no columns of its own. */
const LOG_WIDTH = 80;
const MIN_BAR = 10;
const MAX_BAR = 40;
/** The widest a rate (`99999/s`) and an ETA (`59m59s`) usually are. */
const RATE_WIDTH = 7;
const ETA_WIDTH = 6;

/** Seconds left as `45s`, `3m05s` or `2h05m` (at most ETA_WIDTH characters). */
export function formatEta(s: number): string {
  if (!Number.isFinite(s) || s < 0) return '?';
  const t = Math.ceil(s);
  const two = (n: number) => String(n).padStart(2, '0');
  if (t < 60) return `${t}s`;
  if (t < 3600) return `${Math.floor(t / 60)}m${two(t % 60)}s`;
  if (t < 100 * 3600) return `${Math.floor(t / 3600)}h${two(Math.floor((t % 3600) / 60))}m`;
  return '>99h';
}

const formatRate = (r: number) => (!Number.isFinite(r) || r < 0 ? '?' : r < 10 ? r.toFixed(1) : r < 1e5 ? String(Math.round(r)) : `${Math.round(r / 1000)}k`);

/**
 * The progress line, in at most `width` − 1 columns (the last one is left free, so a terminal that
 * wraps at its edge does not): the fullest layout that fits, its bar narrowed first, then its labels
 * abbreviated (`t/o` timeouts, `err` errors), then the bar, the rate and the ETA left out. The counts
 * are never cut; the shortest layout (done/total, timeouts, errors: 43 columns for counts up to 10^7)
 * is returned even when it does not fit. Without `bar` (a log) the percentage stands in for the bar.
 */
export function progressLine(s: ProgressState, width: number, bar: boolean): string {
  const room = width - 1;
  const counts = `${s.done}/${s.total}`;
  const rate = `${formatRate(s.rate)}/s`;
  const eta = formatEta(s.etaS);
  const part = s.total > 0 ? Math.min(1, Math.max(0, s.done / s.total)) : 1;
  const barred = [
    (b: string, n: string, r: string, e: string) => `solving [${b}] ${n} | ${r} | ETA ${e} | timeouts ${s.timeouts} | errors ${s.errors}`,
    (b: string, n: string, r: string, e: string) => `[${b}] ${n} ${r} ETA ${e} t/o ${s.timeouts} err ${s.errors}`,
  ];
  if (bar)
    for (const layout of barred) {
      // Sized for the widest count, rate and ETA, so that the bar keeps its width as they change.
      const widest = layout('', `${s.total}/${s.total}`, 'r'.repeat(Math.max(RATE_WIDTH, rate.length)), 'e'.repeat(Math.max(ETA_WIDTH, eta.length)));
      const size = Math.min(MAX_BAR, room - widest.length);
      if (size < MIN_BAR) continue;
      const filled = Math.round(part * size);
      return layout('='.repeat(filled) + '-'.repeat(size - filled), counts.padStart(2 * String(s.total).length + 1), rate, eta);
    }
  const pct = `${Math.floor(part * 100)}%`;
  const plain = [
    `solving ${counts} (${pct}) | ${rate} | ETA ${eta} | timeouts ${s.timeouts} | errors ${s.errors}`,
    `solving ${counts} (${pct}) ${rate} ETA ${eta} t/o ${s.timeouts} err ${s.errors}`,
    `${counts} ${rate} ETA ${eta} t/o ${s.timeouts} err ${s.errors}`,
    `${counts} t/o ${s.timeouts} err ${s.errors}`,
  ];
  return plain.find((line) => line.length <= room) ?? plain.at(-1)!;
}

/**
 * A bar on a terminal (done/total, rate, ETA, timeouts and errors so far), fitted to the terminal's
 * width as it is at each redraw; a plain line of under 80 columns every few seconds when the stream
 * is not a terminal (CI logs); nothing when quiet.
 */
export function createProgress(total: number, stream: NodeJS.WriteStream, quiet: boolean, everyMs = 5000): Progress {
  if (quiet || total === 0) return NONE;
  const start = performance.now();
  let done = 0;
  let counts: ProgressCounts = { timeouts: 0, errors: 0 };
  // Rate and ETA over the whole run so far: its rounds keep the mix of tasks the same throughout.
  const state = (): ProgressState => {
    const rate = done / Math.max((performance.now() - start) / 1000, 1e-9);
    return { done, total, rate, etaS: rate > 0 ? (total - done) / rate : NaN, ...counts };
  };
  if (stream.isTTY) {
    const bar = new SingleBar({
      stream,
      // The terminal's width as it is at each redraw.
      format: (_options, params) => progressLine(state(), params.maxWidth, true),
      hideCursor: true,
    });
    bar.start(total, 0);
    return {
      tick(next) {
        done++;
        counts = next;
        bar.update(done);
      },
      stop: () => bar.stop(),
    };
  }
  let last = start;
  let printed = 0; // `done` as of the last line written
  const line = () => {
    printed = done;
    stream.write(`${progressLine(state(), LOG_WIDTH, false)}\n`);
  };
  return {
    tick(next) {
      done++;
      counts = next;
      const now = performance.now();
      if (now - last >= everyMs) {
        last = now;
        line();
      }
    },
    stop() {
      // The final count, unless the last tick already wrote it.
      if (done > printed) line();
    },
  };
}
