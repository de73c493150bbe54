import { basename, resolve } from 'node:path';
import { ParamError, strategyParams, typedParams, type Params } from '../../solvers/api/params.js';
import { isModuleSpecifier, loadStrategy, strategyNames } from '../../solvers/strategies/registry.js';
import { oneLine, thrownMessage, UsageError } from '../io/thrown.js';
import { InputError } from '../../corpus/errors.js';
import { probePlugin } from './plugin-probe.js';
import { fileIdentity } from '../io/file-identity.js';
import { ExternalSpecError, programName, recordedExternal, resolveExternal, type ExternalSpec, type ResolvedExternal } from '../external/spec.js';
import { clip } from '../../corpus/errors.js';
import { EXTERNAL_STRATEGY } from '../results/row.js';

/** A plugin's `PATH@HASH`; a file that cannot be read is left to the loader to report. */
function identityOf(path: string): string {
  try {
    return fileIdentity(path);
  } catch {
    return path;
  }
}

/** An external solver's configuration: its program found and hashed, its settings checked. */
export function externalConfiguration(external: ExternalSpec, name?: string, base?: string): Configuration {
  const configName = name ?? programName(external);
  let resolved: ResolvedExternal;
  try {
    resolved = resolveExternal(external, base);
  } catch (err) {
    if (err instanceof ExternalSpecError) throw new UsageError(`configuration "${configName}": ${err.message}`);
    throw err;
  }
  return {
    name: configName,
    spec: resolved.program,
    strategy: EXTERNAL_STRATEGY,
    params: {},
    paramsText: JSON.stringify(recordedExternal(resolved)),
    file: resolved.identity,
    external: resolved,
  };
}

/**
 * A configuration: a strategy with parameter values, under a name unique in its run. Any number of
 * configurations of one strategy run side by side; the CSV records the name in `config`.
 */
export interface ConfigSpec {
  /** Default: the strategy's name followed by the parameters as written (`sat:encoding=automaton`); an external solver's program name. */
  name?: string;
  /** A registry name or a module path; `external` with `external` set. */
  strategy: string;
  params?: Params;
  /** An external solver run as a process (see harness/external/spec.ts). */
  external?: ExternalSpec;
  /** The folder a relative program path of `external` is found from (default: the working directory). */
  base?: string;
  /** Where a definition file gives it: its problems (a bad param, a module that fails, a name used twice) are reported there. */
  origin?: { file: string; line: number };
}

export { EXTERNAL_STRATEGY };

/** A configuration ready to run: names checked, module path absolute, parameters resolved. */
export interface Configuration {
  name: string;
  /** How a worker finds the strategy: a registry name or an absolute module path. */
  spec: string;
  /** The strategy's own name (the CSV's `strategy`). */
  strategy: string;
  /** Resolved: defaults included for declared parameters. */
  params: Params;
  /** What the `params` column records. */
  paramsText: string;
  /** A plugin module's or external program's `PATH@HASH` (the `strategy_file` column); '' for a built-in. */
  file: string;
  external?: ResolvedExternal;
}

/** What follows the strategy in an item, as written (`:encoding=automaton`), kept for the default name. */
const PARAMS_WRITTEN = Symbol('params as written');
type ParsedItem = ConfigSpec & { [PARAMS_WRITTEN]?: string };

/**
 * One `--strategies` item: `[NAME=]STRATEGY[:KEY=VALUE]…`, for example `sat`, `./my-solver.mjs`,
 * `sat:encoding=automaton:probe=true` or `fast=backtrack:probing=false`.
 */
