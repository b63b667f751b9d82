import { createHash } from 'node:crypto';
import { compileScenario as compileHeroicScenario } from '../engine/heroic/compile.js';
import { HeroicKernel } from '../engine/heroic/kernel.js';
import type { Scenario as HeroicScenario, Unit } from '../engine/heroic/schema.js';
import type { DrawMethod, Kernel } from '../engine/kernel.js';
import { compileScenario as compileWarmasterScenario } from '../engine/warmaster/compile.js';
import { WarmasterKernel } from '../engine/warmaster/kernel.js';
import type { Scenario as WarmasterScenario } from '../engine/warmaster/schema.js';
import type { WarmasterUnit } from '../engine/warmaster/units.js';
import { compileScenario as compileBattleforgeScenario } from '../engine/battleforge/compile.js';
import { BattleforgeKernel } from '../engine/battleforge/kernel.js';
import type { PowerProfile, UnitProfile } from '../engine/battleforge/profile.js';
import type { Scenario as BattleforgeScenario } from '../engine/battleforge/schema.js';
import { compileScenario as compileEpicScenario } from '../engine/epic/compile.js';
import { EpicKernel } from '../engine/epic/kernel.js';
import type { Army, Scenario as EpicScenario } from '../engine/epic/schema.js';
import type { LoadedScenario } from './scenario-file.js';

/**
 * What a worker thread needs to build a kernel: the validated scenario and its units, as JSON. The
 * JSON crosses to workers as one string (a copy, no object graph to clone) with every shard, and
 * its SHA-256 `digest` names the scenario: workers cache the compiled kernel under it, and a
 * checkpoint records it to refuse being resumed with another scenario or units file. It hashes
 * the parsed content, not the file bytes, so editing a comment does not orphan a checkpoint,
 * while any change that can alter a result (a profile in the units file included) does.
 */
export type KernelSpec = (
  | { readonly ruleset: 'heroic'; readonly scenario: HeroicScenario; readonly units: readonly Unit[] }
  | { readonly ruleset: 'warmaster'; readonly scenario: WarmasterScenario; readonly units: readonly (readonly [string, WarmasterUnit])[] }
  | {
      readonly ruleset: 'battleforge';
      readonly scenario: BattleforgeScenario;
      readonly profiles: readonly (readonly [string, UnitProfile])[];
      readonly powers: readonly (readonly [string, PowerProfile])[];
    }
  | { readonly ruleset: 'epic'; readonly scenario: EpicScenario; readonly armies: readonly (readonly [string, Army])[] }
) & {
  /** Dice rolled one by one, or each action's outcome drawn from its exact table (the default). */
  readonly method: DrawMethod;
};

/**
 * The spec of a loaded scenario (a Warmaster one carries the army-list entries it names). Runs
 * draw from tables unless asked for dice (`--method mc-dice`): the same distributions, faster.
 */
export function kernelSpecOf(loaded: LoadedScenario, method: DrawMethod = 'tables'): KernelSpec {
  switch (loaded.ruleset) {
    case 'heroic':
      return { ruleset: 'heroic', scenario: loaded.scenario, units: loaded.units, method };
    case 'warmaster':
      return { ruleset: 'warmaster', scenario: loaded.scenario, units: [...loaded.units], method };
    case 'battleforge':
      return { ruleset: 'battleforge', scenario: loaded.scenario, profiles: [...loaded.profiles], powers: [...loaded.powers], method };
    case 'epic':
      return { ruleset: 'epic', scenario: loaded.scenario, armies: [...loaded.armies], method };
  }
}

export interface SerializedKernelSpec {
  readonly json: string;
  /** SHA-256 of `json`, hex. */
  readonly digest: string;
}

export function serializeKernelSpec(spec: KernelSpec): SerializedKernelSpec {
  const json = JSON.stringify(spec);
  return { json, digest: createHash('sha256').update(json).digest('hex') };
}

/**
 * The kernel of a spec: what `compileHeroic` / `compileWarmaster` do, imported from their modules
 * rather than the rulesets' index.ts, because the indexes also load the zod schemas, which cost a
 * worker ~0.3 s to start. The spec is not validated again: it was made from a scenario that
 * already passed validation.
 */
export function compileSpec(spec: KernelSpec): Kernel {
  switch (spec.ruleset) {
    case 'heroic':
      return new HeroicKernel(compileHeroicScenario(spec.scenario, spec.units, spec.method));
    case 'warmaster':
      return new WarmasterKernel(compileWarmasterScenario(spec.scenario, new Map(spec.units)), spec.method);
    case 'battleforge':
      return new BattleforgeKernel(compileBattleforgeScenario(spec.scenario, new Map(spec.profiles), new Map(spec.powers)), spec.method);
    case 'epic':
      return new EpicKernel(compileEpicScenario(spec.scenario, new Map(spec.armies), spec.method));
  }
}

/** Rebuild the kernel from `serializeKernelSpec(…).json` (in a worker). */
export function compileKernelSpec(json: string): Kernel {
  return compileSpec(JSON.parse(json) as KernelSpec);
}
