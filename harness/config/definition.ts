import { existsSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { isMap, isScalar, LineCounter, parseDocument, visit } from 'yaml';
import { z } from 'zod';
import { clip, InputError, InputErrors } from '../../corpus/errors.js';
import { displayPath, splitMemberPath } from '../../corpus/load.js';
import { suiteNames, suitePaths } from '../../corpus/suites.js';
import { strategyNames } from '../../solvers/strategies/registry.js';
import { shortHash } from '../io/file-identity.js';
import { globFiles } from '../io/glob-files.js';
import { readInput } from '../io/read-input.js';
import { thrownMessage } from '../io/thrown.js';
import { configSpec, EXTERNAL_STRATEGY, type ConfigSpec } from './configurations.js';
import { ENCODINGS } from '../../solvers/sat/encodings/encode.js';
import { ExternalSpecError, INPUT_FORMATS, OUTPUT_ADAPTERS, resolveExternal, type ExternalSpec } from '../external/spec.js';
import { MAX_WARMUP } from './limits.js';

/**
 * A benchmark definition file (`run --config FILE`, YAML or JSON): the puzzles, the configurations
 * and the run's settings, checked against a schema so that a typo is an error at its line, not a
 * setting silently left at its default.
 */

const scalar = z.union([z.string(), z.number(), z.boolean()]);

/** A string no program can be given: the system cuts a word or a variable at a NUL character. */
const noNul = <T extends z.ZodType<string>>(schema: T) => schema.refine((text) => !text.includes('\0'), 'a NUL character cannot be passed to a program');

/** A record that refuses a `__proto__` key, which zod's record drops without a word. */
const withoutProto = <T extends z.ZodType>(record: T, what: string) =>
  z.preprocess((value, ctx) => {
    if (value !== null && typeof value === 'object' && Object.hasOwn(value, '__proto__')) ctx.addIssue({ code: 'custom', message: `"__proto__" is not ${what}` });
    return value;
  }, record);

const configuration = z
  .object({
    name: z.string().min(1).optional(),
    /** A built-in strategy's name. */
    strategy: z.string().min(1).optional(),
    /** A plugin module's path, relative to the definition file. */
    module: z.string().min(1).optional(),
    // A record drops a `__proto__` key without a word; it is no parameter name, so it is refused.
    params: withoutProto(z.record(z.string(), scalar), 'a parameter name').optional(),
    /** An external solver's command line (see harness/external/spec.ts); a relative program path is from the definition file. */
    command: z.union([noNul(z.string().min(1)), z.array(noNul(z.string())).min(1)]).optional(),
    input: z.enum(INPUT_FORMATS).optional(),
    output: z.enum(OUTPUT_ADAPTERS).optional(),
    encoding: z.enum(ENCODINGS).optional(),
    env: withoutProto(
      z.record(z.string(), noNul(z.string())).superRefine((env, ctx) => {
        for (const name of Object.keys(env))
          if (name === '' || /[=\0]/.test(name)) ctx.addIssue({ code: 'custom', path: [name], message: 'an environment variable name is not empty and holds no "=" nor NUL character' });
      }),
      'an environment variable name',
    ).optional(),
  })
  .strict()
  .refine((c) => [c.strategy, c.module, c.command].filter((v) => v !== undefined).length === 1, {
    message: 'give one of strategy (a built-in), module (a plugin) or command (an external solver)',
  })
  .refine((c) => c.command === undefined || (c.input !== undefined && c.output !== undefined), {
    message: `an external solver needs input (${INPUT_FORMATS.join(', ')}) and output (${OUTPUT_ADAPTERS.join(', ')})`,
    path: ['command'],
  })
  .refine((c) => c.command !== undefined || (c.input ?? c.output ?? c.encoding ?? c.env) === undefined, {
    message: 'input, output, encoding and env go with command (an external solver)',
  })
  .refine((c) => c.command === undefined || c.params === undefined, {
    message: "an external solver takes no params: put its settings in its command",
    path: ['params'],
  });

const definitionSchema = z
  .object({
    puzzles: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    configurations: z.array(configuration).min(1),
    timeout: z.number().min(0).optional(),
    memory: z.number().int().min(16).optional(),
    maxSolutions: z.number().int().min(1).optional(),
    repeat: z.number().int().min(1).optional(),
    warmup: z.number().int().min(0).max(MAX_WARMUP).optional(),
    workers: z.number().int().min(1).optional(),
  })
  .strict();

export type DefinitionSettings = Pick<z.infer<typeof definitionSchema>, 'timeout' | 'memory' | 'maxSolutions' | 'repeat' | 'warmup' | 'workers'>;

export interface Definition {
  /** Puzzle paths, absolute: globs expanded, suite names replaced by their paths; none when the file names none. */
  paths: string[];
  configurations: ConfigSpec[];
  settings: DefinitionSettings;
  /** Where the file gives `workers`, for a count this machine refuses (only the command knows its limit). */
  workersAt?: { file: string; line: number };
  /** Where the file gives `repeat`, for a run of more tasks than one run takes (known once the puzzles are loaded). */
  repeatAt?: { file: string; line: number };
  /** What the run records of it (the `definition` column): the file as given and a hash of its text. */
  recorded: string;
}

const GLOB = /[*?[\]{}]/;

/** The line of the node at `path` in the document, or of the nearest node above it that exists. */
function lineOf(doc: ReturnType<typeof parseDocument>, counter: LineCounter, path: readonly PropertyKey[]): number {
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n) as (string | number)[], true) as { range?: [number, number, number] } | undefined;
    if (node && typeof node === 'object' && node.range) return counter.linePos(node.range[0]).line;
  }
  return 1;
}

