import type { DrawMethod, Kernel } from '../kernel.js';
import { compileScenario } from './compile.js';
import { WarmasterKernel } from './kernel.js';
import type { Scenario } from './schema.js';
import type { WarmasterUnit } from './units.js';

export { type CompiledScenario, compileScenario } from './compile.js';
export { WARMASTER_ENGINE_VERSION } from './kernel.js';
export * from './schema.js';

/**
 * Compile a validated Warmaster scenario into a kernel. `units` maps `<army>/<unit id>` to the army
 * lists' entries (validate.ts reports what makes a scenario invalid).
 */
export function compileWarmaster(scenario: Scenario, units: ReadonlyMap<string, WarmasterUnit>, method: DrawMethod = 'dice'): Kernel {
  return new WarmasterKernel(compileScenario(scenario, units), method);
}
