import { accessSync, constants, statSync } from 'node:fs';
import { basename, delimiter, isAbsolute, join, resolve } from 'node:path';
import { parse } from 'shell-quote';
import { ENCODINGS, type EncodingName } from '../../solvers/sat/encodings/encode.js';
import { fileIdentity } from '../io/file-identity.js';

/**
 * An external solver: a program run as a child process per task. The puzzle is written in `input`
 * format, the command template gets its path, and the `output` adapter reads the answer back.
 */
export const INPUT_FORMATS = ['non', 'xml', 'json', 'cnf'] as const;
export type InputFormat = (typeof INPUT_FORMATS)[number];

export const OUTPUT_ADAPTERS = ['grid', 'dimacs-model', 'json'] as const;
export type OutputAdapter = (typeof OUTPUT_ADAPTERS)[number];

export interface ExternalSpec {
  /** The command line: one string split as a shell splits words (no pipes or redirections), or the words themselves. */
  command: string | string[];
  input: InputFormat;
  output: OutputAdapter;
  /** The CNF encoding, with `input: cnf` (default blocks). */
  encoding?: EncodingName;
  /** Variables added to the solver's environment. */
  env?: Record<string, string>;
}

/** An external solver ready to run: the words split, the program found, its file hashed. */
export interface ResolvedExternal extends ExternalSpec {
  argv: string[];
  /** The program's absolute path. */
  program: string;
  /** What rows record of it (`strategy_file`): `PATH@HASH` of the program, and of each file its words name (a script an interpreter runs). */
  identity: string;
  /** The words substitute `{model}`: the answer is read from that file rather than from stdout. */
  modelFile: boolean;
  /** The words name the input file; otherwise it is given on standard input. */
  inputFile: boolean;
}

/** What `{…}` in a command may name, and what it is replaced by. */
export const PLACEHOLDERS: Record<string, string> = {
  puzzle: 'the input file (in the input format)',
  cnf: 'the same file, with input cnf',
  model: 'a file for the SAT model (MiniSat style), read instead of stdout; with output dimacs-model',
  timeout: 'the time limit in whole seconds, rounded up (0: none)',
  timeout_ms: 'the time limit in milliseconds (0: none)',
  memory: 'the memory cap in MiB',
  max_solutions: 'the number of solutions asked for',
  dir: "the task's scratch folder",
  width: "the puzzle's width",
  height: "the puzzle's height",
};

/** A problem with an external solver's settings; the caller says where (a definition file's line). */
export class ExternalSpecError extends Error {}

const PLACEHOLDER = /\{\{|\}\}|\{([^{}]*)\}/g;

/** The command's words, split like a shell would (quotes kept together, `$VAR`, `${VAR}` and `~` left as written). */
export function commandWords(command: string | string[]): string[] {
  if (Array.isArray(command)) return command;
  // The splitter reads a quote left open as if it were closed at the end; a shell refuses it.
  const { open, escaped } = readQuoting(command);
  if (open) throw new ExternalSpecError(`command: a ${open} quote is not closed (a shell would refuse it)`);
  const words = parse(escaped, (name) => `$${name}`);
  return words.map((w) => {
    if (typeof w === 'string') return w;
    if ('op' in w && w.op === 'glob') return w.pattern;
    throw new ExternalSpecError(`command: shell operators (${JSON.stringify('op' in w ? w.op : w)}) are not run; give ["sh", "-c", "…"] for a shell pipeline`);
  });
}

/** The quote a command leaves open at its end (`'` or `"`; '' when none), as readQuoting reads it. */
export const unclosedQuote = (command: string): string => readQuoting(command).open;

/**
 * A command read as a shell reads quotes, backslashes, `$'…'` (whose backslashes escape, as the
 * splitter reads it) and a `#` that begins a word (a comment: the rest is not read): the quote it
 * leaves open at its end, and the command with each `#` inside an unquoted word escaped (a shell
 * reads it as part of the word, the splitter as the start of a comment).
 */
function readQuoting(command: string): { open: string; escaped: string } {
  let out = '';
  let quote = '';
  /** Whether the next character begins a word (after unquoted, unescaped blanks). */
  let wordStart = true;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    const starts = wordStart;
    wordStart = false;
    if (c === '\\' && quote !== "'") {
      out += c + (command[i + 1] ?? '');
      i++;
      continue;
    }
    if (quote === "'" || quote === '$') {
      if (c === "'") quote = '';
    } else if (quote === '"') {
      if (c === '"') quote = '';
      else if (c === '$') {
        out += '\\$';
        continue;
      }
    } else if (/\s/.test(c)) wordStart = true;
    else if (c === '#') {
      if (starts) return { open: '', escaped: out + command.slice(i) };
      out += '\\#';
      continue;
    } else if (c === '$' && command[i + 1] === "'") {
      quote = '$';
      out += "$'";
      i++;
      continue;
    } else if (c === '$') {
      // Escaped for the splitter, which would expand `${HOME}x` to `$HOMEx`; `$$` is two of these, never the start of `$'…'`.
      out += command[i + 1] === '$' ? '\\$\\$' : '\\$';
      if (command[i + 1] === '$') i++;
      continue;
    } else if (c === "'" || c === '"') quote = c;
    out += c;
  }
  return { open: quote === '$' ? "'" : quote, escaped: out };
}

