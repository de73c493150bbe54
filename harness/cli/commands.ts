import type { Command } from 'commander';

type Register = (program: Command) => void;

/**
 * Every CLI command, one module per command, in the order `--help` lists them. Each is loaded only
 * when needed: a command's module pulls in all the work it does, and loading every command's took
 * most of the start-up of each `nonobench` process.
 */
const COMMANDS: Record<string, () => Promise<Register>> = {
  run: async () => (await import('./commands/run.js')).registerRun,
  merge: async () => (await import('./commands/merge.js')).registerMerge,
  bench: async () => (await import('./commands/bench.js')).registerBench,
  solve: async () => (await import('./commands/solve.js')).registerSolve,
  check: async () => (await import('./commands/check.js')).registerCheck,
  strategies: async () => (await import('./commands/strategies.js')).registerStrategies,
  convert: async () => (await import('./commands/convert.js')).registerConvert,
  generate: async () => (await import('./commands/generate.js')).registerGenerate,
  cnf: async () => (await import('./commands/cnf.js')).registerCnf,
  compare: async () => (await import('./verdicts/compare.js')).registerCompare,
  'bench-check': async () => (await import('./verdicts/bench-check.js')).registerBenchCheck,
  history: async () => (await import('./verdicts/history.js')).registerHistory,
  ab: async () => (await import('./verdicts/ab.js')).registerAb,
  report: async () => (await import('./commands/report.js')).registerReport,
  classify: async () => (await import('./commands/classify.js')).registerClassify,
};

/**
 * Registers the command that `args` (the arguments after the program's) start with, or every
 * command when they start with none (`--help`, `help run`, a misspelt name, which commander then
 * answers with the whole list).
 */
export async function registerCommands(program: Command, args: readonly string[]): Promise<void> {
  const name = args[0];
  const wanted = name !== undefined && Object.hasOwn(COMMANDS, name) ? [COMMANDS[name]!] : Object.values(COMMANDS);
  for (const register of await Promise.all(wanted.map((load) => load()))) register(program);
}
