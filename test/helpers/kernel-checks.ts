import { type Dice, StreamDice, streamDice, streamGenerator } from '../../engine/dice/index.js';
import type { Kernel, MetricSpec, TraceSink } from '../../engine/kernel.js';
import { EXACT_BUDGET, type ExactDistributions, exactDistributions } from '../../sim/exact.js';

/**
 * The checks of the kernel contract (test/sim/kernel-contract.test.ts): each runs a kernel and
 * returns what it found wrong (empty: nothing), so the suite can also feed it a deliberately broken
 * kernel and see it fail.
 */

/** A cell no metric may hold: prefilled before every trial, so a metric left unwritten shows. */
export const UNWRITTEN = -1;

/** `trials` trials on `dice`, flattened (trial t's metric m at t·M + m); every row starts as UNWRITTEN. */
export function runRows(kernel: Kernel, dice: Dice, trials: number): Int32Array {
  const width = kernel.metrics.length;
  const rows = new Int32Array(trials * width);
  const row = new Int32Array(width);
  for (let t = 0; t < trials; t++) {
    row.fill(UNWRITTEN);
    kernel.trial(dice, row);
    rows.set(row, t * width);
  }
  return rows;
}

/**
 * The same, but into a Float64Array row of one cell more, all NaN: what the kernel computes before
 * an Int32Array would truncate (2.5 → 2), wrap (2³² + 1 → 1) or zero (NaN → 0) it, a cell left
 * unwritten, and a write past the row's end.
 */
export function runRowsAsWritten(kernel: Kernel, dice: Dice, trials: number): { rows: Float64Array; pastTheEnd: number[] } {
  const width = kernel.metrics.length;
  const rows = new Float64Array(trials * width);
  const row = new Float64Array(width + 1);
  const pastTheEnd: number[] = [];
  for (let t = 0; t < trials; t++) {
    row.fill(Number.NaN);
    kernel.trial(dice, row as unknown as Int32Array);
    if (!Number.isNaN(row[width])) pastTheEnd.push(t);
    rows.set(row.subarray(0, width), t * width);
  }
  return { rows, pastTheEnd };
}

/** Trial t of each in `order` on its own dice (StreamDice.reseedForTrial: every trial from its own seeded state), rows by t. */
export function runReseeded(kernel: Kernel, seed: number, order: readonly number[]): Int32Array {
  const width = kernel.metrics.length;
  const rows = new Int32Array(order.length * width);
  const row = new Int32Array(width);
  const dice = streamDice(seed);
  for (const t of order) {
    dice.reseedForTrial(seed, t);
    row.fill(UNWRITTEN);
    kernel.trial(dice, row);
    rows.set(row, t * width);
  }
  return rows;
}

/** A metric spec's own promises: unique names, an integer max ≥ 0, a flag 0..1, a category's labels one per value. */
export function specProblems(metrics: readonly MetricSpec[]): string[] {
  const problems: string[] = [];
  const names = new Set<string>();
  for (const metric of metrics) {
    if (metric.name === '' || names.has(metric.name)) problems.push(`metric name ${JSON.stringify(metric.name)} empty or repeated`);
    names.add(metric.name);
    if (!Number.isInteger(metric.max) || metric.max < 0) problems.push(`${metric.name}: max ${metric.max}`);
    if (metric.kind === 'flag' && metric.max !== 1) problems.push(`${metric.name}: a flag with max ${metric.max}`);
    if (metric.kind === 'category' && metric.labels?.length !== metric.max + 1)
      problems.push(`${metric.name}: ${metric.labels?.length} labels for values 0..${metric.max}`);
  }
  return problems;
}

/** Every cell an integer in 0..max (UNWRITTEN and NaN are not). At most 10 reported. */
export function rangeProblems(metrics: readonly MetricSpec[], rows: ArrayLike<number>): string[] {
  const problems: string[] = [];
  const width = metrics.length;
  for (let cell = 0; cell < rows.length && problems.length < 10; cell++) {
    const value = rows[cell] as number;
    const metric = metrics[cell % width] as MetricSpec;
    if (!Number.isInteger(value) || value < 0 || value > metric.max)
      problems.push(`trial ${Math.floor(cell / width)}: ${metric.name} = ${value}, not an integer in 0..${metric.max}`);
  }
  return problems;
}

/** The first trial whose rows differ, described; undefined when all are the same. */
export function rowDifference(metrics: readonly MetricSpec[], actual: ArrayLike<number>, expected: ArrayLike<number>): string | undefined {
  const width = metrics.length;
  if (actual.length !== expected.length) return `${actual.length / width} rows, not ${expected.length / width}`;
  for (let cell = 0; cell < actual.length; cell++) {
    // !==, not Object.is: a −0 is the integer 0 (and NaN, never stored by an Int32Array, differs from everything).
    if (actual[cell] !== expected[cell])
      return `trial ${Math.floor(cell / width)}: ${metrics[cell % width]?.name} = ${actual[cell]}, not ${expected[cell]}`;
  }
  return undefined;
}

/**
 * Property 2: same dice, same rows — `kernel` (maybe used before) run twice, a freshly built one, and
 * each trial on its own reseeded dice, in order on `kernel` and in reverse order on a fresh one.
 */
