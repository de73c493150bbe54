import { Worker } from 'node:worker_threads';
import type { SolveResult } from '../../solvers/api/types.js';
import type { SolverAnswer } from '../../solvers/sat/dimacs/solver-output.js';
import { workerFile } from '../io/worker-file.js';
import { AdapterError, readAnswer, type AnswerRequest } from './adapters.js';

/**
 * Reads an external solver's answer without holding up the harness's thread: the timers of every
 * other call and task in flight run on that thread, and reading tens of MiB a hostile program
 * printed (millions of short lines, a line of millions of blank-separated cells) takes seconds.
 * A short answer is read at once; a longer one in a worker thread of its own.
 */

/** Longer answers (bytes or characters) are read in a thread: a shorter one takes the harness a few ms at most. */
export const INLINE_LENGTH = 64 * 1024;
/** The longest a thread may read, a minute and a second per MiB: far more than any answer the adapters take needs (a model's `v` lines read at several MiB a second). */
const readLimitMs = (length: number) => 60_000 + Math.ceil(length / (1 << 20)) * 1000;

type Reply = { answer: SolveResult | SolverAnswer } | { adapterError: string } | { error: string };

function inThread(request: AnswerRequest): Promise<SolveResult | SolverAnswer> {
  return new Promise((done, fail) => {
    const thread = new Worker(workerFile('external/answer-thread.js'));
    let settled = false;
    const settle = (f: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void thread.terminate();
      f();
    };
    const limitMs = readLimitMs(request.text.length);
    const timer = setTimeout(() => settle(() => fail(new AdapterError(`its output took more than ${limitMs / 1000} s to read`))), limitMs);
    thread.once('message', (reply: Reply) =>
      settle(() => ('answer' in reply ? done(reply.answer) : fail('adapterError' in reply ? new AdapterError(reply.adapterError) : new AdapterError(`its output could not be read: ${reply.error}`)))),
    );
    // A thread that died reading (out of memory) or could not start.
    thread.once('error', (err) => settle(() => fail(new AdapterError(`its output could not be read: ${err.message}`))));
    thread.once('exit', (code) => settle(() => fail(new AdapterError(`its output could not be read: the reading thread exited with code ${code}`))));
    // Bytes that own their memory are handed over, not copied (a small Buffer may share Node's pool).
    const { text } = request;
    const owned = typeof text !== 'string' && text.byteOffset === 0 && text.byteLength === text.buffer.byteLength && text.buffer instanceof ArrayBuffer;
    thread.postMessage(request, owned ? [text.buffer as ArrayBuffer] : []);
  });
}

/** The answer `request` holds (an AdapterError when there is none to read), read off the harness's thread when it is long. */
export async function readAnswerAside(request: AnswerRequest & { adapter: 'dimacs-model' }): Promise<SolverAnswer>;
export async function readAnswerAside(request: AnswerRequest & { adapter: 'grid' | 'json' }): Promise<SolveResult>;
export async function readAnswerAside(request: AnswerRequest): Promise<SolveResult | SolverAnswer> {
  return request.text.length <= INLINE_LENGTH ? readAnswer(request) : inThread(request);
}
