import { DEFAULT_DRAW_METHOD, type DrawMethod, type Kernel } from '../kernel.js';
import { defineRuleSystem, schemaCheck } from '../rule-system.js';
import { warmasterChoices } from './choices.js';
import { ALLIES_FILE_NAMES, COMBAT_FLAGS_FILE_NAMES } from './data-files.js';
import { compileScenario } from './compile.js';
import { WARMASTER_ENGINE_VERSION, WarmasterKernel } from './kernel.js';
import { checkWarmasterRefs, loadWarmaster, type WarmasterRefs } from './load.js';
import { rulesSchema, type Scenario, scenarioSchema } from './schema.js';
import { formatWarmasterTrace, type WarmasterTraceEvent } from './trace.js';
import { armyFileSchema, combatFlagsTableSchema, regimentsOfRenownAlliesSchema, type WarmasterUnit } from './units.js';

export { type CompiledScenario, compileScenario } from './compile.js';
export { WARMASTER_ENGINE_VERSION } from './kernel.js';
export type { WarmasterRefs } from './load.js';
export * from './schema.js';

/** The Warmaster Revolution combat rules (retreat, pursuit and advance chains), as engine/registry.ts lists them. */
export const warmaster = defineRuleSystem<Scenario, WarmasterRefs, WarmasterTraceEvent>({
  id: 'warmaster',
  version: WARMASTER_ENGINE_VERSION,
  title: 'Warmaster Revolution combat: rounds, retreats, pursuit and advances',
  scenarioSchema,
  rulesSchema,
  // The army files' schema (warmaster-units.schema.json) is written by scripts/convert-warmaster.ts with the files.
  dataFile: [
    { kind: 'army file', schema: armyFileSchema, check: schemaCheck(armyFileSchema) },
    // The tables scripts/convert-warmaster.ts reads (the combat flags) and writes beside the army files (the allies).
    {
      kind: 'combat flags table',
      names: COMBAT_FLAGS_FILE_NAMES,
      schema: combatFlagsTableSchema,
      check: schemaCheck(combatFlagsTableSchema),
    },
    {
      kind: 'Regiments of Renown allies table',
      names: ALLIES_FILE_NAMES,
      schema: regimentsOfRenownAlliesSchema,
      check: schemaCheck(regimentsOfRenownAlliesSchema),
    },
  ],
  load: loadWarmaster,
  checkRefs: checkWarmasterRefs,
  kernelModule: import.meta.resolve('./kernel-module.js'),
  formatTrace: formatWarmasterTrace,
  sides: (scenario) => [scenario.sides[0]?.name ?? '', scenario.sides[1]?.name ?? ''],
  choices: warmasterChoices,
});
export default warmaster;

/**
 * Compile a validated Warmaster scenario into a kernel. `units` maps `<army>/<unit id>` to the army
 * lists' entries (validate.ts reports what makes a scenario invalid).
 */
export function compileWarmaster(
  scenario: Scenario,
  units: ReadonlyMap<string, WarmasterUnit>,
  method: DrawMethod = DEFAULT_DRAW_METHOD,
): Kernel {
  return new WarmasterKernel(compileScenario(scenario, units), method);
}