/** The line of the key `key` in the mapping at `path` (an unknown key's own line: its value may start lines below). */
function keyLineOf(doc: ReturnType<typeof parseDocument>, counter: LineCounter, path: readonly PropertyKey[], key: string): number {
  const map = doc.getIn(path as (string | number)[], true);
  if (isMap(map))
    for (const pair of map.items)
      if (isScalar(pair.key) && String(pair.key.value) === key && pair.key.range) return counter.linePos(pair.key.range[0]).line;
  return lineOf(doc, counter, [...path, key]);
}

/** A puzzles entry as paths: a suite name, a glob (sorted matches), or a path (`#N` / `#A-B` kept). */
function expandPuzzles(entry: string, base: string, file: string, line: number, self: string): string[] {
  if (/^[\w-]+$/.test(entry) && !existsSync(resolve(base, entry)) && suiteNames().includes(entry)) return suitePaths(entry);
  if (GLOB.test(entry)) {
    // The definition file itself is no puzzle (`puzzles: "*"` beside it).
    const matches = globFiles(entry, { cwd: base, absolute: true, onlyFiles: false, expandDirectories: false }).filter((m) => resolve(m) !== self);
    if (matches.length === 0) throw new InputError(file, line, `puzzles: no file matches ${JSON.stringify(entry)}`);
    return matches;
  }
  const { file: path } = splitMemberPath(entry);
  return [isAbsolute(path) ? entry : resolve(base, entry.slice(0, path.length)) + entry.slice(path.length)];
}

