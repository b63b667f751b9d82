import type { DrawMethod } from '../kernel.js';
import { compileScenario } from './compile.js';
import { BattleforgeKernel } from './kernel.js';
import type { BattleforgeRefs } from './load.js';
import type { Scenario } from './schema.js';

/** The Battle Forge kernel, as worker threads build it (this module loads no zod: see engine/rule-system.ts). */
export function compile(scenario: Scenario, refs: BattleforgeRefs, method: DrawMethod): BattleforgeKernel {
  return new BattleforgeKernel(
    compileScenario(scenario, new Map(Object.entries(refs.profiles)), new Map(Object.entries(refs.powers))),
    method,
  );
}
