import type { MetricSpec } from '../engine/kernel.js';

/**
 * What a paired (common random numbers) comparison of two variants needs, trial by trial, for every
 * quantity a report shows: a count metric's value, and each category label's (or flag's)
 * indicator. Per such channel it keeps n, Σa, Σb, Σa², Σb², Σab — enough for both variants' means
 * and variances and for the mean and variance of the paired difference a − b — in one Float64Array,
 * so paired tallies merge by addition like Tally does.
 */
export interface PairedChannel {
  /** `metric` for a count, `metric=label` for a category label or a flag's "yes". */
  readonly name: string;
  readonly metric: number;
  /** The metric value this channel indicates (category/flag), or −1 for a count's value itself. */
  readonly value: number;
}

const SUMS = 5; // Σa, Σb, Σa², Σb², Σab

export class PairedTally {
  readonly channels: readonly PairedChannel[];
  readonly sums: Float64Array;
  trials = 0;
  /** channelStart[m]: the first channel of metric m. */
  private readonly channelStart: Int32Array;

  constructor(readonly metrics: readonly MetricSpec[]) {
    const channels: PairedChannel[] = [];
    this.channelStart = new Int32Array(metrics.length + 1);
    metrics.forEach((metric, m) => {
      this.channelStart[m] = channels.length;
      if (metric.kind === 'count') channels.push({ name: metric.name, metric: m, value: -1 });
      else if (metric.kind === 'flag') channels.push({ name: metric.name, metric: m, value: 1 });
      else
        for (let value = 0; value <= metric.max; value++)
          channels.push({ name: `${metric.name}=${metric.labels?.[value] ?? value}`, metric: m, value });
    });
    this.channelStart[metrics.length] = channels.length;
    this.channels = channels;
    this.sums = new Float64Array(channels.length * SUMS);
  }

  /** Add one trial's rows of variant A and variant B (same dice). */
  add(rowA: Int32Array, rowB: Int32Array): void {
    const sums = this.sums;
    for (let m = 0; m < this.metrics.length; m++) {
      const a = rowA[m]!;
      const b = rowB[m]!;
      for (let channel = this.channelStart[m]!; channel < this.channelStart[m + 1]!; channel++) {
        const value = this.channels[channel]!.value;
        const x = value < 0 ? a : a === value ? 1 : 0;
        const y = value < 0 ? b : b === value ? 1 : 0;
        const base = channel * SUMS;
        sums[base] = sums[base]! + x;
        sums[base + 1] = sums[base + 1]! + y;
        sums[base + 2] = sums[base + 2]! + x * x;
        sums[base + 3] = sums[base + 3]! + y * y;
        sums[base + 4] = sums[base + 4]! + x * y;
      }
    }
    this.trials++;
  }

  merge(other: PairedTally): void {
    if (other.sums.length !== this.sums.length) throw new Error('cannot merge paired tallies of different kernels');
    for (let i = 0; i < this.sums.length; i++) this.sums[i] = this.sums[i]! + other.sums[i]!;
    this.trials += other.trials;
  }

  /** The five sums of a channel: Σa, Σb, Σa², Σb², Σab. */
  channelSums(channel: number): { sumA: number; sumB: number; sumA2: number; sumB2: number; sumAB: number } {
    const base = channel * SUMS;
    const s = this.sums;
    return { sumA: s[base]!, sumB: s[base + 1]!, sumA2: s[base + 2]!, sumB2: s[base + 3]!, sumAB: s[base + 4]! };
  }
}
