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

/** Receives a kernel's trace events, in the order they happen; each ruleset defines its events. */
export interface TraceSink<TraceEvent = unknown> {
  event(event: TraceEvent): void;
}

export interface Kernel<TraceEvent = unknown> {
  readonly ruleset: string;
  readonly engineVersion: string;
  readonly metrics: readonly MetricSpec[];
  /** Run one trial: read only `dice`, write every metric into `row` (length = metrics.length). */
  trial(dice: Dice, row: Int32Array): void;
  /**
   * Report what the following trials do to `sink` (null: stop). Tracing must draw exactly the same
   * dice as not tracing, so a traced trial replays an untraced run's trial.
   */
  setTrace?(sink: TraceSink<TraceEvent> | null): void;
}
