import type { MetricSpec } from '../engine/kernel.js';

/**
 * A Tally: one histogram per metric (counts of each integer value 0..max), plus the trial count.
 * Tallies from any split of the same trials add up to the same Tally, which is what makes runs
 * mergeable across shards, workers and checkpoints. Values above a metric's max are a kernel bug.
 */
export class Tally {
  readonly counts: Float64Array[];
  trials = 0;

  constructor(readonly metrics: readonly MetricSpec[]) {
    this.counts = metrics.map((metric) => new Float64Array(metric.max + 1));
  }

  add(row: Int32Array): void {
    const counts = this.counts;
    for (let m = 0; m < counts.length; m++) {
      const histogram = counts[m] as Float64Array;
      const value = row[m] as number;
      if (value < 0 || value >= histogram.length) {
        throw new RangeError(`metric ${this.metrics[m]?.name} = ${value} is outside 0..${histogram.length - 1}`);
      }
      histogram[value] = (histogram[value] as number) + 1;
    }
    this.trials++;
  }

  merge(other: Tally): void {
    if (other.counts.length !== this.counts.length) throw new Error('cannot merge tallies of different kernels');
    for (let m = 0; m < this.counts.length; m++) {
      const mine = this.counts[m] as Float64Array;
      const theirs = other.counts[m] as Float64Array;
      for (let v = 0; v < mine.length; v++) mine[v] = (mine[v] as number) + (theirs[v] ?? 0);
    }
    this.trials += other.trials;
  }

  /** The histogram of the metric called `name`. */
  histogram(name: string): Float64Array {
    const index = this.metrics.findIndex((metric) => metric.name === name);
    const histogram = this.counts[index];
    if (histogram === undefined) throw new Error(`no metric named ${name}`);
    return histogram;
  }
}
