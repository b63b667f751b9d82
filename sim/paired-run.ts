import { StreamDice, streamGenerator } from '../engine/dice/index.js';
import type { Kernel, MetricSpec } from '../engine/kernel.js';
import { PairedTally } from './paired-tally.js';
import { SHARD_TRIALS } from './run.js';

/**
 * A paired comparison of two variants of a scenario with common random numbers. The baseline draws
 * exactly what `crucible run` draws — shard k of SHARD_TRIALS trials on the seed's stream k, trial
 * after trial on the same dice (sim/run.ts) — so its tally is the run's, count for count. The variant
 * replays each trial from the same random state: trial t of both starts from the same draws, so
 * what differs between their rows is the variants' rules, not luck. Only metrics both kernels
 * report alike are compared (same name and kind; categories whose labels agree).
 */
export interface PairedRunOptions {
  readonly seed: number;
  readonly trials: number;
  /** Called now and then with the trials done. */
  readonly onProgress?: (trialsDone: number) => void;
}

/**
 * Stream dice that can go back to the start of the trial in progress. Every random number a
 * StreamDice gives passes through `next()` (every die, pool, table pick and chance is made from
 * it), so keeping this trial's numbers on a tape is enough to replay them: the baseline reads the
 * stream through the tape, the variant rereads the tape from the trial's start (and draws on,
 * past the baseline's last number, from the same stream), and the next trial starts where the
 * baseline stopped — whatever the variant drew, the baseline sees the stream exactly as a run does.
 */
export class RewindableDice extends StreamDice {
  /** The numbers drawn from the trial's start on, including any drawn ahead by the variant. */
  private tape = new Int32Array(1024);
  private length = 0;
  private position = 0;

  override next(): number {
    if (this.position < this.length) return this.tape[this.position++] as number;
    const value = super.next();
    if (this.length === this.tape.length) {
      const longer = new Int32Array(this.tape.length * 2);
      longer.set(this.tape);
      this.tape = longer;
    }
    this.tape[this.length++] = value;
    this.position++;
    return value;
  }

  /** A new trial starts here: numbers before this point are never read again. */
  startTrial(): void {
    const ahead = this.length - this.position;
    if (ahead > 0) this.tape.copyWithin(0, this.position, this.length);
    this.length = ahead;
    this.position = 0;
  }

  /** Back to the trial's start; returns where the reading stopped (for `seek`). */
  rewind(): number {
    const stopped = this.position;
    this.position = 0;
    return stopped;
  }

  /** Continue from a point `rewind` returned. */
  seek(position: number): void {
    this.position = position;
  }
}

/** Category labels that agree wherever both have one: the same outcome codes mean the same thing. */
function sameMetric(a: MetricSpec, b: MetricSpec): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind !== 'category') return true;
  const labelsA = a.labels ?? [];
  const labelsB = b.labels ?? [];
  const shared = Math.min(labelsA.length, labelsB.length);
  for (let i = 0; i < shared; i++) if (labelsA[i] !== labelsB[i]) return false;
  return true;
}

/** The metrics both kernels report alike, with each one's position in either row. */
export function commonMetrics(a: Kernel, b: Kernel): { metrics: MetricSpec[]; indexA: Int32Array; indexB: Int32Array } {
  const metrics: MetricSpec[] = [];
  const indexA: number[] = [];
  const indexB: number[] = [];
  a.metrics.forEach((metric, i) => {
    const j = b.metrics.findIndex((other) => other.name === metric.name);
    const other = b.metrics[j];
    if (other === undefined || !sameMetric(metric, other)) return;
    // A category with more outcomes on one side (a round that only one variant can reach) keeps them all.
    const labels = (other.labels?.length ?? 0) > (metric.labels?.length ?? 0) ? other.labels : metric.labels;
    metrics.push({ ...metric, max: Math.max(metric.max, other.max), ...(labels === undefined ? {} : { labels }) });
    indexA.push(i);
    indexB.push(j);
  });
  return { metrics, indexA: Int32Array.from(indexA), indexB: Int32Array.from(indexB) };
}

/**
 * `trials` paired trials: the tally's `a` is the baseline (drawn as `crucible run` draws it), `b` the
 * variant on the same dice.
 */
export function runPaired(baseline: Kernel, variant: Kernel, options: PairedRunOptions): PairedTally {
  return pairedLoop(baseline, variant, options, true);
}

/**
 * The same comparison without common random numbers, for measuring what pairing saves: the
 * baseline still draws as a run does, the variant from the streams of another seed.
 */
export function runUnpaired(baseline: Kernel, variant: Kernel, options: PairedRunOptions): PairedTally {
  return pairedLoop(baseline, variant, options, false);
}

/** A seed whose streams share nothing with `seed`'s (seeds are hashed into the generator's state). */
const otherSeed = (seed: number): number => (seed ^ 0x5bd1e995) >>> 0;

function pairedLoop(baseline: Kernel, variant: Kernel, options: PairedRunOptions, paired: boolean): PairedTally {
  const { metrics, indexA, indexB } = commonMetrics(baseline, variant);
  const tally = new PairedTally(metrics);
  const rowA = new Int32Array(baseline.metrics.length);
  const rowB = new Int32Array(variant.metrics.length);
  const pairA = new Int32Array(metrics.length);
  const pairB = new Int32Array(metrics.length);
  const generator = streamGenerator(options.seed, 0);
  const unpairedGenerator = streamGenerator(otherSeed(options.seed), 0);
  for (let done = 0; done < options.trials; ) {
    const count = Math.min(SHARD_TRIALS, options.trials - done);
    const dice = new RewindableDice(generator.clone());
    const baselineDice = new StreamDice(generator.clone());
    const variantDice = new StreamDice(unpairedGenerator.clone());
    for (let t = 0; t < count; t++) {
      if (paired) {
        dice.startTrial();
        baseline.trial(dice, rowA);
        const end = dice.rewind();
        variant.trial(dice, rowB);
        dice.seek(end);
      } else {
        baseline.trial(baselineDice, rowA);
        variant.trial(variantDice, rowB);
      }
      for (let m = 0; m < metrics.length; m++) {
        pairA[m] = rowA[indexA[m] as number] as number;
        pairB[m] = rowB[indexB[m] as number] as number;
      }
      tally.add(pairA, pairB);
    }
    generator.jump();
    unpairedGenerator.jump();
    done += count;
    options.onProgress?.(done);
  }
  return tally;
}
