import { parentPort, workerData } from 'node:worker_threads';
import { streamDice } from '../engine/dice/index.js';
import type { DrawMethod } from '../engine/kernel.js';
import { installNodePlatform } from '../input/node-platform.js';
import { Tally } from '../statistics/tally.js';
import { runWithDice } from '../sim/run.js';
import { kernelOf, type ProfiledKernel, RecordedDice, RowReplay } from './profile-kernels.js';
import { type TargetsJob, trialTargets } from './profile-targets.js';

/**
 * One kernel's profile (bench/profile.ts), in its own worker thread: where a trial's time goes.
 * - whole: `kernel.trial` and the tally, as a run does (sim/run.ts `runWithDice`);
 * - trial: `kernel.trial` alone, into the row;
 * - tally: `runWithDice` over 4,096 rows the kernel wrote (real values, real branches), less the
 *   same rows replayed with no tally;
 * - dice: the exact calls 2,048 trials made on their dice (d6, packed pools, chance, pick with its
 *   tables), replayed on fresh stream dice with nothing else: what drawing costs the trial
 *   (a switch per call is the replay's own cost, a few ns per call).
 * rules + state + row = trial − dice: the rules, resetting the trial's state and writing its row.
 * A `targets` job (bench/profile-targets.ts) times issue 35's ratios in CPU time instead.
 */

installNodePlatform();

export interface ProfileJob {
  readonly kernel: ProfiledKernel | 'scenario';
  /**
   * For `scenario`: a bundled scenario file, timed whole (trial + tally) by both methods in this one
   * worker, in alternating stretches (`method` is ignored): `whole` by tables, `wholeDice` per die.
   */
  readonly file?: string;
  readonly method: DrawMethod;
  readonly repetitionSeconds: number;
  readonly repetitions: number;
}

export interface ProfileResult {
  readonly kernel: ProfiledKernel | 'scenario';
  readonly file?: string;
  readonly method: DrawMethod;
  readonly metrics: number;
  readonly callsPerTrial: number;
  /** Nanoseconds per trial, medians. */
  readonly whole: number;
  /** For `scenario`: the same per die, timed in the same stretches' alternation. */
  readonly wholeDice?: number;
  readonly trial: number;
  readonly tally: number;
  readonly dice: number;
}

/** Median nanoseconds per unit of `step(units)`, after a warm-up, over `repetitions` timed stretches. */
function timePer(step: (units: number) => void, batch: number, job: ProfileJob): number {
  const warm = performance.now();
  while (performance.now() - warm < job.repetitionSeconds * 1000) step(batch);
  const samples: number[] = [];
  for (let repetition = 0; repetition < job.repetitions; repetition++) {
    let units = 0;
    const started = performance.now();
    while (performance.now() - started < job.repetitionSeconds * 1000) {
      step(batch);
      units += batch;
    }
    samples.push(((performance.now() - started) * 1e6) / units);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] as number;
}

/**
 * A bundled scenario by both methods, in alternating stretches in this one worker: the two
 * timings of one process and moment are comparable, while fresh workers were seen to differ by up
 * to 1.8× on the same code on this machine (2 shared cores). The fastest stretch per method.
 */
async function profileScenario(job: ProfileJob): Promise<ProfileResult> {
  const kernels = [await kernelOf(job.kernel, 'tables', job.file), await kernelOf(job.kernel, 'dice', job.file)] as const;
  const width = kernels[0].metrics.length;
  const dice = streamDice(7);
  const tallies = kernels.map((kernel) => new Tally(kernel.metrics));
  const stretch = (k: 0 | 1, seconds: number): number => {
    const kernel = kernels[k];
    const tally = tallies[k] as Tally;
    let trials = 0;
    const started = performance.now();
    while (performance.now() - started < seconds * 1000) {
      runWithDice(kernel, dice, 1024, tally);
      trials += 1024;
    }
    return ((performance.now() - started) * 1e6) / trials;
  };
  // Warm-up: each method's tables are built and its code compiled before anything counts.
  for (let r = 0; r < 2; r++) for (const k of [0, 1] as const) stretch(k, job.repetitionSeconds);
  const samples: [number[], number[]] = [[], []];
  for (let r = 0; r < job.repetitions; r++) for (const k of [0, 1] as const) samples[k].push(stretch(k, job.repetitionSeconds));
  // The fastest stretch of each: on 2 shared cores another process only ever slows a stretch down
  // (one slowed stretch moved a median by 14% in a full bench run).
  return {
    kernel: 'scenario',
    ...(job.file === undefined ? {} : { file: job.file }),
    method: 'tables',
    metrics: width,
    callsPerTrial: 0,
    whole: Math.min(...samples[0]),
    wholeDice: Math.min(...samples[1]),
    trial: 0,
    tally: 0,
    dice: 0,
  };
}

async function profile(job: ProfileJob): Promise<ProfileResult> {
  if (job.kernel === 'scenario') return profileScenario(job);
  const kernel = await kernelOf(job.kernel, job.method, job.file);
  const width = kernel.metrics.length;
  const row = new Int32Array(width);
  const dice = streamDice(7);
  const tally = new Tally(kernel.metrics);
  const whole = timePer((trials) => runWithDice(kernel, dice, trials, tally), 4096, job);
  const trial = timePer(
    (trials) => {
      for (let t = 0; t < trials; t++) kernel.trial(dice, row);
    },
    4096,
    job,
  );
  // The tally: the kernel's rows replayed through runWithDice, less the same replay with no tally.
  const replay = new RowReplay(kernel, dice);
  const replayTally = new Tally(kernel.metrics);
  const tallied = timePer((trials) => runWithDice(replay, dice, trials, replayTally), 4096, job);
  const replayed = timePer(
    (trials) => {
      for (let t = 0; t < trials; t++) replay.trial(dice, row);
    },
    4096,
    job,
  );
  const tallyCost = Math.max(0, tallied - replayed);
  const TRIALS = 2048;
  const recorded = new RecordedDice(kernel, TRIALS);
  // One unit = one recorded trial's calls: a replay of all of them counts TRIALS units.
  const diceCost = timePer(
    (units) => {
      for (let u = 0; u < units; u += TRIALS) recorded.replay();
    },
    TRIALS,
    job,
  );
  if (recorded.sink === 0.5) console.log(recorded.sink);
  return {
    kernel: job.kernel,
    method: job.method,
    metrics: width,
    callsPerTrial: recorded.callsPerTrial,
    whole,
    trial,
    tally: tallyCost,
    dice: diceCost,
  };
}

const job = workerData as ProfileJob | TargetsJob;
parentPort?.postMessage(await ('targets' in job ? trialTargets(job) : profile(job)));
