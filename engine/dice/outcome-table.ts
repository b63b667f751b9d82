/**
 * A discrete distribution to draw from in one 32-bit draw (Walker's alias method, Vose's build):
 * the fast path of issue 9, where a kernel needs an action's outcome (Wounds of a pooled attack,
 * hits left after saves) and not its dice.
 *
 * Probabilities are scaled to integer weights summing to exactly 2³² (largest remainders), and the
 * alias columns are padded to a power of two (at least 4), so a draw's top bits pick a column uniformly and its
 * low bits decide between the column's own outcome and its alias with no rounding: each outcome is
 * drawn with probability weight / 2³², within 2⁻³² of its float64 probability. The float64
 * probabilities themselves are kept for exact enumeration (engine/dice/enumerating.ts), with a
 * bound on their relative error from how they were computed.
 */
const TWO_POW_32 = 4294967296;
const MAX_COLUMNS_LOG2 = 20;
/** Unit roundoff of float64. */
export const UNIT_ROUNDOFF = 2 ** -53;

export class OutcomeTable {
  /** Outcome values with a positive probability, in increasing order of value as given. */
  readonly values: Int32Array;
  readonly probabilities: Float64Array;
  /** Bound on each probability's relative error (from its computation, e.g. a convolution). */
  readonly relativeError: number;
  /** A single outcome: enumeration does not branch on it (stream dice still draw: see StreamDice.pick). */
  readonly certain: boolean;
  /** 32 − log₂(columns): a draw's column is `draw >>> shift`. */
  readonly shift: number;
  /** Low-bit mask: `draw & mask` is uniform in [0, 2^shift). */
  readonly mask: number;
  /**
   * Per column c, at 4c: the threshold (below it the column's own value, else its alias), the own
   * value, the alias value, padding. One array, so a draw reads one cache line; at least 4 columns,
   * so a threshold (≤ 2³⁰) fits an int32.
   */
  readonly columns: Int32Array;

  constructor(values: ArrayLike<number>, probabilities: ArrayLike<number>, relativeError = UNIT_ROUNDOFF) {
    if (values.length !== probabilities.length) throw new RangeError('OutcomeTable: values and probabilities differ in length');
    const keptValues: number[] = [];
    const kept: number[] = [];
    let total = 0;
    for (let i = 0; i < values.length; i++) {
      const p = probabilities[i] ?? 0;
      if (!(p >= 0) || !Number.isFinite(p)) throw new RangeError(`OutcomeTable: probability ${p} of value ${values[i]}`);
      if (p === 0) continue;
      keptValues.push(values[i] ?? 0);
      kept.push(p);
      total += p;
    }
    if (kept.length === 0) throw new RangeError('OutcomeTable: no outcome has a positive probability');
    if (Math.abs(total - 1) > 1e-9) throw new RangeError(`OutcomeTable: probabilities sum to ${total}, not 1`);
    this.values = Int32Array.from(keptValues);
    this.probabilities = Float64Array.from(kept);
    this.relativeError = relativeError;
    this.certain = kept.length === 1;

    let log2 = 0;
    while (1 << log2 < kept.length) log2++;
    if (log2 > MAX_COLUMNS_LOG2) throw new RangeError(`OutcomeTable: ${kept.length} outcomes is too many`);
    log2 = Math.max(2, log2);
    const columns = 1 << log2;
    this.shift = 32 - log2;
    this.mask = (TWO_POW_32 / columns - 1) | 0;
    const capacity = TWO_POW_32 / columns;
    const weights = integerWeights(kept, columns);
    // Column c: [threshold, own value, alias value, padding]; padding columns own (and alias) the first value.
    const table = new Int32Array(4 * columns);
    for (let c = 0; c < columns; c++) table[4 * c + 1] = table[4 * c + 2] = keptValues[c] ?? keptValues[0] ?? 0;
    // Vose: pair each under-full column with an over-full one, all in exact integer arithmetic; a
    // column left in either list is exactly full (integer weights lose nothing).
    const small: number[] = [];
    const large: number[] = [];
    weights.forEach((weight, c) => (weight < capacity ? small : large).push(c));
    for (let s = small.pop(), l = large.pop(); s !== undefined && l !== undefined; s = small.pop(), l = large.pop()) {
      const weight = weights[s] as number;
      table[4 * s] = weight;
      table[4 * s + 2] = table[4 * l + 1] as number;
      weights[l] = (weights[l] as number) - (capacity - weight);
      ((weights[l] as number) < capacity ? small : large).push(l);
    }
    for (let c = 0; c < columns; c++) if (weights[c] === capacity) table[4 * c] = capacity;
    this.columns = table;
  }

  /** The probability with which a draw gives outcome `index`: its integer weight / 2³². */
  sampledProbability(index: number): number {
    const value = this.values[index];
    const count = this.columns.length / 4;
    const capacity = TWO_POW_32 / count;
    let weight = 0;
    for (let c = 0; c < count; c++) {
      const t = this.columns[4 * c] as number;
      if (this.columns[4 * c + 1] === value) weight += t;
      if (this.columns[4 * c + 2] === value) weight += capacity - t;
    }
    return weight / TWO_POW_32;
  }
}

