import { openSync, statSync } from 'node:fs';

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Runs `io`, a call that may block for ever (opening a named pipe whose other end never comes,
 * reading one whose writer never closes it), with the default action for Ctrl-C, SIGTERM and
 * SIGHUP: a listener (the output lock's, a run's) cannot run while the thread is blocked, so with
 * one the process could not be stopped short of SIGKILL.
 */
export function withDefaultStopSignals<T>(io: () => T): T {
  // Raw listeners, so that one added with `once` is restored as such.
  const saved = STOP_SIGNALS.map((signal) => ({ signal, listeners: process.rawListeners(signal) as ((...args: unknown[]) => void)[] }));
  for (const signal of STOP_SIGNALS) process.removeAllListeners(signal);
  try {
    return io();
  } finally {
    for (const { signal, listeners } of saved) for (const listener of listeners) process.on(signal, listener);
  }
}

/** openSync, with the default stop signals while it opens a named pipe (which waits for its other end). */
export function openMayWait(path: string, flags: string): number {
  return statSync(path, { throwIfNoEntry: false })?.isFIFO() ? withDefaultStopSignals(() => openSync(path, flags)) : openSync(path, flags);
}
