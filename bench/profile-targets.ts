import { streamDice } from '../engine/dice/index.js';
import type { DrawMethod } from '../engine/kernel.js';
import { runWithDice } from '../sim/run.js';
import { Tally } from '../statistics/tally.js';
import { cpuMilliseconds } from '../test/helpers/cpu-time.js';
import { kernelOf, type ProfiledKernel, RecordedDice, RowReplay } from './profile-kernels.js';

/**
 * Issue 35's ratios for one kernel, in a profile worker (bench/profile-worker.ts): by both methods,
 * in this one worker, in alternating stretches timed in CPU time (another process on the 2 shared
 * cores then costs a stretch its cache, not its whole time slice):
 * - whole: `runWithDice` (sim/run.ts), the trial and its tally as a run does;
 * - dice: the calls the trials made on their dice, replayed alone (profile-kernels.ts);
 * - tally: `runWithDice` over rows the kernel wrote, replayed by a kernel that only copies them, less
 *   the same copying with no tally.
 * The worker's main thread waits while it measures, so the process's CPU time is the worker's.
 */

export interface TargetsJob {
  readonly targets: true;
  readonly kernel: ProfiledKernel | 'scenario';
  readonly file?: string;
  readonly stretchSeconds: number;
  readonly stretches: number;
}

/** Nanoseconds of CPU time per trial, the median and the fastest of the stretches. */
export interface Cost {
  readonly median: number;
  readonly fastest: number;
}

interface MethodCosts {
  readonly whole: Cost;
  readonly dice: Cost;
  readonly tally: Cost;
  readonly callsPerTrial: number;
}

export interface TargetsResult {
  readonly kernel: ProfiledKernel | 'scenario';
  readonly file?: string;
  readonly metrics: number;
  /** Method `tables` (`--method mc`, the default) and `dice` (`--method mc-dice`). */
  readonly tables: MethodCosts;
  readonly dice: MethodCosts;
}

const BATCH = 1024;

/** Nanoseconds of CPU time per unit: `step` runs some units and says how many, until `seconds` of CPU time. */
function stretch(step: () => number, seconds: number): number {
  let units = 0;
  const started = cpuMilliseconds();
  let now = started;
  do {
    units += step();
    now = cpuMilliseconds();
  } while (now - started < seconds * 1000);
  return ((now - started) * 1e6) / units;
}

interface Timed {
  readonly step: () => number;
  readonly samples: number[];
}

async function methodSteps(job: TargetsJob, method: DrawMethod) {
  const kernel = await kernelOf(job.kernel, method, job.file);
  const dice = streamDice(7);
  const tally = new Tally(kernel.metrics);
  const row = new Int32Array(kernel.metrics.length);
  const replay = new RowReplay(kernel, dice);
  const replayTally = new Tally(kernel.metrics);
  const recorded = new RecordedDice(kernel, 2048);
  const timed = (step: () => number): Timed => ({ step, samples: [] });
  return {
    kernel,
    recorded,
    whole: timed(() => {
      runWithDice(kernel, dice, BATCH, tally);
      return BATCH;
    }),
    dice: timed(() => {
      recorded.replay();
      return recorded.trials;
    }),
    rowsTallied: timed(() => {
      runWithDice(replay, dice, BATCH, replayTally);
      return BATCH;
    }),
    rowsAlone: timed(() => {
      for (let t = 0; t < BATCH; t++) replay.trial(dice, row);
      return BATCH;
    }),
  };
}

function cost(samples: readonly number[]): Cost {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)] as number, fastest: sorted[0] as number };
}

export async function trialTargets(job: TargetsJob): Promise<TargetsResult> {
  const methods = [await methodSteps(job, 'tables'), await methodSteps(job, 'dice')] as const;
  const all = methods.flatMap((steps) => [steps.whole, steps.dice, steps.rowsTallied, steps.rowsAlone]);
  // Warm-up: tables built and code compiled before anything counts.
  for (let r = 0; r < 2; r++) for (const timed of all) stretch(timed.step, job.stretchSeconds);
  for (let r = 0; r < job.stretches; r++) for (const timed of all) timed.samples.push(stretch(timed.step, job.stretchSeconds));
  const costs = (steps: (typeof methods)[number]): MethodCosts => {
    const tallied = cost(steps.rowsTallied.samples);
    const alone = cost(steps.rowsAlone.samples);
    return {
      whole: cost(steps.whole.samples),
      dice: cost(steps.dice.samples),
      tally: { median: Math.max(0, tallied.median - alone.median), fastest: Math.max(0, tallied.fastest - alone.fastest) },
      callsPerTrial: steps.recorded.callsPerTrial,
    };
  };
  if (methods[0].recorded.sink + methods[1].recorded.sink === 0.5) console.log('');
  return {
    kernel: job.kernel,
    ...(job.file === undefined ? {} : { file: job.file }),
    metrics: methods[0].kernel.metrics.length,
    tables: costs(methods[0]),
    dice: costs(methods[1]),
  };
}
