import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { z } from 'zod';
import { parseWith, readDataFile } from './data-file.js';
import { InputError, type Problem } from './errors.js';
import type { TrustedPlugins } from './platform.js';

/**
 * Which plugin modules may run (issue 31): a scenario file is data a designer shares, so its
 * `ruleset:` may name a module but never makes it run. Only the user vouches for code — with
 * `--plugin <module>` on the command line, in the config file `$CRUCIBLE_CONFIG` names, or in the
 * library's `plugins` option. A module is matched by its real absolute path, a package by the file
 * its name resolves to where it was trusted: not by name, since a scenario's folder could hold a
 * node_modules of its own with another package of that name.
 */
// Declared with the platform, whose `resolveRuleSystem` takes it (the workbench trusts none).
export type { TrustedPlugins } from './platform.js';

/** A scenario naming a module nobody trusted: refused before the module is imported. */
export class UntrustedPluginError extends InputError {}

/** The default everywhere: the built-in rule systems and no plugin. */
export const BUILT_INS_ONLY: TrustedPlugins = { files: new Set() };

/** The environment variable naming the user's config file. */
export const CONFIG_VARIABLE = 'CRUCIBLE_CONFIG';

/** Symlinks resolved, so two names of one file are one module. */
const realPath = (file: string): string => {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
};

/** A module named as a path rather than a package name, as a scenario's `ruleset:` is read. */
const namesPath = (module: string): boolean => /^[./]/.test(module) || path.isAbsolute(module);

/** The file a package name resolves to from `base` (throws if none). */
const resolvePackage = (name: string, base: string): string => createRequire(path.join(base, 'noop.js')).resolve(name);

const resolvesTo = (name: string, base: string): string | undefined => {
  try {
    return realPath(resolvePackage(name, base));
  } catch {
    return undefined;
  }
};

/** On the command line or in a config, a path typed without ./ (examples/homebrew/index.ts) is still a path when it exists. */
const isPathLike = (module: string, base: string): boolean => namesPath(module) || existsSync(path.resolve(base, module));

/**
 * Trust `modules` (paths relative to `base`, or package names resolved from there). `source` and
 * `field` say where they were given, for the error when one does not exist.
 */
export function trustPlugins(
  modules: readonly string[],
  base: string = process.cwd(),
  source = '--plugin',
  field?: (index: number) => string,
): TrustedPlugins {
  const files = new Set<string>();
  const problems: Problem[] = [];
  modules.forEach((module, index) => {
    // `--plugin: ./x.ts: no such file …`; in a config, `plugins[0]: "./x.ts": no such file …`.
    const at = field?.(index) ?? module;
    const named = at === module ? '' : `${JSON.stringify(module)}: `;
    if (isPathLike(module, base)) {
      const location = path.resolve(base, module);
      if (existsSync(location)) files.add(realPath(location));
      else problems.push({ file: source, path: at, message: `${named}no such file ${location}` });
      return;
    }
    try {
      files.add(realPath(resolvePackage(module, base)));
    } catch {
      problems.push({ file: source, path: at, message: `${named}no such file, and no package of that name from ${base}` });
    }
  });
  if (problems.length > 0) throw new InputError(problems);
  return { files };
}

/** Both lists' plugins. */
export const joinTrust = (a: TrustedPlugins, b: TrustedPlugins): TrustedPlugins => ({ files: new Set([...a.files, ...b.files]) });

/** Is the module at `location` one the user trusts? */
export const isTrusted = (trust: TrustedPlugins, location: string): boolean => trust.files.has(realPath(location));

/** The refusal's advice: the module as --plugin would take it from the current directory. */
export function trustAdvice(ruleset: string, location: string): string {
  const relative = path.relative(process.cwd(), location);
  const fromHere = relative.startsWith('..') || path.isAbsolute(relative) ? relative : `./${relative}`;
  // The shorter spelling: ../evil.mjs beside the current directory, an absolute path far from it.
  const shorter = fromHere.length <= location.length ? fromHere : location;
  // A package by its name only if that name means the same file from here.
  const named = !namesPath(ruleset) && resolvesTo(ruleset, process.cwd()) === realPath(location) ? ruleset : shorter;
  return `run with --plugin ${named} (or list it under plugins: in the config file $${CONFIG_VARIABLE} names) if you trust its code`;
}

const configSchema = z.strictObject({
  plugins: z.array(z.string().min(1)).describe('plugin modules to trust: paths relative to this file, or package names'),
});

/** The plugins listed in a config file (YAML or JSON: `plugins: [./rules/my-game.ts]`), paths relative to it. */
export async function readConfigTrust(file: string): Promise<TrustedPlugins> {
  const parsed = await readDataFile(file);
  if (!parsed.ok)
    throw new InputError(
      parsed.problems.map((problem) => ({ ...problem, message: `${problem.message} (the config file $${CONFIG_VARIABLE} names)` })),
    );
  const { value, problems } = parseWith(configSchema, file, parsed.data);
  if (value === undefined) throw new InputError(problems);
  return trustPlugins(value.plugins, path.dirname(path.resolve(file)), file, (index) => `plugins[${index}]`);
}

/** What a command trusts: its --plugin modules (from the current directory) and the config's, if `$CRUCIBLE_CONFIG` is set. */
export async function commandTrust(plugins: readonly string[] | undefined, env: NodeJS.ProcessEnv): Promise<TrustedPlugins> {
  const given = trustPlugins(plugins ?? []);
  const config = env[CONFIG_VARIABLE];
  return config === undefined || config === '' ? given : joinTrust(given, await readConfigTrust(config));
}
