import { parentPort } from 'node:worker_threads';
import { AdapterError, readAnswer, type AnswerRequest } from './adapters.js';

/**
 * The worker thread that reads one large answer (see `read-answer.ts`): the request comes as its
 * one message, and the answer, or what was wrong with it, goes back as one message.
 */
parentPort!.once('message', (request: AnswerRequest) => {
  try {
    parentPort!.postMessage({ answer: readAnswer(request) });
  } catch (err) {
    parentPort!.postMessage(err instanceof AdapterError ? { adapterError: err.message } : { error: err instanceof Error ? err.message : String(err) });
  }
});
