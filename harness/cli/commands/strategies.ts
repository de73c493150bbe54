import type { Command } from 'commander';
import { builtInStrategies } from '../../../solvers/strategies/registry.js';

/** The registered strategies, one per line: name, then its one-line description. */
export function strategyListing(): string {
  const strategies = builtInStrategies();
  const pad = Math.max(0, ...strategies.map((s) => s.name.length)) + 2;
  return strategies.map((s) => `${s.name.padEnd(pad)}${s.description}\n`).join('');
}

export function registerStrategies(program: Command): void {
  program
    .command('strategies')
    .description('list the registered strategies with their descriptions')
    .option('--json', 'print a JSON array of {name, description}')
    .action((opts: { json?: boolean }) => {
      if (opts.json) {
        const list = builtInStrategies().map((s) => ({ name: s.name, description: s.description }));
        process.stdout.write(`${JSON.stringify(list)}\n`);
      } else {
        process.stdout.write(strategyListing());
      }
    });
}
