import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RuleSystem } from '../engine/rule-system.js';
import { BUILT_IN_RULE_SYSTEMS, loadBuiltIn } from '../engine/registry.js';
import { inputFolder } from './data-file.js';
import { InputError, type Problem } from './errors.js';
import type { ResolvedRuleSystem } from './platform.js';
import { BUILT_INS_ONLY, isTrusted, trustAdvice, type TrustedPlugins, UntrustedPluginError } from './plugin-trust.js';
import { prepareImport } from './typescript-plugins.js';

/**
 * Finding a scenario's rule system on Node (Node's platform, input/node-platform.ts, imports this on
 * first use): a built-in of engine/registry.ts by id, or a plugin — a module the scenario names by
 * path (`ruleset: ./rules/my-game.ts`, relative to the scenario file; .ts or .js) or by package
 * name, whose default export (or `ruleSystem` export) is a RuleSystem. A plugin's code is hashed
 * (every source file in its folder), so results and checkpoints can tell one version of a plugin's
 * rules from another. A plugin is imported only if the caller trusts it (input/plugin-trust.ts):
 * naming a module in a scenario never runs it.
 */

const BUILT_IN = new Map(BUILT_IN_RULE_SYSTEMS.map((entry) => [entry.id, entry] as const));
export const BUILT_IN_IDS: readonly string[] = BUILT_IN_RULE_SYSTEMS.map((entry) => entry.id);

/** The built-in rule system with this id (its descriptor loaded on first use), or undefined. */
export async function builtInRuleSystem(id: string): Promise<RuleSystem | undefined> {
  const entry = BUILT_IN.get(id);
  return entry === undefined ? undefined : loadBuiltIn(entry);
}

const SOURCE_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs']);

/** A `ruleset:` value that names a module rather than a built-in: a path, or a package name. */
export const namesModule = (ruleset: string): boolean =>
  !BUILT_IN.has(ruleset) &&
  (/^[./]/.test(ruleset) || SOURCE_EXTENSIONS.has(path.extname(ruleset)) || /^(@[\w.-]+\/)?[\w.-]+(\/[\w.-]+)*$/.test(ruleset));

async function sourceFiles(directory: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true });
  const found: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) found.push(...(await sourceFiles(path.join(directory, entry.name), relative)));
    else if (entry.isFile() && SOURCE_EXTENSIONS.has(path.extname(entry.name))) found.push(relative);
  }
  return found;
}

