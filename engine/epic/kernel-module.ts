import type { DrawMethod } from '../kernel.js';
import { compileScenario } from './compile.js';
import { EpicKernel } from './kernel.js';
import type { EpicRefs } from './load.js';
import type { Scenario } from './schema.js';

/** The Epic rally kernel, as worker threads build it (this module loads no zod: see engine/rule-system.ts). */
export function compile(scenario: Scenario, refs: EpicRefs, method: DrawMethod): EpicKernel {
  return new EpicKernel(compileScenario(scenario, new Map(Object.entries(refs.armies)), method));
}
