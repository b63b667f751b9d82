/// <reference types="vite/client" />
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { KernelModule } from '../../engine/rule-system.js';
import { RULE_SYSTEMS } from './built-ins.js';
import { InputError } from '../../input/errors.js';
import { installPlatform, type Platform } from '../../input/platform.js';
import { byteLength, entries, isDirectory, isFile, readText, VolumeError } from './volume.js';

/**
 * The workbench's platform (input/platform.ts), installed by the page (main.tsx) and each of its
 * workers. Files are the workbench's volume (volume.ts), with Node's error codes, so the readers'
 * messages ("file not found", "is a directory") read as the CLI's. Rule systems are the built-ins
 * of engine/registry.ts: a browser cannot import a plugin module from the designer's disk, so a
 * scenario naming one is refused with that reason. A kernel module is found by its rule system's id
 * — engine/<id>/kernel-module.ts, every one bundled — not by its descriptor's `kernelModule` URL.
 * SHA-256 is @noble/hashes's.
 */

const kernelModules = import.meta.glob<KernelModule<unknown, unknown>>('../../engine/*/kernel-module.ts', { eager: true });
const kernelModuleOf = (ruleset: string): KernelModule<unknown, unknown> | undefined =>
  kernelModules[`../../engine/${ruleset}/kernel-module.ts`];

const BUILT_IN = new Map(RULE_SYSTEMS.map((system) => [system.id, system] as const));
const KNOWN = `the built-ins ${RULE_SYSTEMS.map((system) => JSON.stringify(system.id)).join(', ')}`;

export const browserPlatform: Platform = {
  async stat(file) {
    if (isFile(file)) {
      const size = byteLength(await readText(file));
      return { size, isFile: () => true, isDirectory: () => false };
    }
    if (isDirectory(file)) return { size: 0, isFile: () => false, isDirectory: () => true };
    throw new VolumeError('ENOENT', file, 'no such file or directory');
  },
  readText,
  async readDirectory(directory) {
    return entries(directory).map(({ name, folder }) => ({ name, isFile: () => !folder, isDirectory: () => folder }));
  },
  async resolveRuleSystem(file, ruleset) {
    if (typeof ruleset !== 'string' || ruleset === '') {
      throw new InputError([
        {
          file,
          path: 'ruleset',
          message: `${ruleset === undefined ? 'missing: say which rules the scenario uses' : 'must be text'} (${KNOWN})`,
        },
      ]);
    }
    const builtIn = BUILT_IN.get(ruleset);
    if (builtIn !== undefined) return { system: builtIn };
    throw new InputError([
      {
        file,
        path: 'ruleset',
        message: `unknown ruleset ${JSON.stringify(ruleset)}: the workbench runs ${KNOWN}; a plugin module runs from the command line (crucible run)`,
      },
    ]);
  },
  async importKernelModule(ruleset) {
    const module = kernelModuleOf(ruleset);
    if (module === undefined) throw new Error(`no kernel module for rule system ${ruleset} in this build`);
    return { compile: module.compile };
  },
  // The same hex as Node's createHash('sha256'): a scenario's digests match the CLI's.
  sha256: (text) => bytesToHex(sha256(utf8ToBytes(text))),
  // The volume holds the bundled data at data/ (web/platform/volume.ts).
  bundledData: 'data',
};

/** Install the workbench's platform in this thread (the page's and each worker's first step). */
export const installBrowserPlatform = (): void => installPlatform(browserPlatform);
