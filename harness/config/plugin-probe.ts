import { Worker } from 'node:worker_threads';
import type { Params } from '../../solvers/api/params.js';
import { workerFile } from '../io/worker-file.js';
import { limitTimer } from '../io/timers.js';

/** What importing a plugin in a thread of its own told. */
export type PluginProbe =
  | { kind: 'ok'; name: string; params: Params; takes: string[] }
  /** Its parameters were refused (unknown name, bad value): the message says which, and whether the command line's (not the configuration's own) were at fault. */
  | { kind: 'param'; message: string; fromCommandLine: boolean }
  /** The module could not be imported or exports no strategy. */
  | { kind: 'load'; message: string }
  /** Importing it did not end within the limit (an endless loop at import time). */
  | { kind: 'timeout' };

/**
 * Imports a plugin module in a thread of its own, stopped after `limitMs`, so that a module which
 * never finishes loading cannot hang the run that only wanted its name and parameters.
 */
export function probePlugin(spec: string, shared: Params, own: Params, limitMs: number): Promise<PluginProbe> {
  return new Promise((done) => {
    const worker = new Worker(workerFile('config/plugin-probe-worker.js'), { workerData: { spec, shared, own } });
    let settled = false;
    const settle = (probe: PluginProbe) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      done(probe);
    };
    const timer = limitTimer(limitMs, () => settle({ kind: 'timeout' }));
    worker.once('message', (probe: PluginProbe) => settle(probe));
    worker.once('error', (err) => settle({ kind: 'load', message: err.message }));
    worker.once('exit', (code) => settle({ kind: 'load', message: `its thread exited (code ${code}) before answering` }));
  });
}
