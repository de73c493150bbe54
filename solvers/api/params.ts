/**
 * Declared strategy parameters and the one parser every strategy, plugin and command uses.
 * A value arrives typed (from JavaScript) or as text (`--param key=value`); both are read by the
 * same rules, so a parameter means the same wherever it is set.
 */

import { clip } from '../../corpus/errors.js';

export type ParamValue = number | boolean | string;
export type Params = Record<string, ParamValue>;

interface ParamBase {
  name: string;
  /** One line, shown by `nonobench strategies` and in error messages. */
  meaning: string;
  /** How `strategies` shows a default that depends on other parameters. */
  defaultText?: string;
  /** A yes/no parameter that may only be true while the named yes/no parameter is true too. */
  requires?: string;
}

/** A default, or a rule that computes it from the parameters declared before this one. */
type Default<T> = T | ((earlier: Params) => T);

export type ParamSpec =
  | (ParamBase & { type: 'boolean'; default: Default<boolean> })
  | (ParamBase & { type: 'integer'; default: Default<number>; min: number; max?: number })
  | (ParamBase & { type: 'enum'; default: Default<string>; values: readonly string[] });

/** Whether a value is one the parameter takes as it stands (a default is not parsed from text, as a given value is). */
function takes(spec: ParamSpec, value: unknown): boolean {
  switch (spec.type) {
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return Number.isSafeInteger(value) && (value as number) >= spec.min && (spec.max === undefined || (value as number) <= spec.max);
    case 'enum':
      return typeof value === 'string' && spec.values.includes(value);
  }
}

/**
 * What is wrong with a strategy's `params` declaration (a plugin's own, read from its module), or
 * undefined when it is a list of well-formed ParamSpecs with distinct names.
 */
export function paramDeclarationProblem(params: unknown): string | undefined {
  if (params === undefined) return undefined;
  if (!Array.isArray(params)) return `params must be a list of parameter declarations, got ${typeof params}`;
  const names = new Set<string>();
  for (const [i, spec] of params.entries()) {
    const at = `params[${i}]`;
    if (typeof spec !== 'object' || spec === null) return `${at} must be an object`;
    const { name, type, meaning } = spec as Record<string, unknown>;
    if (typeof name !== 'string' || !/^[A-Za-z_][\w-]*$/.test(name)) return `${at}.name must be a word (letters, digits, _ or -)`;
    if (name in Object.prototype) return `${at}: ${name} is a name every JavaScript object has, not a parameter name`;
    if (names.has(name)) return `${at}: param ${name} is declared twice`;
    names.add(name);
    if (typeof meaning !== 'string') return `param ${name}: meaning must be a string`;
    if (!('default' in spec)) return `param ${name}: default is missing`;
    const fallback = (spec as { default: unknown }).default;
    // A computed default is checked when it is computed; a given one here.
    const given = typeof fallback !== 'function';
    if (type === 'enum') {
      const values = (spec as { values?: unknown }).values;
      if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === 'string')) return `param ${name}: values must be a list of strings`;
      if (given && !takes(spec as ParamSpec, fallback)) return `param ${name}: default must be one of its values`;
    } else if (type === 'integer') {
      const { min, max } = spec as { min?: unknown; max?: unknown };
      if (typeof min !== 'number' || !Number.isFinite(min)) return `param ${name}: min must be a number`;
      if (max !== undefined && (typeof max !== 'number' || !(max >= min))) return `param ${name}: max must be a number ≥ min`;
      if (given && !takes(spec as ParamSpec, fallback)) return `param ${name}: default must be a whole number within min and max`;
    } else if (type === 'boolean') {
      if (given && !takes(spec as ParamSpec, fallback)) return `param ${name}: default must be true or false`;
    } else return `param ${name}: type must be boolean, integer or enum, got ${JSON.stringify(type)}`;
  }
  for (const spec of params as { name: string; type: string; requires?: unknown }[]) {
    if (spec.requires === undefined) continue;
    const other = (params as { name: string; type: string }[]).find((p) => p.name === spec.requires);
    if (spec.type !== 'boolean' || other?.type !== 'boolean' || other === spec) return `param ${spec.name}: requires must name another yes/no param, and it must be one itself`;
  }
  return undefined;
}

/** A bad parameter name or value: a usage error of the command that was given it. */
export class ParamError extends Error {}

/**
 * A value written as text (`--param key=value`, `STRATEGY:key=value`): `true`, `false` and numbers
 * written as JavaScript writes them (`300`, `-2`, `0.5`) become booleans and numbers, as a strategy
 * that declares no parameters gets them; anything else stays text for the strategy's own parser.
 */
export function typedParam(raw: string): ParamValue {
  return raw === 'true' ? true : raw === 'false' ? false : Number.isFinite(Number(raw)) && String(Number(raw)) === raw ? Number(raw) : raw;
}

/** Params with each text value typed as typedParam types it (a key such as `__proto__` stays an own key). */
export function typedParams(params: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? typedParam(v) : v]));
}