export function determinismProblems(kernel: Kernel, build: () => Kernel, seed: number, trials: number): string[] {
  const metrics = kernel.metrics;
  const first = runRows(kernel, streamDice(seed), trials);
  const order = Array.from({ length: trials }, (_, t) => t);
  const found = [
    ['the same kernel run again', rowDifference(metrics, runRows(kernel, streamDice(seed), trials), first)],
    ['a freshly built kernel', rowDifference(metrics, runRows(build(), streamDice(seed), trials), first)],
    [
      'each trial reseeded, in reverse order on a fresh kernel vs in order',
      rowDifference(metrics, runReseeded(build(), seed, [...order].reverse()), runReseeded(kernel, seed, order)),
    ],
  ] as const;
  return found.filter(([, difference]) => difference !== undefined).map(([what, difference]) => `${what}: ${difference}`);
}

/** Stream dice that count the 32-bit numbers drawn: equal counts from equal states leave two streams at the same place. */
export class CountingStreamDice extends StreamDice {
  draws = 0;
  override next(): number {
    this.draws++;
    return super.next();
  }
}

/**
 * Property 3: `traced` (tracing every other trial, switched on and off between trials as replay
 * does) against `untraced`, both on dice of `seed`: per trial the same count of 32-bit draws and the
 * same row, and at least one event per traced trial.
 */
export function traceProblems(untraced: Kernel, traced: Kernel, seed: number, trials: number): string[] {
  const setTrace = traced.setTrace?.bind(traced);
  if (setTrace === undefined) return ['no setTrace'];
  const problems: string[] = [];
  const plain = new CountingStreamDice(streamGenerator(seed, 0));
  const watched = new CountingStreamDice(streamGenerator(seed, 0));
  const plainRow = new Int32Array(untraced.metrics.length);
  const tracedRow = new Int32Array(traced.metrics.length);
  let events = 0;
  const sink: TraceSink = { event: () => events++ };
  untraced.setTrace?.(null);
  try {
    for (let t = 0; t < trials && problems.length < 10; t++) {
      const tracing = t % 2 === 0;
      setTrace(tracing ? sink : null);
      const [before, eventsBefore] = [plain.draws, events];
      untraced.trial(plain, plainRow);
      const drawn = plain.draws - before;
      const watchedBefore = watched.draws;
      traced.trial(watched, tracedRow);
      const tracedDrawn = watched.draws - watchedBefore;
      const label = `trial ${t} (${tracing ? 'traced' : 'trace off'})`;
      if (tracedDrawn !== drawn) problems.push(`${label}: ${tracedDrawn} draws, untraced ${drawn}`);
      const difference = rowDifference(traced.metrics, tracedRow, plainRow);
      if (difference !== undefined) problems.push(`${label}: ${difference}`);
      if (tracing && events === eventsBefore) problems.push(`${label}: no event reported`);
      if (!tracing && events !== eventsBefore) problems.push(`${label}: events reported with the trace off`);
    }
  } finally {
    setTrace(null);
  }
  return problems;
}

/** Property 4: every metric's probabilities non-negative, one per value 0..max, summing to 1 within the error bound. */
export function exactProblems(kernel: Kernel): { problems: string[]; exact?: ExactDistributions } {
  let exact: ExactDistributions | undefined;
  try {
    exact = exactDistributions(kernel, EXACT_BUDGET);
  } catch (error) {
    return { problems: [`enumeration refused: ${(error as Error).message}`] };
  }
  if (exact === undefined) return { problems: [`more than ${EXACT_BUDGET.paths} paths`] };
  const problems: string[] = [];
  kernel.metrics.forEach((metric, m) => {
    const probabilities = exact.probabilities[m] as Float64Array;
    if (probabilities.length !== metric.max + 1)
      problems.push(`${metric.name}: ${probabilities.length} probabilities for 0..${metric.max}`);
    let sum = 0;
    for (const p of probabilities) {
      if (!(p >= 0)) problems.push(`${metric.name}: a probability ${p}`);
      sum += p;
    }
    // Our own summation of max + 1 terms adds at most (max + 1)·2⁻⁵³ to the enumeration's bound.
    const tolerance = exact.errorBound + (metric.max + 1) * 2 ** -53;
    if (Math.abs(sum - 1) > tolerance)
      problems.push(
        `${metric.name}: probabilities sum to 1 ${sum >= 1 ? '+' : '−'} ${Math.abs(sum - 1).toExponential(2)}, beyond the bound ${tolerance.toExponential(2)}`,
      );
  });
  return { problems, exact };
}

/** Metrics whose exact distribution has at least two values above 1% (the informative ones). */
export const informative = (distribution: ArrayLike<number>): boolean => Array.from(distribution).filter((p) => p > 0.01).length >= 2;

/** A kernel that behaves like `base` except for `change`: the broken kernels the checks must catch. */
export function broken(base: Kernel, change: Partial<Kernel>): Kernel {
  return {
    ruleset: base.ruleset,
    engineVersion: base.engineVersion,
    metrics: base.metrics,
    trial: (dice, row) => base.trial(dice, row),
    ...change,
  };
}
