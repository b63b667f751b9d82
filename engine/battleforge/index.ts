import { DEFAULT_DRAW_METHOD, type DrawMethod, type Kernel } from '../kernel.js';
import { defineRuleSystem, schemaCheck } from '../rule-system.js';
import { battleforgeChoices } from './choices.js';
import { compileScenario } from './compile.js';
import { BATTLEFORGE_ENGINE_VERSION, BattleforgeKernel } from './kernel.js';
import { type BattleforgeRefs, checkBattleforgeRefs, loadBattleforge } from './load.js';
import type { PowerProfile, UnitProfile } from './profile.js';
import { rulesSchema, type Scenario, scenarioSchema } from './schema.js';
import { type BattleforgeTraceEvent, formatBattleforgeTrace } from './trace.js';
import { factionFileSchema, indexFileSchema } from './units.js';

export { type CompiledScenario, compileScenario } from './compile.js';
export { BATTLEFORGE_ENGINE_VERSION } from './kernel.js';
export type { BattleforgeRefs } from './load.js';
export type { ModelProfile, PowerProfile, UnitProfile, WeaponProfile } from './profile.js';
export * from './schema.js';

/** The Battle Forge core rules (D10, Shock, breaks, reactions), as engine/registry.ts lists them. */
export const battleforge = defineRuleSystem<Scenario, BattleforgeRefs, BattleforgeTraceEvent>({
  id: 'battleforge',
  version: BATTLEFORGE_ENGINE_VERSION,
  title: 'Battle Forge core rules: D10 attacks, Shock, breaks and reactions',
  scenarioSchema,
  rulesSchema,
  // Its data files' schemas (battleforge-units, battleforge-index) are written by scripts/convert-battleforge.ts.
  dataFile: [
    { kind: 'faction file', schema: factionFileSchema, check: schemaCheck(factionFileSchema) },
    { kind: 'index file', schema: indexFileSchema, check: schemaCheck(indexFileSchema) },
  ],
  load: loadBattleforge,
  checkRefs: checkBattleforgeRefs,
  kernelModule: import.meta.resolve('./kernel-module.js'),
  formatTrace: formatBattleforgeTrace,
  mode: (scenario) => scenario.mode,
  sides: (scenario) => [scenario.sides[0]?.name ?? '', scenario.sides[1]?.name ?? ''],
  choices: battleforgeChoices,
});
export default battleforge;

/**
 * Compile a validated Battle Forge scenario into a kernel. `profiles` maps `<faction>/<unit id>` to
 * the units' combat profiles (validate.ts reports what makes a scenario invalid).
 */
export function compileBattleforge(
  scenario: Scenario,
  profiles: ReadonlyMap<string, UnitProfile>,
  powers: ReadonlyMap<string, PowerProfile> = new Map(),
  method: DrawMethod = DEFAULT_DRAW_METHOD,
): Kernel {
  return new BattleforgeKernel(compileScenario(scenario, profiles, powers), method);
}
