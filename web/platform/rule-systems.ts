/// <reference types="vite/client" />
import type { KernelModule, RuleSystem } from '../../engine/rule-system.js';
import { RULE_SYSTEMS } from '../../engine/rulesets.js';
import { InputError } from '../../input/errors.js';
import { kernelModuleName } from './kernel-names.js';
import type { ResolvedRuleSystem } from '../../input/rule-systems.js';

/**
 * input/rule-systems.ts in the browser build: the same exports, for the built-in rule systems of
 * engine/rulesets.ts. A browser cannot import a plugin module from the designer's disk, so a
 * scenario naming one is refused with that reason. Kernel modules are named rather than located:
 * the build rewrites each built-in's `kernelModule` to `crucible-kernel:<folder>` (web/vite.config.ts),
 * and the page and its workers import every `engine/<folder>/kernel-module.ts` up front.
 */

// The same types as the Node module's (type-only: nothing of it reaches the bundle).
export type { PluginInfo, ResolvedRuleSystem } from '../../input/rule-systems.js';

const modules = import.meta.glob<KernelModule<unknown, unknown>>('../../engine/*/kernel-module.ts', { eager: true });
const kernelModules = new Map<string, KernelModule<unknown, unknown>>(
  Object.entries(modules).map(([key, module]) => {
    const folder = key.split('/').at(-2) ?? '';
    return [kernelModuleName(folder), { compile: module.compile }] as const;
  }),
);

const BUILT_IN = new Map(RULE_SYSTEMS.map((system) => [system.id, system] as const));
export const BUILT_IN_IDS: readonly string[] = RULE_SYSTEMS.map((system) => system.id);
export const builtInRuleSystem = (id: string): RuleSystem | undefined => BUILT_IN.get(id);

export async function resolveRuleSystem(file: string, ruleset: unknown): Promise<ResolvedRuleSystem> {
  const known = `the built-ins ${BUILT_IN_IDS.map((id) => JSON.stringify(id)).join(', ')}`;
  if (typeof ruleset !== 'string' || ruleset === '') {
    throw new InputError([{ file, path: 'ruleset', message: `${ruleset === undefined ? 'missing: say which rules the scenario uses' : 'must be text'} (${known})` }]);
  }
  const builtIn = BUILT_IN.get(ruleset);
  if (builtIn !== undefined) return { system: builtIn };
  throw new InputError([{ file, path: 'ruleset', message: `unknown ruleset ${JSON.stringify(ruleset)}: the workbench runs ${known}; a plugin module runs from the command line (crucible run)` }]);
}

export async function loadKernelModule(url: string): Promise<KernelModule<unknown, unknown>> {
  const module = kernelModules.get(url);
  if (module === undefined) throw new Error(`no kernel module ${url} in this build`);
  return module;
}

export const loadedKernelModule = (url: string): KernelModule<unknown, unknown> | undefined => kernelModules.get(url);