export function parseConfigItem(item: string): ConfigSpec {
  const text = item.trim();
  const [head = '', ...pairs] = text.split(':');
  const eq = head.indexOf('=');
  const name = eq >= 0 ? head.slice(0, eq).trim() : undefined;
  const strategy = (eq >= 0 ? head.slice(eq + 1) : head).trim();
  if (name === '') throw new UsageError(`--strategies item "${clip(text)}": an empty configuration name`);
  if (strategy === '') throw new UsageError(`--strategies item "${clip(text)}": no strategy`);
  if (!isModuleSpecifier(strategy) && !strategyNames().includes(strategy))
    throw new UsageError(`unknown strategy "${clip(strategy)}" (known: ${strategyNames().join(', ')}; or give a module path)`);
  const params: Params = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--strategies item "${clip(text)}": "${clip(pair)}" is not KEY=VALUE`);
    // Two values for one key in one item are a slip: which was meant cannot be told.
    if (Object.hasOwn(params, pair.slice(0, at).trim())) throw new UsageError(`--strategies item "${clip(text)}": ${clip(pair.slice(0, at).trim())} is given twice`);
    // Defined, not assigned: `__proto__` is then a key like any other, refused as an unknown param.
    Object.defineProperty(params, pair.slice(0, at).trim(), { value: pair.slice(at + 1).trim(), enumerable: true, writable: true, configurable: true });
  }
  const parsed: ParsedItem = { strategy, params };
  if (name !== undefined) parsed.name = name;
  if (pairs.length > 0) parsed[PARAMS_WRITTEN] = `:${pairs.map((p) => p.trim()).join(':')}`;
  return parsed;
}

/** A configuration from its parts; without a name it is named like the item `STRATEGY:KEY=VALUE…` would be. */
export function configSpec(strategy: string, params: Params = {}, name?: string): ConfigSpec {
  const spec: ParsedItem = { strategy, params };
  if (name !== undefined) spec.name = name;
  const written = Object.entries(params).map(([k, v]) => `:${k}=${v}`).join('');
  if (written !== '') spec[PARAMS_WRITTEN] = written;
  return spec;
}

/** An item's values as `--param` types them (its name, made from the values as written, is kept). */
function withTypedParams(item: ParsedItem): ParsedItem {
  return item.params ? Object.assign(item, { params: typedParams(item.params) as Params }) : item;
}

/** A whole `--strategies` list: comma-separated items, `all` standing for every built-in strategy. */
export function parseConfigList(list: string): ConfigSpec[] {
  const items = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) throw new UsageError('--strategies names no strategy');
  return items.flatMap((item) => (item === 'all' ? strategyNames().map((strategy) => ({ strategy })) : [withTypedParams(parseConfigItem(item))]));
}

/**
 * Loads each configuration's strategy and resolves its parameters: `given` (from `--param`) goes to
 * every configuration whose strategy declares the name, the configuration's own values override it.
 * A bad value, a name no configuration's strategy declares, or a name used twice is refused
 * before anything runs.
 */
export async function resolveConfigurations(specs: readonly (string | ConfigSpec)[], given: Params = {}, importLimitMs = Infinity): Promise<Configuration[]> {
  const configs: Configuration[] = [];
  const names = new Set<string>();
  const claimed = new Set<string>();
  /** `inFile`: the configuration comes from a definition file, whose way to name it the hint shows. */
  const add = (config: Configuration, inFile: boolean) => {
    if (names.has(config.name))
      throw new UsageError(
        config.external
          ? `configuration "${clip(config.name)}" is listed twice (give each external solver of one program a name of its own)`
          : `configuration "${clip(config.name)}" is listed twice (give one of them a name of its own: ${inFile ? '`name: NAME` in its entry' : `NAME=${clip(config.strategy)}…`})`,
      );
    names.add(config.name);
    configs.push(config);
  };
  let paramFromCommandLine = false;
  for (const raw of specs) {
    // Values written in an item are text: read as `--param` reads them, so `:tries=5` and `--param tries=5` mean the same.
    const item: ParsedItem = typeof raw === 'string' ? withTypedParams(parseConfigItem(raw)) : raw;
    try {
      await resolveOne(item);
    } catch (err) {
      // A definition's configuration is reported at its line, unless a --param value is at fault.
      if (!item.origin || err instanceof InputError || (err instanceof ParamError && paramFromCommandLine)) throw err;
      throw new InputError(item.origin.file, item.origin.line, thrownMessage(err));
    }
  }
  const unclaimed = Object.keys(given).filter((k) => !claimed.has(k));
  if (unclaimed.length > 0) {
    const names = [...new Set(configs.map((c) => c.strategy))].join(', ');
    throw new ParamError(`param ${JSON.stringify(clip(unclaimed[0]!))} is declared by none of the strategies run (${names}); \`nonobench strategies\` lists their params`);
  }
  return configs;

  async function resolveOne(item: ParsedItem): Promise<void> {
    paramFromCommandLine = false;
    if (item.external) {
      add(externalConfiguration(item.external, item.name, item.base), true);
      return;
    }
    const own = item.params ?? {};
    let file = '';
    let strategyName: string;
    let params: Params;
    let spec = item.strategy;
    if (isModuleSpecifier(item.strategy)) {
      // A plugin is imported in a thread of its own: one that never finishes loading gives timeout rows, not a hung run.
      spec = resolve(item.strategy);
      file = identityOf(spec);
      const probe = await probePlugin(spec, given, own, importLimitMs);
      if (probe.kind === 'load') {
        // The loader's own messages start with the path given: said once is enough.
        const message = oneLine(probe.message);
        const own = message.startsWith(`${spec}: `) ? message.slice(spec.length + 2) : message;
        throw new UsageError(`cannot load the strategy module ${clip(oneLine(spec))}: ${shortened(own)}`);
      }
      if (probe.kind === 'param') {
        paramFromCommandLine = probe.fromCommandLine;
        throw new ParamError(probe.message);
      }
      if (probe.kind === 'timeout') {
        strategyName = basename(spec);
        params = { ...given, ...own };
        for (const k of Object.keys(given)) claimed.add(k);
      } else {
        strategyName = probe.name;
        params = probe.params;
        for (const k of probe.takes) claimed.add(k);
      }
    } else {
      const strategy = await loadStrategy(spec);
      const declared = strategy.params?.map((p) => p.name) ?? [];
      const shared = Object.keys(given).filter((k) => declared.includes(k));
      for (const k of shared) claimed.add(k);
      strategyName = strategy.name;
      strategyParams(strategy, own); // the configuration's own values alone first: a bad one is its own
      paramFromCommandLine = true;
      // The command line's alone too: a bad value is refused even where the configuration sets that param.
      const taken = Object.fromEntries(shared.map((k) => [k, given[k]!]));
      strategyParams(strategy, taken);
      params = strategyParams(strategy, { ...taken, ...own });
      paramFromCommandLine = false;
    }
    const name = item.name ?? `${strategyName}${item[PARAMS_WRITTEN] ?? ''}`;
    add({ name, spec, strategy: strategyName, params, paramsText: Object.keys(params).length > 0 ? JSON.stringify(params) : '', file }, item.origin !== undefined);
  }
}

/** A module's own message, whole unless it is huge (a module may throw megabytes): long enough for its advice. */
function shortened(message: string, max = 400): string {
  return message.length <= max ? message : `${message.slice(0, max - 1)}…`;
}
