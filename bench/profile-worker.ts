import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { Dice } from '../engine/dice/dice.js';
import { streamDice } from '../engine/dice/index.js';
import type { OutcomeTable } from '../engine/dice/outcome-table.js';
import type { DrawMethod, Kernel } from '../engine/kernel.js';
import { compileSpec, kernelSpecOf } from '../sim/kernel-spec.js';
import { installNodePlatform } from '../input/node-platform.js';
import { loadScenarioFile } from '../input/scenario-file.js';
import { Tally } from '../statistics/tally.js';
import { compileBattleforge } from '../engine/battleforge/index.js';
import { battleforgeBenchProfiles, battleforgeBenchScenario } from '../test/battleforge/bench-scenario.js';
import { compileBenchScenario } from '../test/heroic/bench-scenarios.js';
import { compileWarmasterBench } from '../test/warmaster/bench-scenario.js';

/**
 * One kernel's profile (bench/profile.ts), in its own worker thread: where a trial's time goes.
 * - whole: `kernel.trial` + `Tally.add`, as a run does (sim/run.ts `runWithDice`);
 * - trial: `kernel.trial` alone, into the row;
 * - tally: `Tally.add` alone, over 4,096 rows the kernel wrote (real values, real branches);
 * - dice: the exact calls 2,048 trials made on their dice (d6, packed pools, chance, pick with its
 *   tables), replayed on fresh stream dice with nothing else: what drawing costs the trial
 *   (a switch per call is the replay's own cost, a few ns per call).
 * rules + state + row = trial − dice: the rules, resetting the trial's state and writing its row.
 */

installNodePlatform();

export type ProfiledKernel = 'pooled' | 'engagement' | 'warmaster' | 'battleforge' | 'epic';

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

const D6 = 0;
const D10 = 1;
const D6_PACKED = 2;
const D10_PACKED = 3;
const CHANCE = 4;
const PICK = 5;

/** Passes every call to the real dice and keeps it (kind, argument, table), to be replayed alone. */
class CallRecorder implements Dice {
  readonly kinds: number[] = [];
  readonly args: number[] = [];
  readonly tables: (OutcomeTable | undefined)[] = [];
  constructor(private readonly inner: Dice) {}
  private keep(kind: number, arg: number, table?: OutcomeTable): void {
    this.kinds.push(kind);
    this.args.push(arg);
    this.tables.push(table);
  }
  d6(): number {
    this.keep(D6, 0);
    return this.inner.d6();
  }
  d10(): number {
    this.keep(D10, 0);
    return this.inner.d10();
  }
  d6Packed(n: number): number {
    this.keep(D6_PACKED, n);
    return this.inner.d6Packed(n);
  }
  d10Packed(n: number): number {
    this.keep(D10_PACKED, n);
    return this.inner.d10Packed(n);
  }
  chance(probability: number): boolean {
    this.keep(CHANCE, probability);
    return this.inner.chance(probability);
  }
  pick(table: OutcomeTable): number {
    this.keep(PICK, 0, table);
    return this.inner.pick(table);
  }
}

async function kernelOf(job: ProfileJob): Promise<Kernel> {
  switch (job.kernel) {
    case 'pooled':
    case 'engagement':
      return compileBenchScenario(job.kernel, job.method);
    case 'warmaster':
      return compileWarmasterBench(job.method);
    case 'battleforge':
      return compileBattleforge(battleforgeBenchScenario, battleforgeBenchProfiles, new Map(), job.method);
    case 'epic':
    case 'scenario': {
      const file = job.kernel === 'epic' ? 'data/epic/scenarios/marines-vs-orks-under-fire.yaml' : (job.file ?? '');
      const loaded = await loadScenarioFile(path.join(import.meta.dirname, '..', file));
      return compileSpec(kernelSpecOf(loaded, job.method));
    }
  }
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
  const kernels = [await kernelOf({ ...job, method: 'tables' }), await kernelOf({ ...job, method: 'dice' })] as const;
  const width = kernels[0].metrics.length;
  const row = new Int32Array(width);
  const dice = streamDice(7);
  const tallies = kernels.map((kernel) => new Tally(kernel.metrics));
  const stretch = (k: 0 | 1, seconds: number): number => {
    const kernel = kernels[k];
    const tally = tallies[k] as Tally;
    let trials = 0;
    const started = performance.now();
    while (performance.now() - started < seconds * 1000) {
      for (let t = 0; t < 1024; t++) {
        kernel.trial(dice, row);
        tally.add(row);
      }
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
  const kernel = await kernelOf(job);
  const width = kernel.metrics.length;
  const row = new Int32Array(width);
  const dice = streamDice(7);
  const tally = new Tally(kernel.metrics);
  const whole = timePer(
    (trials) => {
      for (let t = 0; t < trials; t++) {
        kernel.trial(dice, row);
        tally.add(row);
      }
    },
    4096,
    job,
  );
  const trial = timePer(
    (trials) => {
      for (let t = 0; t < trials; t++) kernel.trial(dice, row);
    },
    4096,
    job,
  );
  const ROWS = 4096;
  const rows: Int32Array[] = [];
  for (let r = 0; r < ROWS; r++) {
    kernel.trial(dice, row);
    rows.push(Int32Array.from(row));
  }
  const tallyOnly = new Tally(kernel.metrics);
  let next = 0;
  const tallyCost = timePer(
    (trials) => {
      for (let t = 0; t < trials; t++) {
        tallyOnly.add(rows[next] as Int32Array);
        next = (next + 1) & (ROWS - 1);
      }
    },
    4096,
    job,
  );
  const TRIALS = 2048;
  const recorder = new CallRecorder(streamDice(11));
  for (let t = 0; t < TRIALS; t++) kernel.trial(recorder, row);
  const kinds = Uint8Array.from(recorder.kinds);
  const args = Float64Array.from(recorder.args);
  const tables = recorder.tables;
  const replayDice = streamDice(13);
  let sink = 0;
  const replay = (): void => {
    for (let c = 0; c < kinds.length; c++) {
      switch (kinds[c]) {
        case D6:
          sink += replayDice.d6();
          break;
        case D10:
          sink += replayDice.d10();
          break;
        case D6_PACKED:
          sink += replayDice.d6Packed(args[c] as number);
          break;
        case D10_PACKED:
          sink += replayDice.d10Packed(args[c] as number);
          break;
        case CHANCE:
          sink += replayDice.chance(args[c] as number) ? 1 : 0;
          break;
        default:
          sink += replayDice.pick(tables[c] as OutcomeTable);
      }
    }
  };
  // One unit = one recorded trial's calls: a replay of all of them counts TRIALS units.
  const diceCost = timePer(
    (units) => {
      for (let u = 0; u < units; u += TRIALS) replay();
    },
    TRIALS,
    job,
  );
  if (sink === 0.5) console.log(sink);
  return {
    kernel: job.kernel,
    method: job.method,
    metrics: width,
    callsPerTrial: kinds.length / TRIALS,
    whole,
    trial,
    tally: tallyCost,
    dice: diceCost,
  };
}

parentPort?.postMessage(await profile(workerData as ProfileJob));
