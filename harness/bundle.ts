/**
 * The build's last step, after tsc: each program entry (the CLI and the modules worker threads
 * load) is bundled from its sources in place of its compiled module, its dependencies included,
 * with the code they share split into dist/chunks/. A process or thread then reads a few files instead of
 * several hundred, which was most of the start-up of every `nonobench` process. Everything else in
 * dist/ (the plugin API, the benchmarks) stays as tsc wrote it.
 */
import { chmodSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { PACKAGE_ROOT } from '../corpus/paths.js';

const DIST = join(PACKAGE_ROOT, 'dist');
const ENTRIES = ['harness/cli.ts', 'harness/run/worker.ts', 'harness/classify/worker.ts', 'harness/config/plugin-probe-worker.ts', 'harness/external/answer-thread.ts'];

// From the sources, not tsc's output, which an incremental build leaves bundled.
const { metafile } = await build({
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
  // Maps for `node --enable-source-maps`, without a copy of every source (the sources are beside dist/).
  sourcemap: 'linked',
  sourcesContent: false,
  metafile: true,
  absWorkingDir: PACKAGE_ROOT,
  logLevel: 'warning',
  // Piscina finds its own worker file next to itself, so it stays in node_modules.
  external: ['piscina'],
  // The CommonJS packages bundled call require() for Node's modules, which an ES module lacks.
  banner: { js: "import { createRequire as nonobenchRequire } from 'node:module'; const require = nonobenchRequire(import.meta.url);" },
});
// The last build's chunks go only now that this one's are written: a failed build leaves a working one.
const CHUNKS = join(DIST, 'chunks');
const written = new Set(Object.keys(metafile.outputs).map((file) => relative(CHUNKS, join(PACKAGE_ROOT, file))));
for (const file of readdirSync(CHUNKS)) if (!written.has(file)) rmSync(join(CHUNKS, file));
chmodSync(join(DIST, 'harness', 'cli.js'), 0o755);
