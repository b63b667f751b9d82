import { StreamDice, streamGenerator } from '../engine/dice/index.js';
import type { Kernel, MetricSpec } from '../engine/kernel.js';
import { PairedDice, variantStreamGenerator } from './paired-dice.js';
import { PairedTally } from '../statistics/paired-tally.js';
import { InterruptedError, yieldToEventLoop } from './interrupted.js';
import { SHARD_TRIALS } from './run.js';

/**
 * A paired comparison of two variants of a scenario with common random numbers. The baseline draws
 * exactly what `crucible run` draws — shard k of SHARD_TRIALS trials on the seed's stream k, trial
 * after trial on the same dice (sim/run.ts) — so its tally is the run's, count for count. The variant
 * replays each trial from the same random numbers, and draws any it needs beyond them from a stream
 * of its own (sim/paired-dice.ts): trial t of both starts from the same draws, so what differs
 * between their rows is the variants' rules, not luck, and no trial shares a number with another,
 * so the paired differences are independent. Only metrics both kernels report alike are compared
 * (same name and kind; categories whose labels agree).
 */
export interface PairedRunOptions {
  readonly seed: number;
  readonly trials: number;
  /** Called now and then with the trials done. */
  readonly onProgress?: (trialsDone: number) => void;
}

/** `runPairedAsync`'s: paired (default) or not, and a signal that stops it between shards. */
export interface PairedAsyncOptions extends PairedRunOptions {
  readonly paired?: boolean;
  /** Once aborted, no further shard runs: the run rejects with an InterruptedError. */
  readonly signal?: AbortSignal;
}

/**
 * How the two sides draw their random numbers, recorded in every comparison (`pairingVersion` of
 * the compare document): with the engines' versions, what a seed's result depends on.
 * 2: each trial's numbers are its own — paired, the variant rereads the baseline's numbers of the
 * trial and draws any more from its own streams; unpaired, it draws all of them there.
 * 1 (documents without the field): the variant's extra numbers were the next baseline trial's.
 */
export const PAIRING_VERSION = 2;

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
  const loop = pairedLoop(baseline, variant, options, true);
  while (loop.next());
  return loop.tally;
}

/**
 * `runPaired` (or `runUnpaired`: `paired: false`) shard by shard, letting the event loop run between
 * shards when a `signal` is given, so that a Ctrl-C is heard while it runs (the same numbers).
 */
export async function runPairedAsync(baseline: Kernel, variant: Kernel, options: PairedAsyncOptions): Promise<PairedTally> {
  const loop = pairedLoop(baseline, variant, options, options.paired ?? true);
  const signal = options.signal;
  while (loop.next()) {
    if (signal === undefined) continue;
    await yieldToEventLoop();
    if (signal.aborted) throw new InterruptedError();
  }
  return loop.tally;
}

/**
 * The same comparison without common random numbers, for measuring what pairing saves: the
 * baseline still draws as a run does, the variant every number from its own streams.
 */
export function runUnpaired(baseline: Kernel, variant: Kernel, options: PairedRunOptions): PairedTally {
  const loop = pairedLoop(baseline, variant, options, false);
  while (loop.next());
  return loop.tally;
}

/** The comparison's trials, a shard of SHARD_TRIALS at each `next()` (false once all are done), into `tally`. */
function pairedLoop(
  baseline: Kernel,
  variant: Kernel,
  options: PairedRunOptions,
  paired: boolean,
): { readonly tally: PairedTally; next(): boolean } {
  const { metrics, indexA, indexB } = commonMetrics(baseline, variant);
  const tally = new PairedTally(metrics);
  const rowA = new Int32Array(baseline.metrics.length);
  const rowB = new Int32Array(variant.metrics.length);
  const pairA = new Int32Array(metrics.length);
  const pairB = new Int32Array(metrics.length);
  const generator = streamGenerator(options.seed, 0);
  const ownGenerator = variantStreamGenerator(options.seed, 0);
  let done = 0;
  const next = (): boolean => {
    if (done >= options.trials) return false;
    const count = Math.min(SHARD_TRIALS, options.trials - done);
    const dice = new PairedDice(generator, ownGenerator);
    const baselineDice = new StreamDice(generator);
    const variantDice = new StreamDice(ownGenerator);
    for (let t = 0; t < count; t++) {
      if (paired) {
        dice.startBaseline();
        baseline.trial(dice, rowA);
        dice.startVariant();
        variant.trial(dice, rowB);
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
    ownGenerator.jump();
    done += count;
    options.onProgress?.(done);
    return done < options.trials;
  };
  return { tally, next };
}
