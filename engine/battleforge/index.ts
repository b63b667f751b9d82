import type { DrawMethod, Kernel } from '../kernel.js';
import { compileScenario } from './compile.js';
import { BattleforgeKernel } from './kernel.js';
import type { PowerProfile, UnitProfile } from './profile.js';
import type { Scenario } from './schema.js';

export { type CompiledScenario, compileScenario } from './compile.js';
export { BATTLEFORGE_ENGINE_VERSION } from './kernel.js';
export type { ModelProfile, PowerProfile, UnitProfile, WeaponProfile } from './profile.js';
export * from './schema.js';

/**
 * Compile a validated Battle Forge scenario into a kernel. `profiles` maps `<faction>/<unit id>` to
 * the units' combat profiles (validate.ts reports what makes a scenario invalid).
 */
export function compileBattleforge(scenario: Scenario, profiles: ReadonlyMap<string, UnitProfile>, powers: ReadonlyMap<string, PowerProfile> = new Map(), method: DrawMethod = 'dice'): Kernel {
  return new BattleforgeKernel(compileScenario(scenario, profiles, powers), method);
}
