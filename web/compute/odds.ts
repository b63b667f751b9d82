import { exactReport, monteCarloReport } from '../../documents/run-report.js';
import type { RunReport } from '../../documents/format.js';
import type { DrawMethod } from '../../engine/kernel.js';
import { AUTO_BUDGET, EXACT_BUDGET } from '../../sim/exact.js';
import { compileSpec, kernelSpecOf, serializeKernelSpec } from '../../sim/kernel-spec.js';
import type { LoadedScenario } from '../../input/scenario-file.js';
import type { ShardExecutor } from '../../sim/shard-task.js';
import { runSharded } from '../../sim/sharded-run.js';

/**
 * One scenario's odds, as `crucible run` computes them: `auto` enumerates a trial exactly when it
 * is a single action (AUTO_BUDGET), else Monte Carlo; `exact`, `mc` (outcomes from exact tables)
 * and `mc-dice` (every die rolled) as the CLI's --method. Monte Carlo runs the CLI's shards on Web
 * Workers, merged in shard order, and reports the merged prefix as it grows — each update is the
 * report `crucible run --trials <so far>` would print — until the planned trials or `signal`.
 */

export const ODDS_METHODS = ['auto', 'exact', 'mc', 'mc-dice'] as const;
export type OddsMethod = (typeof ODDS_METHODS)[number];

export interface OddsSettings {
  readonly method: OddsMethod;
  /** Default: the scenario's. */
  readonly seed?: number;
  readonly trials?: number;
}

export interface OddsUpdate {
  readonly report: RunReport;
  readonly trialsPlanned: number;
  readonly done: boolean;
}

/** How often a growing run's report is redrawn. */
const UPDATE_EVERY_MILLISECONDS = 200;

export async function computeOdds(loaded: LoadedScenario, settings: OddsSettings, executor: ShardExecutor, signal: AbortSignal, onUpdate: (update: OddsUpdate) => void): Promise<void> {
  if (settings.method === 'auto' || settings.method === 'exact') {
    const report = exactReport(loaded, settings.method === 'exact' ? EXACT_BUDGET : AUTO_BUDGET);
    if (report !== undefined) {
      onUpdate({ report, trialsPlanned: 0, done: true });
      return;
    }
    if (settings.method === 'exact') throw new Error(`a trial of "${loaded.scenario.name}" has too many paths to enumerate: run it by Monte Carlo (mc)`);
  }
  const method: DrawMethod = settings.method === 'mc-dice' ? 'dice' : 'tables';
  const spec = kernelSpecOf(loaded, method);
  const kernel = compileSpec(spec);
  const seed = settings.seed ?? loaded.scenario.seed;
  const trials = settings.trials ?? loaded.scenario.trials;
  let lastUpdate = performance.now();
  const outcome = await runSharded(
    executor,
    { spec: serializeKernelSpec(spec), metrics: kernel.metrics, seed, trials },
    {
      dropSignal: signal,
      // Called on the merged prefix after every shard: never stops the run, only shows it.
      stopWhen: (tally) => {
        const now = performance.now();
        if (now - lastUpdate >= UPDATE_EVERY_MILLISECONDS && tally.trials < trials) {
          lastUpdate = now;
          onUpdate({ report: monteCarloReport(loaded, { method, seed, tally, workers: executor.workers }), trialsPlanned: trials, done: false });
        }
        return false;
      },
    },
  );
  if (signal.aborted) return;
  onUpdate({ report: monteCarloReport(loaded, { method, seed, tally: outcome.tally, workers: executor.workers }), trialsPlanned: trials, done: true });
}
