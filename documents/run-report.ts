import { halfWidths } from '../statistics/precision.js';
import { type MetricSummary, summarize } from '../statistics/summary.js';
import type { MonteCarloMethod } from '../sim/methods.js';
import type { ExactScenarioResult } from '../sim/run-scenario.js';
import { provenanceOf } from '../input/provenance.js';
import type { LoadedScenario } from '../input/scenario-file.js';
import type { Tally } from '../statistics/tally.js';
import type { RunReport } from './format.js';

/**
 * The report of one scenario run (what `crucible run` prints, as text or `--json`), from its tally
 * or its exact enumeration (sim/run-scenario.ts). Free of Node: the workbench builds its results
 * with the same two functions, so its numbers are the CLI's.
 */

/** A Monte Carlo run as far as its report goes: a ScenarioResult, or a growing run's merged tally so far. */
export interface MonteCarloRun {
  readonly method: MonteCarloMethod;
  readonly seed: number;
  readonly tally: Tally;
  /** A run under a stop rule: its target, its cap, and whether the target was met. */
  readonly precision?: { readonly target: number; readonly maxTrials: number; readonly reached: boolean };
  /** The tally summarized, where that is done already (a part of a run has none: it is summarized once merged). */
  readonly summary?: readonly MetricSummary[];
}

/** `workers`: the threads that ran the shards (0: this one). */
export function monteCarloReport(loaded: LoadedScenario, run: MonteCarloRun, workers: number): RunReport {
  const precision = run.precision;
  const widths = precision === undefined ? undefined : halfWidths(run.tally);
  return {
    scenario: loaded.scenario.name,
    file: loaded.file,
    ...provenanceOf(loaded),
    method: run.method,
    seed: run.seed,
    trials: run.tally.trials,
    workers,
    ...(precision === undefined || widths === undefined
      ? {}
      : { precision: { ...precision, widestHalfWidth: widths.widest, halfWidths: widths.byMetric } }),
    metrics: run.summary ?? summarize(run.tally),
  };
}

/** The report of a scenario evaluated exactly (a single action: an attack, a round, a volley, a rally). */
export function exactReport(loaded: LoadedScenario, exact: ExactScenarioResult): RunReport {
  return {
    scenario: exact.scenario,
    file: exact.file,
    ...provenanceOf(loaded),
    method: 'exact',
    exact: { paths: exact.paths, errorBound: exact.errorBound },
    seed: loaded.scenario.seed,
    trials: 0,
    workers: 0,
    metrics: [...exact.summary],
  };
}