/** Checks the words' placeholders against the input and output; the first problem is thrown. */
function checkPlaceholders(words: string[], spec: ExternalSpec): void {
  for (const word of words) {
    for (const m of word.matchAll(PLACEHOLDER)) {
      const name = m[1];
      if (name === undefined) continue;
      if (!Object.hasOwn(PLACEHOLDERS, name)) throw new ExternalSpecError(`command: unknown placeholder {${name}} (known: ${Object.keys(PLACEHOLDERS).map((p) => `{${p}}`).join(' ')}; {{ and }} for braces)`);
      if (name === 'cnf' && spec.input !== 'cnf') throw new ExternalSpecError('command: {cnf} needs input cnf');
      if (name === 'model' && spec.output !== 'dimacs-model') throw new ExternalSpecError('command: {model} needs output dimacs-model');
    }
  }
}

/** The words with their placeholders filled in. */
export function fillPlaceholders(words: readonly string[], values: Record<string, string>): string[] {
  return words.map((word) => word.replace(PLACEHOLDER, (all, name: string | undefined) => (name === undefined ? all[0]! : Object.hasOwn(values, name) ? values[name]! : all)));
}

const usesPlaceholder = (words: readonly string[], names: string[]) =>
  words.some((w) => [...w.matchAll(PLACEHOLDER)].some((m) => m[1] !== undefined && names.includes(m[1])));

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The program's absolute path: a path as given (relative to `base`), or the first match on PATH. */
export function findProgram(program: string, base = process.cwd(), path = process.env.PATH ?? ''): string | undefined {
  if (program.includes('/')) {
    const file = isAbsolute(program) ? program : resolve(base, program);
    return isExecutableFile(file) ? file : undefined;
  }
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    const file = join(dir, program);
    if (isExecutableFile(file)) return file;
  }
  return undefined;
}

/**
 * Checks an external solver's settings and finds its program (a relative path from `base`);
 * every problem is an ExternalSpecError.
 */
export function resolveExternal(spec: ExternalSpec, base = process.cwd()): ResolvedExternal {
  if (!INPUT_FORMATS.includes(spec.input)) throw new ExternalSpecError(`input: ${JSON.stringify(spec.input)} is not one of ${INPUT_FORMATS.join(', ')}`);
  if (!OUTPUT_ADAPTERS.includes(spec.output)) throw new ExternalSpecError(`output: ${JSON.stringify(spec.output)} is not one of ${OUTPUT_ADAPTERS.join(', ')}`);
  if (spec.encoding !== undefined && spec.input !== 'cnf') throw new ExternalSpecError('encoding: only with input cnf');
  if (spec.encoding !== undefined && !ENCODINGS.includes(spec.encoding)) throw new ExternalSpecError(`encoding: ${JSON.stringify(spec.encoding)} is not one of ${ENCODINGS.join(', ')}`);
  if (spec.output === 'dimacs-model' && spec.input !== 'cnf') throw new ExternalSpecError('output dimacs-model reads a SAT model of our CNF: it needs input cnf');
  const argv = commandWords(spec.command);
  if (argv.length === 0 || argv[0] === '') throw new ExternalSpecError('command: empty');
  checkPlaceholders(argv, spec);
  const program = findProgram(argv[0]!, base);
  if (!program) throw new ExternalSpecError(`command: program ${JSON.stringify(argv[0])} not found${argv[0]!.includes('/') ? '' : ' on PATH'} (or not executable)`);
  // A word naming a file beside the definition (`solver.py` after `python3`) is made absolute, since
  // the solver runs in its scratch folder; its contents are part of what ran.
  const files: string[] = [];
  const args = argv.slice(1).map((word) => {
    if (word.startsWith('-') || usesPlaceholder([word], Object.keys(PLACEHOLDERS))) return word;
    const file = isAbsolute(word) ? word : resolve(base, word);
    if (!isFile(file)) return word;
    files.push(file);
    return file;
  });
  return {
    ...spec,
    argv: [program, ...args],
    program,
    identity: [program, ...new Set(files)].map(fileIdentity).join(' '),
    modelFile: usesPlaceholder(argv, ['model']),
    inputFile: usesPlaceholder(argv, ['puzzle', 'cnf']),
  };
}

/** A short default name for an external solver's configuration: its program's file name. */
export const programName = (spec: ExternalSpec): string => basename(commandWords(spec.command)[0] ?? 'external');

/** The settings as the `params` column records them, enough to run the solver again: the command's words with the program's absolute path. */
export function recordedExternal(spec: ResolvedExternal): Record<string, unknown> {
  const out: Record<string, unknown> = { command: spec.argv, input: spec.input, output: spec.output };
  if (spec.encoding !== undefined) out.encoding = spec.encoding;
  if (spec.env !== undefined) out.env = spec.env;
  return out;
}
