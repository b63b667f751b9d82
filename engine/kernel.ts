import type { Dice } from './dice/index.js';

/**
 * What every rules kernel exposes to `sim/`: the integer metrics one trial writes, and the trial.
 * A metric's values run 0..max; `category` metrics name each value in `labels`.
 */
export type MetricKind = 'category' | 'flag' | 'count';

export interface MetricSpec {
  readonly name: string;
  readonly kind: MetricKind;
  readonly max: number;
  readonly description: string;
  readonly labels?: readonly string[];
}

export interface Kernel {
  readonly ruleset: string;
  readonly engineVersion: string;
  readonly metrics: readonly MetricSpec[];
  /** Run one trial: read only `dice`, write every metric into `row` (length = metrics.length). */
  trial(dice: Dice, row: Int32Array): void;
}
