import path from 'node:path';
import type { DrawMethod } from '../engine/kernel.js';
import { writePartFile } from '../sim/part-file.js';
import { provenanceJson, provenanceOf } from '../input/provenance.js';
import { loadCheckpoint, type RunIdentity, saveCheckpoint } from '../sim/checkpoint.js';
import { compileSpec, kernelSpecOf, serializeKernelSpec } from '../sim/kernel-spec.js';
import type { LoadedScenario } from '../input/scenario-file.js';
import type { FaultInjection, ShardExecutor } from '../sim/shard-task.js';
import { ShardFailedError, type ShardedRunOptions, runSharded } from '../sim/sharded-run.js';
import { firstTrialOf, trialsInShard } from '../sim/shards.js';
import { Tally } from '../statistics/tally.js';
import { groupThousands, percent, type RunReport } from '../documents/format.js';
import type { Interrupts } from './interrupts.js';
import { type HalfWidths, halfWidths, trialsNeeded } from '../statistics/precision.js';
import { createProgressBar, type ProgressDisplay } from './progress.js';
import { monteCarloReport } from '../documents/run-report.js';

/**
 * One scenario of `crucible run`, on the shards machinery of sim/: resume from the checkpoint if
 * there is one, run (with the progress bar and the stop rule), save, and build the report.
 */

export type RunPlan = { readonly kind: 'trials'; readonly trials: number } | { readonly kind: 'precision'; readonly precision: number; readonly maxTrials: number };

export interface ScenarioRun {
  readonly loaded: LoadedScenario;
  /** Monte Carlo drawing outcomes from tables (`mc`) or rolling every die (`mc-dice`). */
  readonly method: DrawMethod;
  readonly seed: number;
  readonly plan: RunPlan;
  readonly executor: ShardExecutor;
  readonly checkpointFile?: string;
  /** Where to draw the progress bar, if anywhere. */
  readonly progressStream?: NodeJS.WritableStream;
  readonly interrupts: Interrupts;
  readonly fault?: FaultInjection;
  /** Compute shards [start, end) only and write them to `file` as a part (`--shards … --out …`, merged by `crucible merge`). */
  readonly part?: { readonly shards: readonly [number, number]; readonly file: string; readonly secret?: string };
}

export type ScenarioOutcome =
  | { readonly kind: 'done'; readonly report: RunReport; readonly resumedTrials: number }
  | { readonly kind: 'interrupted'; readonly trialsDone: number; readonly trialsPlanned: number }
  | { readonly kind: 'failed'; readonly message: string };

/** How often a running checkpoint is rewritten (and on the first shard, and at the end). */
const CHECKPOINT_EVERY_MILLISECONDS = 2000;

const plannedTrials = (plan: RunPlan): number => (plan.kind === 'trials' ? plan.trials : plan.maxTrials);


function failureMessage(error: ShardFailedError, run: ScenarioRun, checkpointSaved: boolean): string {
  const { file, scenario } = run.loaded;
  const last = error.firstTrial + trialsInShard(plannedTrials(run.plan), error.shard) - 1;
  return [
    `crucible: shard ${error.shard} (trials ${groupThousands(error.firstTrial)}–${groupThousands(last)}) of "${scenario.name}" (${file}), seed ${run.seed}, failed ${error.attempts} times: ${error.causeMessage}`,
    `replay its first trial with: crucible replay ${file} --seed ${run.seed} --trial ${firstTrialOf(error.shard)}${run.method === 'dice' ? ' --method mc-dice' : ''}`,
    ...(checkpointSaved ? [`the shards completed so far are saved in ${run.checkpointFile}; the same command resumes from them`] : []),
  ].join('\n');
}

