import { type MetricSummary, summarize } from './summary.js';
import type { Tally } from './tally.js';

/**
 * The `--precision ε` stop rule: stop once every probability the report prints has a 95% interval
 * within ±ε of its estimate. It reads the same summaries the report is made of, so "every reported
 * probability" cannot drift from what is actually reported.
 */

/** How far a probability's 95% interval reaches from its estimate, on its wider side (Wilson intervals are not symmetric). */
export interface HalfWidths {
  /** The widest over every reported probability. */
  readonly widest: number;
  /** The widest per metric, by metric name, in the kernel's metric order. */
  readonly byMetric: Readonly<Record<string, number>>;
}

function widestOf(summary: MetricSummary): number {
  let widest = 0;
  for (const entry of [...summary.distribution, ...summary.atLeast]) {
    widest = Math.max(widest, entry.probability - entry.interval.low, entry.interval.high - entry.probability);
  }
  return widest;
}

export function halfWidths(tally: Tally): HalfWidths {
  const byMetric: Record<string, number> = {};
  let widest = 0;
  for (const summary of summarize(tally)) {
    const metricWidest = widestOf(summary);
    byMetric[summary.name] = metricWidest;
    widest = Math.max(widest, metricWidest);
  }
  return { widest, byMetric };
}

/**
 * Trials likely needed to bring `widest` down to `target`: half-widths shrink as 1/√n. Only an
 * estimate, for the progress bar's time left; the stop rule itself is exact.
 */
export function trialsNeeded(trials: number, widest: number, target: number): number {
  return widest <= target ? trials : Math.ceil(trials * (widest / target) ** 2);
}
