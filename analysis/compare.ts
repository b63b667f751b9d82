import type { MetricKind, MetricSpec } from '../engine/kernel.js';
import { InputError } from '../input/errors.js';
import { compileSpec, kernelSpecOf, serializeKernelSpec } from '../sim/kernel-spec.js';
import { commonMetrics, PAIRING_VERSION, runPairedAsync } from '../sim/paired-run.js';
import { provenanceOf, type RulesProvenance } from '../input/provenance.js';
import type { TrustedPlugins } from '../input/platform.js';
import { type LoadedScenario, loadScenarioChanged, readScenarioData } from '../input/scenario-file.js';
import { type FieldLabel, fieldLabel, outcomeTitle } from '../input/field-labels.js';
import { comparePaired, type PairedDifference, reversedDifference, type VariantMean } from '../statistics/paired.js';
import { DEFAULT_MONTE_CARLO, drawMethodOf, type MonteCarloMethod } from '../sim/methods.js';

/**
 * Comparing two variants of a scenario (`crucible compare`): the baseline — the scenario as written,
 * or the first variant named — and a variant, each the scenario with its field changes applied, run
 * trial by trial on the same dice (common random numbers, sim/paired-run.ts). The baseline draws
 * exactly as `crucible run` does with the same seed, trials and method, so its column is the run's;
 * the variant rereads each trial's numbers and draws any more from a stream of its own, so trials
 * stay independent; every difference is variant − baseline, so a change that helps an outcome
 * shows positive.
 *
 * Each outcome is what a report shows of a metric: a count's mean, a flag's "yes", or one label
 * of a category — never a mean of a category's codes. It carries both variants' estimates, the
 * paired difference with its 95% t interval and p-value, and how many times more trials an
 * unpaired comparison would need for the same precision.
 */
export const AS_WRITTEN = '(as written)';

/** A field a variant changes, in words. */
export interface FieldChange {
  readonly field: FieldLabel;
  readonly value: unknown;
}

export interface ComparedVariant extends RulesProvenance {
  /** The variant's name; AS_WRITTEN for the scenario without changes. */
  readonly name: string;
  readonly asWritten: boolean;
  readonly description?: string;
  readonly changes: readonly FieldChange[];
}

export interface ComparedOutcome {
  readonly metric: string;
  readonly kind: MetricKind;
  /** The metric's own description. */
  readonly description: string;
  /** The outcome in words, e.g. "Side whose enemies were all vanquished: Sylvan Knights". */
  readonly title: string;
  /** A category's label (with its code in `value`), or "yes" for a flag; absent for a count. */
  readonly label?: string;
  readonly value?: number;
  /** A probability (a label, a flag) or a count's mean. */
  readonly measure: 'probability' | 'mean';
  readonly baseline: VariantMean;
  readonly variant: VariantMean;
  /** variant − baseline, paired trial by trial. */
  readonly difference: PairedDifference;
  readonly pairedStandardError: number;
  readonly unpairedStandardError: number;
  /** (var(baseline) + var(variant)) / var(difference): ∞ when pairing removed all the noise. */
  readonly unpairedTrialsFactor: number;
  /** 0 in every trial of both variants: a label neither reached, a count that was always 0. */
  readonly neverSeen: boolean;
}

export interface ComparisonResult {
  readonly file: string;
  readonly scenario: string;
  readonly description?: string;
  readonly ruleset: string;
  readonly engineVersion: string;
  readonly method: MonteCarloMethod;
  readonly seed: number;
  readonly trials: number;
  /** False only when asked (to measure what pairing saves): the variant on other dice. */
  readonly paired: boolean;
  /** Both variants are one scenario once their changes are made (the same kernel input): every result is identical. */
  readonly sameScenario: boolean;
  /** How the two sides drew their random numbers (sim/paired-run.ts PAIRING_VERSION): with the engines' versions, what the result for a seed depends on. */
  readonly pairingVersion: number;
  readonly baseline: ComparedVariant;
  readonly variant: ComparedVariant;
  /** Every metric both variants report, or those `metrics` named; in the kernel's order. */
  readonly metrics: readonly string[];
  readonly outcomes: readonly ComparedOutcome[];
}

export interface CompareOptions {
  readonly seed?: number;
  readonly trials?: number;
  /** Monte Carlo from exact tables (`mc`, the default, as for `crucible run`) or every die rolled. */
  readonly method?: MonteCarloMethod;
  /** Only these metrics (by name); an unknown name is an InputError listing the metrics. */
  readonly metrics?: readonly string[];
  /** false: independent dice for the variant (to measure what pairing saves). Default true. */
  readonly paired?: boolean;
  readonly onProgress?: (trialsDone: number, trialsPlanned: number) => void;
  /** Once aborted, no further shard of trials runs: the comparison rejects with an InterruptedError (sim/interrupted.ts). */
  readonly signal?: AbortSignal;
  /** The plugin modules the scenario may run (input/plugin-trust.ts); none when not given. */
  readonly plugins?: TrustedPlugins;
}

