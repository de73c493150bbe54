import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { statSync } from 'node:fs';
import type { Strategy } from '../api/types.js';
import { paramDeclarationProblem } from '../api/params.js';
import { enumeration } from './enumeration.js';
import { sat } from './sat.js';
import { overlapStrategy } from './overlap.js';
import { backtrackStrategy, probeStrategy } from './backtrack.js';
import { autoStrategy } from './auto.js';
import { clip } from '../../corpus/errors.js';

/** Built-in strategies, in the order reports list them. */
const BUILT_IN: Strategy[] = [enumeration, overlapStrategy, backtrackStrategy, probeStrategy, sat, autoStrategy];

export function builtInStrategies(): readonly Strategy[] {
  return BUILT_IN;
}

export function strategyNames(): string[] {
  return BUILT_IN.map((s) => s.name);
}

function isStrategy(value: unknown): value is Strategy {
  const s = value as Strategy | undefined;
  return !!s && typeof s.name === 'string' && typeof s.solve === 'function';
}

/** What a path names, without opening it (which could block on a named pipe). */
function fileKind(path: string): 'file' | 'missing' | 'directory' | 'named pipe' | 'device' | 'socket' | 'special file' {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return 'missing'; // import says why, in its own words
  }
  if (stats.isFile()) return 'file';
  if (stats.isDirectory()) return 'directory';
  if (stats.isFIFO()) return 'named pipe';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'device';
  if (stats.isSocket()) return 'socket';
  return 'special file';
}

/** True when the name looks like a module path rather than a registry name. */
export const isModuleSpecifier = (name: string) => /[\\/]|\.(m?js|cjs|ts)$/.test(name);

/**
 * A strategy by registry name, or loaded from a user's module path (`./my-solver.js`):
 * the module's default export, or its `strategy` export, must be a Strategy.
 */
export async function loadStrategy(nameOrPath: string): Promise<Strategy> {
  const builtIn = BUILT_IN.find((s) => s.name === nameOrPath);
  if (builtIn) return builtIn;
  if (!isModuleSpecifier(nameOrPath))
    throw new Error(`unknown strategy "${clip(nameOrPath)}" (known: ${strategyNames().join(', ')}; or give a module path)`);
  // Import would block for ever on a named pipe with no writer (no thread's time limit can stop a
  // read in progress), and reads a device without end: only regular files are modules.
  const kind = fileKind(resolve(nameOrPath));
  if (kind !== 'file' && kind !== 'missing') throw new Error(`${nameOrPath}: not a regular file (a ${kind}): a strategy module must be a JavaScript file`);
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(resolve(nameOrPath)).href)) as Record<string, unknown>;
  } catch (err) {
    // `throw null` at a module's top level arrives as null: no property of it can be read.
    if ((err as { code?: string } | null)?.code === 'ERR_UNKNOWN_FILE_EXTENSION' && /\.[mc]?ts$/.test(nameOrPath))
      throw new Error(`${nameOrPath}: a TypeScript plugin must be compiled to JavaScript first (tsc, with its types from 'nonobench'); give the .js file`);
    throw err;
  }
  const candidate = [mod.default, mod.strategy].find(isStrategy);
  if (!candidate) throw new Error(`${nameOrPath}: module exports no strategy (default or "strategy" export with name and solve)`);
  const problem = paramDeclarationProblem(candidate.params);
  if (problem) throw new Error(`${nameOrPath}: strategy ${candidate.name}: ${problem}`);
  return candidate;
}
