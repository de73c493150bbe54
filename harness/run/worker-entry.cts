/**
 * The file piscina loads in every worker thread; it hands each task to the ES module named by
 * the pool's `workerData.module` (run/worker.js or classify/worker.js).
 *
 * Piscina loads its handler with require(), and Node 20's require() of an ES module aborts the
 * whole process when the thread is terminated while the module graph is still instantiating
 * (a pool closed just after a timed-out task's replacement thread started does that). This entry
 * is CommonJS, so require() stays safe, and it loads the real handler with import(), which a
 * termination merely cancels.
 */
import { workerData } from 'piscina';
import { pathToFileURL } from 'node:url';

type Handler = (task: unknown) => unknown;

// Started at once, so the thread is warm by its first task, as it would be without this entry.
const loading: Promise<{ default: Handler }> = import(pathToFileURL(workerData.module).href);
// A failed load is reported by the first task that awaits it, not as an unhandled rejection.
loading.catch(() => {});

export = async function runInWorker(task: unknown): Promise<unknown> {
  return (await loading).default(task);
};
