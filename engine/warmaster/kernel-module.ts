import type { DrawMethod } from '../kernel.js';
import { compileScenario } from './compile.js';
import { WarmasterKernel } from './kernel.js';
import type { WarmasterRefs } from './load.js';
import type { Scenario } from './schema.js';

/** The Warmaster kernel, as worker threads build it (this module loads no zod: see engine/rule-system.ts). */
export function compile(scenario: Scenario, refs: WarmasterRefs, method: DrawMethod): WarmasterKernel {
  return new WarmasterKernel(compileScenario(scenario, new Map(Object.entries(refs.units))), method);
}