/** SHA-256 over the source files under `directory`, each as its relative name and its bytes. */
export async function codeHashOf(directory: string): Promise<string> {
  const hash = createHash('sha256');
  for (const name of await sourceFiles(directory)) {
    hash.update(`${name}\0`);
    hash.update(await readFile(path.join(directory, name)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Where a plugin's module is: a path relative to the scenario file, or a package resolved from there. */
function resolveModule(file: string, ruleset: string): string {
  // Standard input or a pipe has no folder: the current directory stands for it (input/data-file.ts).
  const folder = inputFolder(file);
  if (/^[./]/.test(ruleset) || path.isAbsolute(ruleset)) return path.resolve(folder, ruleset);
  return createRequire(path.resolve(folder, path.basename(file))).resolve(ruleset);
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object';

/** What is wrong with a module's export as a rule system (empty: nothing); built-ins pass the same checks. */
export function descriptorProblems(value: unknown, builtIn = false): string[] {
  if (!isObject(value))
    return ['its default export (or `ruleSystem` export) is not a rule system object (see examples/ and engine/rule-system.ts)'];
  const problems: string[] = [];
  if (typeof value.id !== 'string' || !/^[a-z0-9][a-z0-9-]*$/.test(value.id))
    problems.push('`id` must be lower-case letters, digits and dashes');
  else if (!builtIn && BUILT_IN.has(value.id))
    problems.push(`\`id\` ${JSON.stringify(value.id)} is a built-in rule system's: choose another`);
  if (typeof value.version !== 'string' || value.version === '') problems.push('`version` must be a non-empty string');
  if (typeof value.title !== 'string') problems.push('`title` must be a string');
  if (!isObject(value.scenarioSchema) || typeof (value.scenarioSchema as { safeParse?: unknown }).safeParse !== 'function')
    problems.push('`scenarioSchema` must be a zod object schema');
  if (typeof value.load !== 'function') problems.push('`load` must be a function');
  if (typeof value.kernelModule !== 'string') problems.push('`kernelModule` must be the URL of the module exporting `compile`');
  return problems;
}

const plugins = new Map<string, Promise<ResolvedRuleSystem>>();

async function importPlugin(file: string, ruleset: string, location: string): Promise<ResolvedRuleSystem> {
  const fail = (message: string): never => {
    throw new InputError([{ file, path: 'ruleset', message: `rule system module ${JSON.stringify(ruleset)} (${location}): ${message}` }]);
  };
  let module: Record<string, unknown>;
  try {
    const url = pathToFileURL(location).href;
    await prepareImport(url);
    module = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
    // Node's hint when a TypeScript plugin sits outside an ES-module package.
    const hint = /require\(\)|ES Module|Cannot use import statement/.test(message)
      ? ' (is it in a folder whose package.json says "type": "module"?)'
      : '';
    return fail(`cannot be loaded: ${message}${hint}`);
  }
  const descriptor = module.default ?? module.ruleSystem;
  const problems = descriptorProblems(descriptor);
  if (problems.length > 0) return fail(problems.join('; '));
  const system = descriptor as RuleSystem;
  const codeHash = await codeHashOf(path.dirname(location));
  return { system, plugin: { module: ruleset, id: system.id, version: system.version, codeHash } };
}

/** The rule system a scenario's `ruleset:` names, a plugin only if `trust` lists it; an InputError naming the file otherwise. */
export async function resolveRuleSystem(
  file: string,
  ruleset: unknown,
  trust: TrustedPlugins = BUILT_INS_ONLY,
): Promise<ResolvedRuleSystem> {
  const known = `the built-ins ${BUILT_IN_IDS.map((id) => JSON.stringify(id)).join(', ')}, or a plugin module's path (e.g. ./rules/my-game.ts)`;
  if (typeof ruleset !== 'string' || ruleset === '') {
    const problem: Problem = {
      file,
      path: 'ruleset',
      message: `${ruleset === undefined ? 'missing: say which rules the scenario uses' : 'must be text'} (${known})`,
    };
    throw new InputError([problem]);
  }
  const builtIn = await builtInRuleSystem(ruleset);
  if (builtIn !== undefined) return { system: builtIn };
  if (!namesModule(ruleset))
    throw new InputError([{ file, path: 'ruleset', message: `unknown ruleset ${JSON.stringify(ruleset)} (${known})` }]);
  let location: string;
  try {
    location = resolveModule(file, ruleset);
  } catch {
    throw new InputError([
      {
        file,
        path: 'ruleset',
        message: `unknown ruleset ${JSON.stringify(ruleset)}: no such module or package from ${inputFolder(file)} (${known})`,
      },
    ]);
  }
  if (!existsSync(location))
    throw new InputError([{ file, path: 'ruleset', message: `rule system module ${JSON.stringify(ruleset)}: no such file ${location}` }]);
  // A device or FIFO would be read without end by the module loader (issue 17): modules are files.
  if (!statSync(location).isFile())
    throw new InputError([
      {
        file,
        path: 'ruleset',
        message: `rule system module ${JSON.stringify(ruleset)}: ${location} is not a regular file (a module is a .ts or .js file)`,
      },
    ]);
  // Checked before the cache too: another load in this process may have trusted it, this one does not.
  if (!isTrusted(trust, location))
    throw new UntrustedPluginError([
      {
        file,
        path: 'ruleset',
        message: `${JSON.stringify(ruleset)} is a plugin module (${location}) this command was not told to trust: ${trustAdvice(ruleset, location)}`,
      },
    ]);
  let found = plugins.get(location);
  if (found === undefined) {
    found = importPlugin(file, ruleset, location);
    plugins.set(location, found);
    found.catch(() => plugins.delete(location));
    return found;
  }
  // An ES module cannot be loaded twice: code edited since this process loaded it would run as the old code.
  const loaded = await found;
  const now = await codeHashOf(path.dirname(location));
  if (loaded.plugin !== undefined && now !== loaded.plugin.codeHash) {
    throw new InputError([
      {
        file,
        path: 'ruleset',
        message: `rule system module ${JSON.stringify(ruleset)}: its code changed on disk after this process loaded it (code sha256 ${loaded.plugin.codeHash.slice(0, 12)}… → ${now.slice(0, 12)}…); run it in a new process`,
      },
    ]);
  }
  // The same module may be named differently by another scenario (another relative path): each names it its own way.
  return loaded.plugin === undefined ? loaded : { system: loaded.system, plugin: { ...loaded.plugin, module: ruleset } };
}

/**
 * The plugins `trust` lists, imported (each once per process, as a scenario naming it would): for
 * what a command does with every plugin it was given rather than one a scenario names (validate's
 * data-file checks). A module that cannot be loaded as a rule system is an InputError naming it.
 */
export async function trustedRuleSystems(trust: TrustedPlugins): Promise<RuleSystem[]> {
  const resolved = await Promise.all([...trust.files].sort().map((location) => resolveRuleSystem(location, location, trust)));
  return resolved.map(({ system }) => system);
}
