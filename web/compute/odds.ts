import { exactReport, monteCarloReport } from '../../documents/run-report.js';
import type { RunReport } from '../../documents/format.js';
import type { LoadedScenario } from '../../input/scenario-file.js';
import { type Method, monteCarloOf } from '../../sim/methods.js';
import { runScenario, TooManyPathsError } from '../../sim/run-scenario.js';
import type { ShardExecutor } from '../../sim/shard-task.js';

/**
 * One scenario's odds, as `crucible run` computes them: the same runScenario (sim/run-scenario.ts),
 * the same methods and `auto` rule (sim/methods.ts: exact for a single action unless trials are
 * set, else Monte Carlo), Monte Carlo on the CLI's shards, here on Web Workers, merged in shard
 * order. A growing run's report is redrawn as its merged prefix grows — each update is the report
 * `crucible run --trials <so far>` would print — until the planned trials or `signal`.
 */

export interface OddsSettings {
  readonly method: Method;
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

export async function computeOdds(
  loaded: LoadedScenario,
  settings: OddsSettings,
  executor: ShardExecutor,
  signal: AbortSignal,
  onUpdate: (update: OddsUpdate) => void,
): Promise<void> {
  const trialsPlanned = settings.trials ?? loaded.scenario.trials;
  const seed = settings.seed ?? loaded.scenario.seed;
  const method = settings.method;
  let lastUpdate = performance.now();
  let lastTrials = 0;
  const answer = await runScenario(loaded, {
    method,
    seed,
    ...(settings.trials === undefined ? {} : { trials: settings.trials }),
    executor,
    signals: { drop: signal },
    onProgress: ({ merged }) => {
      // Only a longer merged prefix is news; the last one is the final report's.
      if (merged === undefined || merged.trials <= lastTrials || merged.trials >= trialsPlanned) return;
      const now = performance.now();
      if (now - lastUpdate < UPDATE_EVERY_MILLISECONDS) return;
      lastUpdate = now;
      lastTrials = merged.trials;
      onUpdate({
        report: monteCarloReport(loaded, { method: monteCarloOf(method), seed, tally: merged }, executor.workers),
        trialsPlanned,
        done: false,
      });
    },
  }).catch((error: unknown) => {
    if (error instanceof TooManyPathsError)
      throw new Error(`a trial of "${loaded.scenario.name}" has too many paths to enumerate: run it by Monte Carlo (mc)`);
    throw error;
  });
  if (signal.aborted) return;
  if (answer.method === 'exact') onUpdate({ report: exactReport(loaded, answer), trialsPlanned: 0, done: true });
  else onUpdate({ report: monteCarloReport(loaded, answer, executor.workers), trialsPlanned, done: true });
}
