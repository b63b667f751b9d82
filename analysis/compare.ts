import { compileSpec, kernelSpecOf } from '../sim/kernel-spec.js';
import { runPaired, runUnpaired } from '../sim/paired-run.js';
import { loadScenarioChanged } from '../sim/scenario-file.js';
import { comparePaired, type PairedChannelComparison } from './paired.js';

/**
 * Comparing two variants of a scenario (`crucible compare`): each is the scenario with a variant's
 * field changes applied (or none: the scenario as written), run trial by trial on the same dice
 * (common random numbers), so the difference in each outcome is measured with far less noise than
 * two separate runs. Each channel says how many more trials an unpaired comparison would need.
 */
export interface ComparisonResult {
  readonly file: string;
  readonly scenario: string;
  readonly ruleset: string;
  readonly engineVersion: string;
  /** The variants' names; "(as written)" for the scenario without changes. */
  readonly a: string;
  readonly b: string;
  readonly seed: number;
  readonly trials: number;
  readonly paired: boolean;
  readonly channels: readonly PairedChannelComparison[];
}

export const AS_WRITTEN = '(as written)';

export interface CompareOptions {
  readonly seed?: number;
  readonly trials?: number;
  /** false: independent dice for each variant (to measure what pairing saves). Default true. */
  readonly paired?: boolean;
}

/** Compare variant `a` (undefined: the scenario as written) with variant `b` of the scenario in `file`. */
export async function compareVariants(file: string, a: string | undefined, b: string, options: CompareOptions = {}): Promise<ComparisonResult> {
  const loadedA = await loadScenarioChanged(file, a === undefined ? {} : { variant: a });
  const loadedB = await loadScenarioChanged(file, { variant: b });
  const kernelA = compileSpec(kernelSpecOf(loadedA));
  const kernelB = compileSpec(kernelSpecOf(loadedB));
  const seed = options.seed ?? loadedA.scenario.seed;
  const trials = options.trials ?? loadedA.scenario.trials;
  const paired = options.paired ?? true;
  const tally = (paired ? runPaired : runUnpaired)(kernelA, kernelB, { seed, trials });
  return {
    file,
    scenario: loadedA.scenario.name,
    ruleset: kernelA.ruleset,
    engineVersion: kernelA.engineVersion,
    a: a ?? AS_WRITTEN,
    b,
    seed,
    trials,
    paired,
    channels: comparePaired(tally),
  };
}
