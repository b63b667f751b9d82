import { streamDice } from '../engine/dice/index.js';
import type { Kernel, MetricSpec } from '../engine/kernel.js';
import { PairedTally } from './paired-tally.js';

/**
 * A paired comparison of two variants of a scenario with common random numbers: trial t of both
 * variants starts from the same dice (StreamDice.reseedForTrial(seed, t)), so what differs between
 * their rows is the variants' rules, not luck. Only metrics both kernels report alike are compared
 * (same name and kind, same labels for categories).
 */
export interface PairedRunOptions {
  readonly seed: number;
  readonly trials: number;
  /** Called now and then with the trials done. */
  readonly onProgress?: (trialsDone: number) => void;
}

function sameMetric(a: MetricSpec, b: MetricSpec): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind !== 'category') return true;
  return a.max === b.max && (a.labels ?? []).every((label, i) => label === b.labels?.[i]);
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
    metrics.push({ ...metric, max: Math.max(metric.max, other.max) });
    indexA.push(i);
    indexB.push(j);
  });
  return { metrics, indexA: Int32Array.from(indexA), indexB: Int32Array.from(indexB) };
}

export function runPaired(a: Kernel, b: Kernel, options: PairedRunOptions): PairedTally {
  const { metrics, indexA, indexB } = commonMetrics(a, b);
  const tally = new PairedTally(metrics);
  const dice = streamDice(options.seed);
  const rowA = new Int32Array(a.metrics.length);
  const rowB = new Int32Array(b.metrics.length);
  const pairA = new Int32Array(metrics.length);
  const pairB = new Int32Array(metrics.length);
  for (let trial = 0; trial < options.trials; trial++) {
    dice.reseedForTrial(options.seed, trial);
    a.trial(dice, rowA);
    dice.reseedForTrial(options.seed, trial);
    b.trial(dice, rowB);
    for (let m = 0; m < metrics.length; m++) {
      pairA[m] = rowA[indexA[m]!]!;
      pairB[m] = rowB[indexB[m]!]!;
    }
    tally.add(pairA, pairB);
    if (options.onProgress !== undefined && (trial & 0xffff) === 0xffff) options.onProgress(trial + 1);
  }
  return tally;
}

/**
 * The same comparison without common random numbers — each variant on its own dice — for measuring
 * what pairing saves: trial t of B draws from a different stream than trial t of A.
 */
export function runUnpaired(a: Kernel, b: Kernel, options: PairedRunOptions): PairedTally {
  const { metrics, indexA, indexB } = commonMetrics(a, b);
  const tally = new PairedTally(metrics);
  const diceA = streamDice(options.seed, 0);
  const diceB = streamDice(options.seed, 1);
  const rowA = new Int32Array(a.metrics.length);
  const rowB = new Int32Array(b.metrics.length);
  const pairA = new Int32Array(metrics.length);
  const pairB = new Int32Array(metrics.length);
  for (let trial = 0; trial < options.trials; trial++) {
    a.trial(diceA, rowA);
    b.trial(diceB, rowB);
    for (let m = 0; m < metrics.length; m++) {
      pairA[m] = rowA[indexA[m]!]!;
      pairB[m] = rowB[indexB[m]!]!;
    }
    tally.add(pairA, pairB);
  }
  return tally;
}
