import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT } from '../../corpus/paths.js';

/** A compiled worker module (`name` under harness/, e.g. run/worker.js): in this build's dist/, or in dist/ when running from sources. */
export function workerFile(name = 'run/worker.js'): string {
  const here = fileURLToPath(new URL(`../${name}`, import.meta.url));
  if (existsSync(here)) return here;
  const built = join(PACKAGE_ROOT, 'dist', 'harness', name);
  if (existsSync(built)) return built;
  throw new Error(`dist/harness/${name} is missing: run \`npm run build\` first`);
}
