import type { Interval } from '../statistics/intervals.js';
import { rulebookPercent } from '../documents/tables.js';

/**
 * How a report page writes numbers, in its charts (data labels, tooltips) and tables alike, so a
 * chart and the table under it never disagree: a probability with its interval in the rulebook form
 * `62% ±1` (documents/tables.ts), a bare probability as a whole percent (what the charts' percent
 * axes print), a difference of two probabilities in percentage points.
 */

/** The chart axes' percent format (d3-format): whole percents, as percentText writes them. */
export const PERCENT_AXIS_FORMAT = '.0%';

export interface EstimateLike {
  readonly value: number;
  readonly interval: Interval;
}

/** "62% ±1": a probability with its 95% interval. */
export function estimateText(estimate: EstimateLike): string {
  return rulebookPercent(estimate.value, estimate.interval);
}

/**
 * A whole percent: "72%". A probability that is not exactly 0 or 1 never reads as "0%" or "100%":
 * it reads "<1%" or ">99%" (something that happens 1 time in 300 did happen).
 */
export function percentText(probability: number): string {
  if (probability > 0 && probability < 0.005) return '<1%';
  if (probability < 1 && probability >= 0.995) return '>99%';
  return `${Math.round(probability * 100)}%`;
}

/** A fixed-point number that never prints as "-0.0". */
function fixed(value: number, digits: number): string {
  const text = value.toFixed(digits);
  return /^-0\.?0*$/.test(text) ? text.slice(1) : text;
}

/** "+3.1", "−0.4" (a true minus sign), "0.0". */
function signed(value: number, digits: number): string {
  const text = fixed(value, digits);
  if (/^0\.?0*$/.test(text)) return text;
  return text.startsWith('-') ? `−${text.slice(1)}` : `+${text}`;
}

/** Most decimals a number is printed with: a half-width of 0.0001 points is already finer than any run measures. */
const MAX_DECIMALS = 4;

/**
 * Decimals that give a half-width two significant digits (at least one decimal below 10, none
 * from 10): enough that an interval printed beside a p-value agrees with it ("[−0.13, −0.05]", not "[−0.1, 0.0]").
 */
export const decimalsFor = (half: number): number =>
  half > 0 && Number.isFinite(half) ? Math.min(MAX_DECIMALS, Math.max(0, 1 - Math.floor(Math.log10(half)))) : 1;

/**
 * A difference with its 95% interval: in percentage points for chances ("+3.1 points [+2.4, +3.8]"),
 * as a number for means ("−0.42 [−0.50, −0.34]"); without an interval (none could be computed), the
 * difference alone.
 */
export function differenceText(difference: number, interval: Interval | undefined, kind: 'chance' | 'mean'): string {
  const half = interval === undefined ? 0 : Math.max(difference - interval.low, interval.high - difference);
  if (kind === 'chance') {
    const digits = decimalsFor(half * 100);
    const points = (value: number) => signed(value * 100, digits);
    return interval === undefined
      ? `${points(difference)} points`
      : `${points(difference)} points [${points(interval.low)}, ${points(interval.high)}]`;
  }
  const digits = interval === undefined ? 3 : decimalsFor(half);
  const number = (value: number) => signed(value, digits);
  return interval === undefined ? number(difference) : `${number(difference)} [${number(interval.low)}, ${number(interval.high)}]`;
}

/**
 * An exact probability (nothing sampled, so its digits mean something): one decimal, or as many
 * more as it takes for a probability that is not 0 or 1 to read as neither: "48.1%", "0.031%".
 */
export function exactPercentText(probability: number): string {
  let digits = 1;
  let text = fixed(probability * 100, digits);
  const misleading = () => (probability > 0 && Number(text) === 0) || (probability < 1 && Number(text) === 100);
  while (misleading() && digits < 10) text = fixed(probability * 100, ++digits);
  return `${text}%`;
}

/** A mean with its 95% interval, to the digits its interval supports: "2.31 [2.28, 2.34]"; a mean that never varied, alone: "0". */
export function meanText(mean: number, interval: Interval): string {
  const half = Math.max(mean - interval.low, interval.high - mean);
  if (half === 0) return String(Number(mean.toFixed(3)));
  const digits = half >= 1 ? 1 : half >= 0.1 ? 2 : 3;
  return `${fixed(mean, digits)} [${fixed(interval.low, digits)}, ${fixed(interval.high, digits)}]`;
}

/** 1234567 → "1,234,567", whatever the machine's locale. */
export function countText(value: number): string {
  return Number.isInteger(value) ? String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',') : String(value);
}

/** Points: whole, or with one decimal when fractional ("12.5"). */
export function pointsText(value: number): string {
  return Number.isInteger(value) ? countText(value) : value.toFixed(1);
}
