import type { Command } from 'commander';
import { allowedText, defaultText } from '../../../solvers/api/params.js';
import type { Strategy } from '../../../solvers/api/types.js';
import { builtInStrategies } from '../../../solvers/strategies/registry.js';

/** One strategy's parameters, a line each: name, allowed values, default, meaning. */
function paramLines(strategy: Strategy): string[] {
  const params = strategy.params ?? [];
  const pad = Math.max(0, ...params.map((p) => p.name.length)) + 2;
  return params.map((p) => `    ${p.name.padEnd(pad)}${allowedText(p)}; default ${defaultText(p)}: ${p.meaning}\n`);
}

/** The registered strategies: name and one-line description, then each parameter indented. */
export function strategyListing(): string {
  const strategies = builtInStrategies();
  const pad = Math.max(0, ...strategies.map((s) => s.name.length)) + 2;
  return strategies.map((s) => `${s.name.padEnd(pad)}${s.description}\n${paramLines(s).join('')}`).join('');
}

/**
 * The registered strategies as `strategies --json` prints them. A default keeps its type (a number
 * stays a number, `false` stays false); only a default computed from other parameters is its text.
 */
function strategyDescriptions(): object[] {
  return builtInStrategies().map((s) => ({
    name: s.name,
    description: s.description,
    params: (s.params ?? []).map((p) => ({ ...p, default: typeof p.default === 'function' ? defaultText(p) : p.default, allowed: allowedText(p) })),
  }));
}

export function registerStrategies(program: Command): void {
  program
    .command('strategies')
    .description('list the registered strategies with their descriptions and parameters')
    .option('--json', 'print a JSON array of {name, description, params}')
    .action((opts: { json?: boolean }) => {
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(strategyDescriptions())}\n`);
      } else {
        process.stdout.write(strategyListing());
      }
    });
}
