import { parentPort, workerData } from 'node:worker_threads';
import { strategyParams, type Params } from '../../solvers/api/params.js';
import { loadStrategy } from '../../solvers/strategies/registry.js';
import { thrownMessage } from '../io/thrown.js';

/**
 * Runs in a thread of its own: imports a plugin module, then answers with its name, the parameters
 * it would run with (resolved against its declaration) and the shared ones it takes, or with why it
 * cannot run.
 */
const { spec, shared, own } = workerData as { spec: string; shared: Params; own: Params };
let strategy;
try {
  strategy = await loadStrategy(spec);
} catch (err) {
  parentPort!.postMessage({ kind: 'load', message: thrownMessage(err) });
}
if (strategy) {
  // Shared parameters go to a strategy that declares them (all of them to one that declares none).
  const declared = strategy.params?.map((p) => p.name);
  const takes = Object.keys(shared).filter((k) => !declared || declared.includes(k));
  const taken = Object.fromEntries(takes.map((k) => [k, shared[k]!]));
  // Each side alone first, so that a bad value is blamed on the side that gave it.
  let fromCommandLine = false;
  try {
    strategyParams(strategy, own);
    fromCommandLine = true;
    strategyParams(strategy, taken);
    parentPort!.postMessage({ kind: 'ok', name: strategy.name, params: strategyParams(strategy, { ...taken, ...own }), takes });
  } catch (err) {
    parentPort!.postMessage({ kind: 'param', message: thrownMessage(err), fromCommandLine });
  }
}
