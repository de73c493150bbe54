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

const NONE: Progress = { tick() {}, stop() {} };

/**
 * A bar on a terminal (done/total, rate, ETA, timeouts and errors so far), a plain line every few
 * seconds when the stream is not a terminal (CI logs), nothing when quiet.
 */
export function createProgress(total: number, stream: NodeJS.WriteStream, quiet: boolean, everyMs = 5000): Progress {
  if (quiet || total === 0) return NONE;
  if (stream.isTTY) {
    const bar = new SingleBar({
      stream,
      format: 'solving [{bar}] {value}/{total} | {rate}/s | ETA {eta_formatted} | timeouts {timeouts} | errors {errors}',
      etaBuffer: 200,
      hideCursor: true,
    });
    bar.start(total, 0, { rate: '0.0', timeouts: 0, errors: 0 });
    const start = performance.now();
    let done = 0;
    return {
      tick(counts) {
        done++;
        const rate = (done / ((performance.now() - start) / 1000)).toFixed(1);
        bar.update(done, { rate, ...counts });
      },
      stop: () => bar.stop(),
    };
  }
  const start = performance.now();
  let done = 0;
  let last = start;
  let printed = 0; // `done` as of the last line written
  const line = (counts: ProgressCounts) => {
    printed = done;
    const secs = (performance.now() - start) / 1000;
    const rate = done / Math.max(secs, 1e-9);
    const eta = rate > 0 ? (total - done) / rate : 0;
    stream.write(
      `solving ${done}/${total} (${((100 * done) / total).toFixed(1)}%) ${rate.toFixed(1)}/s, ETA ${eta.toFixed(0)} s, timeouts ${counts.timeouts}, errors ${counts.errors}\n`,
    );
  };
  let lastCounts: ProgressCounts = { timeouts: 0, errors: 0 };
  return {
    tick(counts) {
      done++;
      lastCounts = counts;
      const now = performance.now();
      if (now - last >= everyMs) {
        last = now;
        line(counts);
      }
    },
    stop() {
      // The final count, unless the last tick already wrote it.
      if (done > printed) line(lastCounts);
    },
  };
}