const TRUE_WORDS = new Set(['true', '1', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'off']);

/** What values a parameter takes, in words. */
export function allowedText(spec: ParamSpec): string {
  switch (spec.type) {
    case 'boolean':
      return 'true/false, 1/0 or on/off';
    case 'integer':
      return spec.max === undefined ? `a whole number ≥ ${spec.min}` : `a whole number from ${spec.min} to ${spec.max}`;
    case 'enum':
      return spec.values.join('|');
  }
}

function parseValue(strategy: string, spec: ParamSpec, raw: ParamValue): ParamValue {
  const text = String(raw).trim();
  switch (spec.type) {
    case 'boolean':
      if (raw === true || TRUE_WORDS.has(text)) return true;
      if (raw === false || FALSE_WORDS.has(text)) return false;
      break;
    case 'integer': {
      // Written as a number is written: `007` is no whole number here (nor would it name the configuration `7` does).
      const n = typeof raw === 'number' ? raw : /^(0|-?[1-9]\d*)$/.test(text) ? Number(text) : NaN;
      if (Number.isSafeInteger(n) && n >= spec.min && (spec.max === undefined || n <= spec.max)) return n;
      break;
    }
    case 'enum':
      if (spec.values.includes(text)) return text;
      break;
  }
  throw new ParamError(`${strategy}: param ${spec.name} must be ${allowedText(spec)}, got ${JSON.stringify(typeof raw === 'string' ? clip(raw) : raw)}`);
}


/** A value in a message, whatever it is (a BigInt, a function, an object with a throwing toString). */
function shown(value: unknown): string {
  try {
    if (typeof value === 'bigint') return `${value}n`;
    if (typeof value === 'function') return 'a function';
    return clip(JSON.stringify(value) ?? String(value));
  } catch {
    return `a value of type ${typeof value}`;
  }
}

/**
 * A default computed from the parameters before it (a plugin's rule), held to the parameter's own
 * values as a given one is: what the rule gives, or throws, is a ParamError naming the parameter.
 */
function computedDefault(strategy: string, spec: ParamSpec, earlier: Params): ParamValue {
  let value: unknown;
  try {
    value = (spec.default as (earlier: Params) => unknown)(earlier);
  } catch (err) {
    throw new ParamError(`${strategy}: param ${spec.name}: its computed default threw ${err instanceof Error ? clip(err.message) : shown(err)}`);
  }
  if (!takes(spec, value)) throw new ParamError(`${strategy}: param ${spec.name}: its computed default gave ${shown(value)}, not ${allowedText(spec)}`);
  return value as ParamValue;
}

/** At most this many param names are listed in a message; `nonobench strategies` describes them all. */
const LISTED_PARAMS = 12;

/** The names of the parameters a strategy declares, in one short line. */
function paramsSummary(specs: readonly ParamSpec[]): string {
  const names = specs.slice(0, LISTED_PARAMS).map((s) => clip(s.name));
  const more = specs.length > LISTED_PARAMS ? ` and ${specs.length - LISTED_PARAMS} more` : '';
  return `${names.join(', ')}${more}; \`nonobench strategies\` describes them`;
}

/**
 * The values a strategy runs with: each declared parameter from `given` or its default, in
 * declaration order. A name the strategy does not declare, or a bad value, throws a ParamError
 * naming the strategy and listing what it declares.
 */
export function resolveParams(strategy: string, specs: readonly ParamSpec[], given: Readonly<Params> = {}): Params {
  for (const name of Object.keys(given)) {
    if (!specs.some((s) => s.name === name)) {
      const known = specs.length > 0 ? `its params: ${paramsSummary(specs)}` : 'it takes no params';
      throw new ParamError(`${strategy}: unknown param ${JSON.stringify(clip(name))} (${known})`);
    }
  }
  const resolved: Params = {};
  for (const spec of specs) {
    const raw = Object.hasOwn(given, spec.name) ? given[spec.name] : undefined;
    resolved[spec.name] =
      raw !== undefined ? parseValue(strategy, spec, raw) : typeof spec.default === 'function' ? computedDefault(strategy, spec, resolved) : spec.default;
  }
  for (const spec of specs)
    if (spec.requires !== undefined && resolved[spec.name] === true && resolved[spec.requires] !== true)
      throw new ParamError(`${strategy}: param ${spec.name}=true needs ${spec.requires}=true`);
  return resolved;
}

/**
 * The parameters a strategy is run with: its declared ones resolved (defaults included); a plugin
 * that declares none gets what it was given, unchecked.
 */
export function strategyParams(strategy: { name: string; params?: readonly ParamSpec[] }, given: Readonly<Params> = {}): Params {
  return strategy.params ? resolveParams(strategy.name, strategy.params, given) : { ...given };
}

/** The default of a parameter as `strategies` shows it. */
export function defaultText(spec: ParamSpec): string {
  return spec.defaultText ?? String(spec.default);
}
