import type { MetricSpec } from '../engine/kernel.js';

/**
 * A Tally: one histogram per metric (counts of each integer value 0..max), plus the trial count.
 * Tallies from any split of the same trials add up to the same Tally, which is what makes runs
 * mergeable across shards, workers and checkpoints. A value outside 0..max is a kernel bug.
 *
 * All histograms live in one Float64Array (`cells`; exact counts up to 2^53), metric m's at
 * `offsets[m]`, so adding a row is one indexed increment per metric and a whole tally moves
 * between threads as a single buffer. `counts[m]` is a view of metric m's histogram.
 */
export class Tally {
  readonly cells: Float64Array;
  readonly offsets: Int32Array;
  /** Per metric, the largest value it may take. */
  readonly maxima: Int32Array;
  readonly counts: readonly Float64Array[];
  trials = 0;
  /** Rows for `runWithDice` (sim/run.ts), made on first use and kept with the tally. */
  private block: RowBlock | null = null;

  /**
   * `storage`, if given, allocates `cells` (zeroed, of the given length): a worker counts a shard
   * straight into shared memory, so its tally reaches the main thread with no copy and without
   * transferring — detaching — a buffer (see sim/shard-worker.ts).
   */
  constructor(
    readonly metrics: readonly MetricSpec[],
    storage?: (size: number) => Float64Array,
  ) {
    this.offsets = histogramOffsets(metrics);
    this.maxima = Int32Array.from(metrics, (metric) => metric.max);
    const size = metrics.reduce((cells, metric) => cells + metric.max + 1, 0);
    this.cells = storage === undefined ? new Float64Array(size) : storage(size);
    if (this.cells.length !== size) throw new RangeError(`tally storage has ${this.cells.length} cells, not ${size}`);
    this.counts = metrics.map((metric, m) => this.cells.subarray(this.offsets[m], (this.offsets[m] ?? 0) + metric.max + 1));
  }

  add(row: Int32Array): void {
    const cells = this.cells;
    const offsets = this.offsets;
    const maxima = this.maxima;
    for (let m = 0; m < offsets.length; m++) {
      const value = row[m] as number;
      // One unsigned compare catches both negative and too-large values.
      if (value >>> 0 > (maxima[m] as number)) this.outOfRange(m, value);
      const cell = (offsets[m] as number) + value;
      cells[cell] = (cells[cell] as number) + 1;
    }
    this.trials++;
  }

  private outOfRange(m: number, value: number): never {
    throw outOfRange(this, m, value);
  }

  /** Rows to write trials into and count a block at a time (`RowBlock`): what a run counts with. */
  rowBlock(): RowBlock {
    this.block ??= new RowBlock(this);
    return this.block;
  }

  merge(other: Tally): void {
    this.addCells(other.cells, other.trials);
  }

  /** Merge another tally of the same kernel given as its raw cells (a shard's result from a worker). */
  addCells(other: Float64Array, trials: number): void {
    if (other.length !== this.cells.length) throw new Error('cannot merge tallies of different kernels');
    const cells = this.cells;
    for (let c = 0; c < cells.length; c++) cells[c] = (cells[c] as number) + (other[c] as number);
    this.trials += trials;
  }

  /** The histogram of the metric called `name`. */
  histogram(name: string): Float64Array {
    const index = this.metrics.findIndex((metric) => metric.name === name);
    const histogram = this.counts[index];
    if (histogram === undefined) throw new Error(`no metric named ${name}`);
    return histogram;
  }
}

/**
 * Rows a run's trials are written into, counted into the tally a block at a time, metric by metric:
 * the same counts as `Tally.add` row by row, for less. In a block most metrics hold one value
 * throughout (a side that never lost a model, the round count of a one-round attack), and a run of
 * equal values costs one compare a row where `add` costs an increment; no row is copied either,
 * the kernel writes straight into the block. Every value is still checked against its range.
 *
 * Each row is cleared to −1, outside every range, before the kernel writes it: a kernel that leaves
 * a metric unwritten (it must write them all, engine/kernel.ts) fails the range check instead of
 * counting what an earlier trial left there.
 */
export class RowBlock {
  /** One row per trial of a block, each a view of `buffer`, handed to the kernel in turn. */
  readonly rows: readonly Int32Array[];
  private readonly buffer: Int32Array;

  constructor(private readonly tally: Tally) {
    const width = tally.offsets.length;
    this.buffer = new Int32Array(BLOCK_ROWS * width).fill(UNWRITTEN);
    this.rows = Array.from({ length: BLOCK_ROWS }, (_, r) => this.buffer.subarray(r * width, (r + 1) * width));
  }

  /** Count the first `filled` rows as `filled` trials, then clear them. */
  count(filled: number): void {
    const { buffer, tally } = this;
    const cells = tally.cells;
    const offsets = tally.offsets;
    const maxima = tally.maxima;
    const width = offsets.length;
    const end = filled * width;
    for (let m = 0; m < width; m++) {
      const max = maxima[m] as number;
      const offset = offsets[m] as number;
      // The run of rows that repeat the first row's value, then the rest one by one.
      const first = buffer[m] as number;
      // One unsigned compare catches both negative and too-large values.
      if (first >>> 0 > max) throw outOfRange(tally, m, first);
      let at = m + width;
      while (at < end && buffer[at] === first) at += width;
      cells[offset + first] = (cells[offset + first] as number) + (at - m) / width;
      for (; at < end; at += width) {
        const value = buffer[at] as number;
        if (value >>> 0 > max) throw outOfRange(tally, m, value);
        cells[offset + value] = (cells[offset + value] as number) + 1;
      }
    }
    buffer.fill(UNWRITTEN, 0, end);
    tally.trials += filled;
  }
}

/**
 * Trials a RowBlock holds: 64 rows stay in the L1 cache beside the kernel's own state (512 cost the
 * kernel more than the block saved).
 */
const BLOCK_ROWS = 64;
/** What a row holds until the kernel writes it: outside every metric's range. */
const UNWRITTEN = -1;

/** A value outside its metric's range: the kernel that wrote it has a bug. */
function outOfRange(tally: Tally, m: number, value: number): RangeError {
  return new RangeError(`metric ${tally.metrics[m]?.name} = ${value} is outside 0..${tally.maxima[m]}`);
}

/** Where each metric's histogram starts in a tally's cells: after every earlier metric's 0..max. */
export function histogramOffsets(metrics: readonly MetricSpec[]): Int32Array {
  const offsets = new Int32Array(metrics.length);
  let size = 0;
  metrics.forEach((metric, m) => {
    offsets[m] = size;
    size += metric.max + 1;
  });
  return offsets;
}

/**
 * What is wrong with `cells` as the tally of `trials` trials of `metrics` (undefined: nothing): each
 * metric's histogram must hold exactly `trials` counts, each a whole number ≥ 0. Counts read back
 * from a file or a queue are checked with it before they are merged.
 */
export function histogramProblem(cells: ArrayLike<number>, metrics: readonly MetricSpec[], trials: number): string | undefined {
  let offset = 0;
  for (const metric of metrics) {
    let total = 0;
    for (let value = 0; value <= metric.max; value++) {
      const cell = cells[offset + value] ?? Number.NaN;
      if (!Number.isInteger(cell) || cell < 0) return `the histogram of ${metric.name} holds ${cell}, not a count`;
      total += cell;
    }
    if (total !== trials) return `the histogram of ${metric.name} holds ${total} trials, not ${trials}`;
    offset += metric.max + 1;
  }
  return undefined;
}