export async function runScenario(run: ScenarioRun): Promise<ScenarioOutcome> {
  const { file, scenario } = run.loaded;
  const kernelSpec = kernelSpecOf(run.loaded, run.method);
  const kernel = compileSpec(kernelSpec);
  const spec = serializeKernelSpec(kernelSpec);
  const plan = run.plan;
  const identity: RunIdentity = {
    scenarioName: scenario.name,
    scenarioDigest: spec.digest,
    method: run.method === 'tables' ? 'mc' : 'mc-dice',
    engineVersion: kernel.engineVersion,
    seed: run.seed,
    plan: plan.kind === 'trials' ? { trials: plan.trials } : { precision: plan.precision, maxTrials: plan.maxTrials },
    ...(run.loaded.plugin === undefined ? {} : { plugin: run.loaded.plugin }),
  };
  const checkpointFile = run.checkpointFile;
  const resumeFrom = checkpointFile === undefined ? undefined : await loadCheckpoint(checkpointFile, identity, kernel.metrics);
  const options: { -readonly [K in keyof ShardedRunOptions]: ShardedRunOptions[K] } = {
    finishSignal: run.interrupts.finish,
    dropSignal: run.interrupts.drop,
  };
  if (resumeFrom !== undefined) options.resumeFrom = resumeFrom;
  if (run.part !== undefined) options.shards = run.part.shards;
  if (run.fault !== undefined) options.fault = run.fault;
  if (checkpointFile !== undefined) {
    const save = saveCheckpoint.bind(undefined, checkpointFile, identity);
    // Written before any trial runs, so an unwritable path fails now rather than at the first save.
    if (resumeFrom === undefined) await save({ completed: [], cells: new Float64Array(kernel.metrics.reduce((size, metric) => size + metric.max + 1, 0)), trials: 0 });
    options.checkpoint = { save, everyMilliseconds: CHECKPOINT_EVERY_MILLISECONDS };
  }

  let latestWidths: HalfWidths | undefined;
  if (plan.kind === 'precision') {
    options.stopWhen = (tally) => {
      latestWidths = halfWidths(tally);
      return latestWidths.widest <= plan.precision;
    };
  }
  let progress: ProgressDisplay | undefined;
  const stream = run.progressStream;
  if (stream !== undefined) {
    progress = createProgressBar(stream, path.basename(file));
    // Drawn at once: starting the workers takes a moment, and the bar says the run has begun.
    progress.begin({ trialsDone: resumeFrom?.trials ?? 0, trialsPlanned: plannedTrials(plan) });
  }
  options.onProgress = (update) => {
    if (progress === undefined) return;
    // Where shards run on a queue: who is taking part.
    const who = run.executor.status === undefined ? '' : ` | ${run.executor.status()}`;
    if (plan.kind === 'trials' || latestWidths === undefined) {
      progress.update({ ...update, note: who });
      return;
    }
    // The bar's 100% under --precision: the trials the widest interval still seems to need.
    const needed = trialsNeeded(update.trialsDone, latestWidths.widest, plan.precision);
    const note = ` | ±${percent(latestWidths.widest, 3)} → ±${percent(plan.precision, 3)}${who}`;
    progress.update({ trialsDone: update.trialsDone, trialsPlanned: Math.min(plan.maxTrials, Math.max(update.trialsDone, needed)), note });
  };
  // Interrupted: the bar goes first, so the messages that follow start on a clean line.
  const stopProgress = (): void => progress?.stop();
  run.interrupts.finish.addEventListener('abort', stopProgress);

  try {
    const runPlan = { spec, metrics: kernel.metrics, seed: run.seed, trials: plannedTrials(plan) };
    // A slice of a batch array may hold no shard at all (more jobs than shards): its part is empty.
    const emptyPart = run.part !== undefined && run.part.shards[0] >= run.part.shards[1];
    const outcome = emptyPart ? { tally: new Tally(kernel.metrics), interrupted: false, stopRuleMet: false, keptTrials: 0 } : await runSharded(run.executor, runPlan, options);
    if (outcome.interrupted) return { kind: 'interrupted', trialsDone: outcome.keptTrials, trialsPlanned: plannedTrials(plan) };
    const report: RunReport = monteCarloReport(run.loaded, {
      method: run.method,
      seed: run.seed,
      tally: outcome.tally,
      workers: run.executor.workers,
      ...(plan.kind === 'precision' ? { precision: { target: plan.precision, maxTrials: plan.maxTrials, reached: outcome.stopRuleMet } } : {}),
      // A part is printed by `crucible merge` once whole (an empty slice has no trials to summarize).
      summarized: run.part === undefined,
    });
    if (run.part !== undefined && plan.kind === 'trials') {
      const header = { scenario: scenario.name, file, ...provenanceJson(provenanceOf(run.loaded)) };
      const identityOfPart = { ...identity, plan: { trials: plan.trials } };
      await writePartFile(run.part.file, { identity: identityOfPart, header, metrics: kernel.metrics, shards: run.part.shards, cells: outcome.tally.cells, trials: outcome.tally.trials }, run.part.secret);
    }
    return { kind: 'done', report, resumedTrials: resumeFrom?.trials ?? 0 };
  } catch (error) {
    if (error instanceof ShardFailedError) return { kind: 'failed', message: failureMessage(error, run, checkpointFile !== undefined) };
    throw error;
  } finally {
    stopProgress();
    run.interrupts.finish.removeEventListener('abort', stopProgress);
  }
}