/** Weights proportional to `probabilities`, padded with zeros to `columns`, summing to exactly 2³². */
function integerWeights(probabilities: readonly number[], columns: number): number[] {
  const total = probabilities.reduce((sum, p) => sum + p, 0);
  const scaled = probabilities.map((p) => (p / total) * TWO_POW_32);
  const weights = scaled.map(Math.floor);
  let missing = TWO_POW_32 - weights.reduce((sum, w) => sum + w, 0);
  const byRemainder = scaled.map((s, i) => [s - Math.floor(s), i] as const).sort((a, b) => b[0] - a[0]);
  for (let k = 0; missing > 0; k = (k + 1) % byRemainder.length, missing--) {
    const index = (byRemainder[k] as readonly [number, number])[1];
    weights[index] = (weights[index] as number) + 1;
  }
  while (weights.length < columns) weights.push(0);
  return weights;
}

/**
 * The distribution of the total of `count` dice whose faces score `faceScore` (face i + 1 scores
 * faceScore[i]), by repeated convolution: a table for the fast path, exact up to float64 rounding
 * (relative error ≤ count · (sides + 1) · u, each step summing ≤ sides non-negative products).
 */
export function sumOfDiceTable(faceScore: readonly number[], count: number): OutcomeTable {
  const sides = faceScore.length;
  const top = Math.max(0, ...faceScore);
  // One die as score → probability (faces of equal score merged: fewer steps, and plain loops,
  // which matter for an exact answer's first, not yet compiled, call).
  const die = new Float64Array(top + 1);
  for (let face = 0; face < sides; face++) die[faceScore[face] as number] = (die[faceScore[face] as number] as number) + 1 / sides;
  let distribution = new Float64Array([1]);
  for (let d = 0; d < count; d++) {
    const next = new Float64Array(distribution.length + top);
    for (let total = 0; total < distribution.length; total++) {
      const p = distribution[total] as number;
      if (p === 0) continue;
      for (let score = 0; score <= top; score++) next[total + score] = (next[total + score] as number) + p * (die[score] as number);
    }
    distribution = next;
  }
  const values = Array.from(distribution, (_, total) => total);
  return new OutcomeTable(values, distribution, Math.max(1, count) * (sides + 1) * UNIT_ROUNDOFF);
}

/** Binomial(count, p) as a table: the dice of `sumOfDiceTable` with one face scoring 1 with probability p. */
/**
 * Up to this many dice the distribution is built by convolution, one die at a time (O(n²): 0.1 s at
 * 1,000 dice), as every bundled scenario's is; above it, from the ratios of successive terms (O(n)),
 * so a pool of 10,000 models that shrinks die by die builds its tables in a second, not minutes
 * (issue 17). The two agree to float64 rounding; the threshold keeps existing results byte-identical.
 */
export const CONVOLVED_BINOMIAL_MAX = 1000;

function binomialByConvolution(count: number, p: number): Float64Array {
  let distribution = new Float64Array([1]);
  for (let trial = 0; trial < count; trial++) {
    const next = new Float64Array(distribution.length + 1);
    for (let k = 0; k < distribution.length; k++) {
      const q = distribution[k] as number;
      next[k] = (next[k] as number) + q * (1 - p);
      next[k + 1] = (next[k + 1] as number) + q * p;
    }
    distribution = next;
  }
  return distribution;
}

/** P(k) ∝ C(n, k) pᵏ (1−p)ⁿ⁻ᵏ from the mode outwards by P(k+1)/P(k) = (n−k)/(k+1) · p/(1−p), then normalised. */
function binomialByRatios(count: number, p: number): Float64Array {
  const distribution = new Float64Array(count + 1);
  if (p <= 0 || p >= 1) {
    distribution[p <= 0 ? 0 : count] = 1;
    return distribution;
  }
  const odds = p / (1 - p);
  const mode = Math.min(count, Math.floor((count + 1) * p));
  distribution[mode] = 1;
  for (let k = mode; k < count; k++) distribution[k + 1] = ((distribution[k] as number) * (count - k) * odds) / (k + 1);
  for (let k = mode; k > 0; k--) distribution[k - 1] = ((distribution[k] as number) * k) / ((count - k + 1) * odds);
  let total = 0;
  for (let k = 0; k <= count; k++) total += distribution[k] as number;
  for (let k = 0; k <= count; k++) distribution[k] = (distribution[k] as number) / total;
  return distribution;
}

export function binomialTable(count: number, p: number): OutcomeTable {
  const distribution = count > CONVOLVED_BINOMIAL_MAX ? binomialByRatios(count, p) : binomialByConvolution(count, p);
  return new OutcomeTable(
    Array.from(distribution, (_, k) => k),
    distribution,
    Math.max(1, count) * 4 * UNIT_ROUNDOFF,
  );
}