async function describeVariant(
  file: string,
  name: string | undefined,
  loaded: LoadedScenario,
  asWritten: LoadedScenario,
): Promise<ComparedVariant> {
  const provenance = provenanceOf(loaded);
  if (name === undefined) return { name: AS_WRITTEN, asWritten: true, changes: [], ...provenance };
  const declared = (await readScenarioData(file)).variants.find((variant) => variant.name === name);
  const changes = Object.entries(declared?.set ?? {}).map(([path, value]) => ({ field: fieldLabel(asWritten, path), value }));
  return {
    name,
    asWritten: false,
    ...(declared?.description === undefined ? {} : { description: declared.description }),
    changes,
    ...provenance,
  };
}

/** The metric names asked for, checked against those the comparison has (every one, in order, by default). */
function chosenMetrics(file: string, available: readonly MetricSpec[], asked: readonly string[] | undefined): string[] {
  const names = available.map((metric) => metric.name);
  if (asked === undefined) return names;
  const unknown = asked.filter((name) => !names.includes(name));
  if (unknown.length > 0) {
    throw InputError.at(
      file,
      '--metric',
      `no metric ${unknown.map((name) => JSON.stringify(name)).join(', ')} in this comparison; its metrics are ${names.join(', ')}`,
    );
  }
  return names.filter((name) => asked.includes(name));
}

/** Compare `variantName` with `baselineName` (undefined: the scenario as written) of the scenario in `file`. */
export async function compareVariants(
  file: string,
  baselineName: string | undefined,
  variantName: string,
  options: CompareOptions = {},
): Promise<ComparisonResult> {
  const trust = { plugins: options.plugins };
  const asWritten = await loadScenarioChanged(file, {}, trust);
  const baselineLoaded = baselineName === undefined ? asWritten : await loadScenarioChanged(file, { variant: baselineName }, trust);
  const variantLoaded = await loadScenarioChanged(file, { variant: variantName }, trust);
  const method = options.method ?? DEFAULT_MONTE_CARLO;
  const baselineSpec = kernelSpecOf(baselineLoaded, drawMethodOf(method));
  const variantSpec = kernelSpecOf(variantLoaded, drawMethodOf(method));
  const baselineKernel = compileSpec(baselineSpec);
  const variantKernel = compileSpec(variantSpec);
  const seed = options.seed ?? baselineLoaded.scenario.seed;
  const trials = options.trials ?? baselineLoaded.scenario.trials;
  const paired = options.paired ?? true;
  const onProgress = options.onProgress;
  // A misspelt --metric is reported before any trial runs.
  const metrics = chosenMetrics(file, commonMetrics(baselineKernel, variantKernel).metrics, options.metrics);
  const tally = await runPairedAsync(baselineKernel, variantKernel, {
    seed,
    trials,
    paired,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(onProgress === undefined ? {} : { onProgress: (done: number) => onProgress(done, trials) }),
  });
  const outcomes: ComparedOutcome[] = [];
  comparePaired(tally).forEach((channel, c) => {
    const { metric: m, value } = tally.channels[c] as (typeof tally.channels)[number];
    const spec = tally.metrics[m] as MetricSpec;
    if (!metrics.includes(spec.name)) return;
    const label = spec.kind === 'count' ? undefined : (spec.labels?.[value] ?? (spec.kind === 'flag' ? 'yes' : String(value)));
    outcomes.push({
      metric: spec.name,
      kind: spec.kind,
      description: spec.description,
      title: outcomeTitle(spec, label),
      ...(label === undefined ? {} : { label, value }),
      measure: channel.kind === 'indicator' ? 'probability' : 'mean',
      // The tally's a is the baseline, b the variant (sim/paired-run.ts).
      baseline: channel.a,
      variant: channel.b,
      difference: reversedDifference(channel.difference),
      pairedStandardError: channel.pairedStandardError,
      unpairedStandardError: channel.unpairedStandardError,
      unpairedTrialsFactor: channel.unpairedTrialsFactor,
      neverSeen: channel.a.mean === 0 && channel.b.mean === 0,
    });
  });
  return {
    file,
    scenario: baselineLoaded.scenario.name,
    ...(baselineLoaded.scenario.description === undefined ? {} : { description: baselineLoaded.scenario.description }),
    ruleset: baselineKernel.ruleset,
    engineVersion: baselineKernel.engineVersion,
    method,
    seed,
    trials,
    paired,
    sameScenario: serializeKernelSpec(baselineSpec).digest === serializeKernelSpec(variantSpec).digest,
    pairingVersion: PAIRING_VERSION,
    baseline: await describeVariant(file, baselineName, baselineLoaded, asWritten),
    variant: await describeVariant(file, variantName, variantLoaded, asWritten),
    metrics,
    outcomes,
  };
}
