import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { KernelModule } from '../engine/rule-system.js';
import { BUNDLED_DATA } from './package-info.js';
import { installPlatform, type Platform } from './platform.js';
import { prepareImport } from './typescript-plugins.js';

/**
 * The platform on Node (input/platform.ts): the file system, rule systems by built-in id or plugin
 * module (input/rule-systems.ts, imported on first use: a worker thread, which only compiles
 * kernels, never loads the descriptors and zod), kernel modules imported by URL, node:crypto's SHA-256.
 */
let ruleSystems: Promise<typeof import('./rule-systems.js')> | undefined;

export const nodePlatform: Platform = {
  stat,
  readText: (file) => readFile(file, 'utf8'),
  readDirectory: (directory) => readdir(directory, { withFileTypes: true }),
  // The import kept: a matchup loads thousands of scenarios, and each import() of a loaded module still
  // goes to the module loader (under tsx, a round trip to its hooks thread: ~0.5 ms, most of a seating's set-up).
  resolveRuleSystem: async (file, ruleset, trust) =>
    (await (ruleSystems ??= import('./rule-systems.js'))).resolveRuleSystem(file, ruleset, trust),
  async importKernelModule(_ruleset, location) {
    // A plugin's kernel written in TypeScript needs tsx, registered on first need (input/typescript-plugins.ts).
    await prepareImport(location);
    const module = (await import(location)) as { compile?: unknown; default?: { compile?: unknown } };
    const compile = typeof module.compile === 'function' ? module.compile : module.default?.compile;
    if (typeof compile !== 'function')
      throw new Error(
        `${location.startsWith('file:') ? fileURLToPath(location) : location} does not export \`compile(scenario, refs, method)\``,
      );
    return { compile: compile as KernelModule<unknown, unknown>['compile'] };
  },
  sha256: (text) => createHash('sha256').update(text).digest('hex'),
  bundledData: BUNDLED_DATA,
};

/** Install Node's platform in this thread (an entry point's first step). */
export const installNodePlatform = (): void => installPlatform(nodePlatform);
