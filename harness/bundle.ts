/**
 * The build's last step, after tsc: each program entry (the CLI and the modules worker threads
 * load) is bundled from its sources in place of its compiled module, its dependencies included,
 * with the code they share split into dist/chunks/. A process or thread then reads a few files instead of
 * several hundred, which was most of the start-up of every `nonobench` process. Everything else in
 * dist/ (the plugin API, the benchmarks) stays as tsc wrote it.
 */
import { chmodSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { PACKAGE_ROOT } from '../corpus/paths.js';

const DIST = join(PACKAGE_ROOT, 'dist');
const ENTRIES = ['harness/cli.ts', 'harness/run/worker.ts', 'harness/classify/worker.ts', 'harness/config/plugin-probe-worker.ts'];

// From the sources, not tsc's output, which an incremental build leaves bundled; so the chunks of the last build can go.
rmSync(join(DIST, 'chunks'), { recursive: true, force: true });
await build({
  entryPoints: ENTRIES.map((entry) => join(PACKAGE_ROOT, entry)),
  outbase: PACKAGE_ROOT,
  outdir: DIST,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  // Piscina finds its own worker file next to itself, so it stays in node_modules.
  external: ['piscina'],
  // The CommonJS packages bundled call require() for Node's modules, which an ES module lacks.
  banner: { js: "import { createRequire as nonobenchRequire } from 'node:module'; const require = nonobenchRequire(import.meta.url);" },
});
chmodSync(join(DIST, 'harness', 'cli.js'), 0o755);
