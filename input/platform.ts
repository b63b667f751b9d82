import type { KernelModule, RuleSystem } from '../engine/rule-system.js';

/**
 * What crucible's shared modules (input/, sim/, analysis/, documents/, reports/) need from where
 * they run, in the few places Node and a browser differ: reading the user's files, finding the rule
 * system a scenario names, importing its kernel module, hashing. Node's (input/node-platform.ts: the
 * file system, plugins by path or package, kernel modules by URL, node:crypto) is installed by each
 * Node entry — cli/main.ts, index.ts, sim/shard-worker.ts, test/setup.ts, the benches and notebooks
 * — and the workbench's (web/platform/browser-platform.ts: its volume of bundled data, the built-ins
 * only, kernel modules by rule-system id, @noble/hashes) by the page and its workers. Paths are
 * POSIX paths in both (pathe).
 */

/** A file's size and kind, as a stat says them. */
export interface FileInfo {
  readonly size: number;
  isFile(): boolean;
  isDirectory(): boolean;
}

/** One entry of a directory: its name and kind. */
export interface DirectoryEntry {
  readonly name: string;
  isFile(): boolean;
  isDirectory(): boolean;
}

/** The plugin modules a caller trusts to run (input/plugin-trust.ts makes and checks them). */
export interface TrustedPlugins {
  /** Real absolute paths of the trusted module files. */
  readonly files: ReadonlySet<string>;
}

/** What identifies a plugin's code in results and checkpoints. */
export interface PluginInfo {
  /** The module as the scenario names it. */
  readonly module: string;
  /** Its id and version, as its descriptor declares them. */
  readonly id: string;
  readonly version: string;
  /** SHA-256 over the source files of the plugin's folder (names and contents), hex. */
  readonly codeHash: string;
}

export interface ResolvedRuleSystem {
  readonly system: RuleSystem;
  readonly plugin?: PluginInfo;
}

/**
 * A failure to read carries Node's error code (`ENOENT`, `EISDIR`, `EACCES`…) as `code`, so the
 * readers' messages ("file not found", "is a directory") read the same everywhere.
 */
export interface Platform {
  stat(file: string): Promise<FileInfo>;
  /** The file's text, decoded as UTF-8 (a byte-order mark kept). */
  readText(file: string): Promise<string>;
  /**
   * A stream's text (`-`: standard input; else a pipe or a device), read to its end as UTF-8, or
   * undefined once it passes `maxBytes` (reading stops there). Where there are none (a browser): absent.
   */
  readonly readStream?: (file: string, maxBytes: number) => Promise<string | undefined>;
  /** The entries of `directory`, in no particular order. */
  readDirectory(directory: string): Promise<DirectoryEntry[]>;
  /** The rule system a scenario's `ruleset:` names, a plugin only if `trust` lists it (none without it); an InputError naming `file` otherwise. */
  resolveRuleSystem(file: string, ruleset: unknown, trust?: TrustedPlugins): Promise<ResolvedRuleSystem>;
  /** Import the kernel module of rule system `ruleset`, found at `location` (its descriptor's `kernelModule`). */
  importKernelModule(ruleset: string, location: string): Promise<KernelModule<unknown, unknown>>;
  /** SHA-256 of `text` (as UTF-8), hex: a spec's digest, the units' digest, seeds and ids derived from names. */
  sha256(text: string): string;
  /** Where crucible's bundled data is (data/: units, armies, factions, scenarios), as this platform's paths name it. */
  readonly bundledData: string;
}

let installed: Platform | undefined;

/** Make `platform` the one the shared modules use in this thread (each entry point does, once). */
export function installPlatform(platform: Platform): void {
  installed = platform;
}

/** The platform this thread's entry point installed. */
export function platform(): Platform {
  if (installed === undefined)
    throw new Error(
      'no platform installed in this thread: an entry point calls installPlatform (input/platform.ts) before loading scenarios or kernels',
    );
  return installed;
}

const kernelModules = new Map<string, KernelModule<unknown, unknown>>();
const kernelKey = (ruleset: string, location: string): string => `${ruleset}\n${location}`;

/** The kernel module of rule system `ruleset` at `location`, imported once per thread (a worker imports nothing else of the rule system). */
export async function loadKernelModule(ruleset: string, location: string): Promise<KernelModule<unknown, unknown>> {
  const key = kernelKey(ruleset, location);
  const cached = kernelModules.get(key);
  if (cached !== undefined) return cached;
  const module = await platform().importKernelModule(ruleset, location);
  kernelModules.set(key, module);
  return module;
}

/** The kernel module of rule system `ruleset` at `location` if this thread has loaded it already. */
export const loadedKernelModule = (ruleset: string, location: string): KernelModule<unknown, unknown> | undefined =>
  kernelModules.get(kernelKey(ruleset, location));
