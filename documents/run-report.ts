import { halfWidths } from '../statistics/precision.js';
import { exactScenario } from '../analysis/run.js';
import { summarize } from '../statistics/summary.js';
import type { DrawMethod } from '../engine/kernel.js';
import type { ExactBudget } from '../sim/exact.js';
import { provenanceOf } from '../input/provenance.js';
import type { LoadedScenario } from '../input/scenario-file.js';
import type { Tally } from '../statistics/tally.js';
import type { RunReport } from './format.js';

/**
 * The report of one scenario run (what `crucible run` prints, as text or `--json`), from its tally
 * or its exact enumeration. Free of Node: the workbench builds its results with the same two
 * functions, so its numbers are the CLI's.
 */

export interface MonteCarloRun {
  readonly method: DrawMethod;
  readonly seed: number;
  readonly tally: Tally;
  readonly workers: number;
  /** A run under a stop rule: its target, its cap, and whether the target was met. */
  readonly precision?: { readonly target: number; readonly maxTrials: number; readonly reached: boolean };
  /** False for a part of a run (`--shards`), summarized only once merged. */
  readonly summarized?: boolean;
}

export function monteCarloReport(loaded: LoadedScenario, run: MonteCarloRun): RunReport {
  const precision = run.precision;
  const widths = precision === undefined ? undefined : halfWidths(run.tally);
  return {
    scenario: loaded.scenario.name,
    file: loaded.file,
    ...provenanceOf(loaded),
    method: run.method === 'tables' ? 'mc' : 'mc-dice',
    seed: run.seed,
    trials: run.tally.trials,
    workers: run.workers,
    ...(precision === undefined || widths === undefined ? {} : { precision: { ...precision, widestHalfWidth: widths.widest, halfWidths: widths.byMetric } }),
    metrics: run.summarized === false ? [] : summarize(run.tally),
  };
}

/**
 * The exact report of a scenario whose trial fits `budget` (a single action: an attack, a round, a
 * volley, a rally), or undefined when it has more paths (analysis/run.ts `exactScenario`).
 */
export function exactReport(loaded: LoadedScenario, budget: ExactBudget): RunReport | undefined {
  const exact = exactScenario(loaded, budget);
  if (exact === undefined) return undefined;
  const { scenario } = loaded;
  return {
    scenario: exact.scenario,
    file: exact.file,
    ...provenanceOf(loaded),
    method: 'exact',
    exact: { paths: exact.paths, errorBound: exact.errorBound },
    seed: scenario.seed,
    trials: 0,
    workers: 0,
    metrics: [...exact.summary],
  };
}
