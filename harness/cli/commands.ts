import type { Command } from 'commander';
import { registerRun } from './commands/run.js';
import { registerMerge } from './commands/merge.js';
import { registerBench } from './commands/bench.js';
import { registerSolve } from './commands/solve.js';
import { registerCheck } from './commands/check.js';
import { registerStrategies } from './commands/strategies.js';
import { registerConvert } from './commands/convert.js';
import { registerGenerate } from './commands/generate.js';
import { registerCnf } from './commands/cnf.js';
import { registerCompare } from './verdicts/compare.js';
import { registerBenchCheck } from './verdicts/bench-check.js';
import { registerHistory } from './verdicts/history.js';
import { registerAb } from './verdicts/ab.js';
import { registerReport } from './commands/report.js';
import { registerClassify } from './commands/classify.js';

/** Every CLI command registers itself here, one module per command. */
export function registerCommands(program: Command): void {
  registerRun(program);
  registerMerge(program);
  registerBench(program);
  registerSolve(program);
  registerCheck(program);
  registerStrategies(program);
  registerConvert(program);
  registerGenerate(program);
  registerCnf(program);
  registerCompare(program);
  registerBenchCheck(program);
  registerHistory(program);
  registerAb(program);
  registerReport(program);
  registerClassify(program);
}
