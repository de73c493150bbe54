import type { Command } from 'commander';
import { registerRun } from './run.js';
import { registerMerge } from './merge.js';
import { registerBench } from './bench.js';
import { registerSolve } from './solve.js';
import { registerCheck } from './check.js';
import { registerStrategies } from './strategies.js';
import { registerConvert } from './convert.js';
import { registerGenerate } from './generate.js';
import { registerCnf } from './cnf.js';
import { registerCompare } from './compare.js';
import { registerBenchCheck } from './bench-check.js';
import { registerReport } from './report.js';
import { registerClassify } from './classify.js';

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
  registerReport(program);
  registerClassify(program);
}
