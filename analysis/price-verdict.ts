import type { Interval } from '../statistics/intervals.js';

/**
 * The verdict on a published cost, from the unit's deserved cost and its 95% interval, and the
 * tolerance the designer sets: how far a price may be off before it is worth changing (costs come
 * in steps; a price right to within a few percent is right).
 *
 * - under-costed: the published cost lies below the interval, and the deserved cost is more than
 *   the tolerance above it — the unit is worth more, by more than the tolerance, beyond reasonable
 *   doubt about the simulation and the list's cost curve;
 * - over-costed: the same, above;
 * - fair: the whole interval lies within the tolerance of the published cost — the data show the
 *   price is right to within the tolerance;
 * - uncertain: neither — the interval reaches beyond the tolerance on some side while containing
 *   (or nearly) the published cost: more runs, or a list whose units fit its cost curve better,
 *   would tell.
 *
 * A fairly priced unit is flagged under- or over-costed at most 5% of the time (its published cost
 * is its deserved cost, outside a 95% interval at most 5% of the time), and less with a tolerance.
 */
export const PRICE_VERDICTS = ['under-costed', 'over-costed', 'fair', 'uncertain'] as const;
export type PriceVerdict = (typeof PRICE_VERDICTS)[number];

export type Tolerance = { readonly kind: 'percent'; readonly value: number } | { readonly kind: 'points'; readonly value: number };

/** The tolerance when the designer sets none: 10% of the published cost. */
export const DEFAULT_TOLERANCE: Tolerance = { kind: 'percent', value: 10 };

/** "10%" (of the published cost) or "5" (points); undefined when the text is neither. */
export function parseTolerance(text: string): Tolerance | undefined {
  const trimmed = text.trim();
  const percent = /^(\d+(?:\.\d+)?)\s*%$/.exec(trimmed);
  if (percent !== null) {
    const value = Number(percent[1]);
    return value >= 0 && value < 100 ? { kind: 'percent', value } : undefined;
  }
  if (!/^\d+(?:\.\d+)?$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) && value >= 0 ? { kind: 'points', value } : undefined;
}

/** Why `text` is no tolerance, in the CLI's and the workbench's words. */
export const toleranceProblem = (text: string): string =>
  `The tolerance is a percentage of the published cost from 0% to 99% ("10%") or points, 0 or more ("5"), got ${JSON.stringify(text)}.`;

/** The tolerance in points for a unit of this published cost. */
export function tolerancePoints(tolerance: Tolerance, published: number): number {
  return tolerance.kind === 'percent' ? (published * tolerance.value) / 100 : tolerance.value;
}

/** "±10% of the published cost", "±5 points". */
export function toleranceText(tolerance: Tolerance): string {
  return tolerance.kind === 'percent'
    ? `±${tolerance.value}% of the published cost`
    : `±${tolerance.value} point${tolerance.value === 1 ? '' : 's'}`;
}

export function priceVerdict(published: number, deserved: number, interval: Interval, tolerance: Tolerance): PriceVerdict {
  const allowed = tolerancePoints(tolerance, published);
  if (published < interval.low && deserved - published > allowed) return 'under-costed';
  if (published > interval.high && published - deserved > allowed) return 'over-costed';
  if (interval.low >= published - allowed && interval.high <= published + allowed) return 'fair';
  return 'uncertain';
}

/** The verdict in words, for tables: "under-costed", "fair (within ±10%)". */
export function verdictText(verdict: PriceVerdict, tolerance: Tolerance): string {
  if (verdict === 'fair') return `fair (within ${tolerance.kind === 'percent' ? `±${tolerance.value}%` : `±${tolerance.value} pt`})`;
  return verdict;
}