/** Reads and checks a definition file; every problem is an InputError at its line. */
export function loadDefinition(file: string): Definition {
  const shown = displayPath(file);
  const text = readInput(file);
  const counter = new LineCounter();
  const lineAt = (range: readonly number[] | null | undefined) => (range ? counter.linePos(range[0]!).line : 1);
  let doc: ReturnType<typeof parseDocument>;
  let value: unknown;
  try {
    doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: false });
    // The parser reports running out of stack as an error of the document: said as what it means.
    const why = (message: string) => (/Maximum call stack size exceeded/.test(message) ? 'nested too deeply' : message.split('\n')[0]);
    // A warning (a tag the parser does not know, such as `!custom`, whose value it reads as if untagged) is refused too: nothing is silently dropped.
    const problems = [...doc.errors, ...doc.warnings];
    if (problems.length > 0) throw new InputErrors(problems.map((e) => new InputError(shown, lineAt(e.pos), `not YAML or JSON: ${why(e.message)}`)));
    visit(doc, {
      Map(_key, map) {
        // A key given twice would silently take one of the values: report it at the second.
        const seen = new Set<unknown>();
        for (const pair of map.items) {
          if (!isScalar(pair.key)) throw new InputError(shown, lineAt(map.range), 'a key must be a name, not a list or a mapping');
          if (seen.has(pair.key.value)) throw new InputError(shown, lineAt(pair.key.range), `${String(pair.key.value)} is given twice`);
          seen.add(pair.key.value);
        }
      },
      Alias(_key, alias) {
        if (!alias.resolve(doc)) throw new InputError(shown, lineAt(alias.range), `not YAML or JSON: *${alias.source} names no anchor before it`);
      },
    });
    value = doc.toJS();
  } catch (err) {
    if (err instanceof InputError || err instanceof InputErrors) throw err;
    // What is left: aliases that expand too far (a "billion laughs" file), nesting too deep for the stack.
    throw new InputError(shown, 1, `not YAML or JSON: ${err instanceof RangeError ? 'nested too deeply' : thrownMessage(err)}`);
  }
  const parsed = definitionSchema.safeParse(value);
  if (!parsed.success) {
    throw new InputErrors(
      parsed.error.issues.map((issue) => {
        const keys = 'keys' in issue && Array.isArray(issue.keys) ? (issue.keys as string[]) : [];
        const path = keys.length > 0 ? [...issue.path, keys[0]!] : issue.path;
        const where = path.length > 0 ? `${path.map(String).join('.')}: ` : '';
        const line = keys.length > 0 ? keyLineOf(doc, counter, issue.path, keys[0]!) : lineOf(doc, counter, path);
        return new InputError(shown, line, `${where}${issue.message}`);
      }),
    );
  }
  const def = parsed.data;
  const base = dirname(resolve(file));
  const entries = def.puzzles === undefined ? [] : typeof def.puzzles === 'string' ? [def.puzzles] : def.puzzles;
  const paths = entries.flatMap((entry, i) => expandPuzzles(entry, base, shown, lineOf(doc, counter, typeof def.puzzles === 'string' ? ['puzzles'] : ['puzzles', i]), resolve(file)));
  def.configurations.forEach((c, i) => {
    if (c.strategy !== undefined && !strategyNames().includes(c.strategy))
      throw new InputError(shown, lineOf(doc, counter, ['configurations', i, 'strategy']), `configurations.${i}.strategy: unknown strategy ${JSON.stringify(clip(c.strategy))} (known: ${strategyNames().join(', ')}; a plugin is given as module)`);
  });
  const configurations = def.configurations.map((c, i): ConfigSpec => ({ ...configurationSpec(c, i), origin: { file: shown, line: lineOf(doc, counter, ['configurations', i]) } }));
  const { puzzles: _puzzles, configurations: _configurations, ...settings } = def;
  const workersAt = def.workers !== undefined ? { workersAt: { file: shown, line: lineOf(doc, counter, ['workers']) } } : {};
  const repeatAt = def.repeat !== undefined ? { repeatAt: { file: shown, line: lineOf(doc, counter, ['repeat']) } } : {};
  return { paths, configurations, settings, ...workersAt, ...repeatAt, recorded: `${shown}@${shortHash(text)}` };

  function configurationSpec(c: (typeof def.configurations)[number], i: number): ConfigSpec {
    if (c.command === undefined) return configSpec(c.strategy ?? resolve(base, c.module!), c.params, c.name);
    const external: ExternalSpec = { command: c.command, input: c.input!, output: c.output! };
    if (c.encoding !== undefined) external.encoding = c.encoding;
    if (c.env !== undefined) external.env = c.env;
    try {
      resolveExternal(external, base);
    } catch (err) {
      if (err instanceof ExternalSpecError) throw new InputError(shown, lineOf(doc, counter, ['configurations', i, 'command']), `configurations.${i}.${err.message}`);
      throw err;
    }
    return { ...(c.name !== undefined ? { name: c.name } : {}), strategy: EXTERNAL_STRATEGY, external, base };
  }
}
