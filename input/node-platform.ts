import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { KernelModule } from '../engine/rule-system.js';
import { BUNDLED_DATA } from './package-info.js';
import { installPlatform, type Platform } from './platform.js';
import { prepareImport } from './typescript-plugins.js';

let ruleSystems: Promise<typeof import('./rule-systems.js')> | undefined;

/**
 * The platform on Node (input/platform.ts): the file system, rule systems by built-in id or plugin
 * module (input/rule-systems.ts, imported on first use: a worker thread, which only compiles
 * kernels, never loads the descriptors and zod), kernel modules imported by URL, node:crypto's SHA-256.
 */

export const nodePlatform: Platform = {
  stat,
  readText: (file) => readFile(file, 'utf8'),
  readStream,
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

/** Standard input (`-`), a pipe or a device, read to its end or until it passes `maxBytes`. */
async function readStream(file: string, maxBytes: number): Promise<string | undefined> {
  const stream = file === '-' ? process.stdin : createReadStream(file);
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > maxBytes) break;
      chunks.push(chunk);
    }
  } catch (error) {
    // Leaving the loop early destroys the stream, which standard input reports as aborted.
    if (bytes <= maxBytes) throw error;
  } finally {
    // Standard input is read once (input/data-file.ts keeps its text); a pipe or device is closed.
    if (stream !== process.stdin) stream.destroy();
  }
  return bytes > maxBytes ? undefined : Buffer.concat(chunks).toString('utf8');
}

/** Install Node's platform in this thread (an entry point's first step). */
export const installNodePlatform = (): void => installPlatform(nodePlatform);
