import type { Dice } from './dice/index.js';

/**
 * What every rules kernel exposes to `sim/`: the integer metrics one trial writes, and the trial.
 * A metric's values run 0..max; `category` metrics name each value in `labels`.
 */
/**
 * How a kernel draws an action's outcome: `dice` rolls every die (and is needed where a later rule
 * reads single dice, e.g. a trace's faces); `tables` draws each pooled total whole from its exact
 * distribution (engine/dice/outcome-table.ts), which is faster and what exact enumeration walks.
 * Both give the same distribution of every outcome; they draw different random numbers.
 */
export type DrawMethod = 'dice' | 'tables';

/** What a run draws with unless asked (`--method mc`): tables, the faster of the two where they differ. */
export const DEFAULT_DRAW_METHOD: DrawMethod = 'tables';

export type MetricKind = 'category' | 'flag' | 'count';

export interface MetricSpec {
  readonly name: string;
  readonly kind: MetricKind;
  readonly max: number;
  readonly description: string;
  readonly labels?: readonly string[];
}

/** Receives a kernel's trace events, in the order they happen; each rule system defines its events. */
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
