import type { ColumnTable } from 'arquero';
import type { BalanceDocument } from './balance-document.js';
import { estimateText } from './matchup-tables.js';
import { tableOf } from './tables.js';

/**
 * `crucible balance` as tables: the fitted costs (ranked by published minus fitted), and for each
 * unit fitted by count its per-count and per-opponent tables; for a roster fielded whole, the
 * strengths, fitted costs and verdicts. Numbers to one decimal of a point (costs) and the
 * precision the runs achieved (scores).
 */
type ByCount = Extract<BalanceDocument, { fielded: 'by-count' }>;
type Whole = Extract<BalanceDocument, { fielded: 'whole' }>;

const points = (value: number | null | undefined): string => (value === undefined ? '' : value === null ? 'any price' : value.toFixed(1));

/** A minus sign, not a hyphen, as compare and the pages print it. */
const signed = (value: number, digits: number): string => `${value < 0 ? '−' : ''}${Math.abs(value).toFixed(digits)}`;

/**
 * A cost interval as printed: ends the data cannot bound read as such — "any price" above 10× the
 * dearest published cost, 0 below a thousandth of the cheapest — not as 597393.4 or 1e-113.
 */
export function costRange(low: number, high: number | null, cheapest: number, dearest: number): string {
  const top = high === null || high > 10 * dearest ? 'any price' : high.toFixed(1);
  const bottom = low < cheapest / 1000 ? '0' : low.toFixed(1);
  return top === 'any price' ? `${bottom} – any price` : `[${bottom}, ${top}]`;
}

/** For CSV: a cost rounded to 0.1 point, or blank where the data cannot bound it (see costRange). */
function costNumber(value: number | null | undefined, dearest: number): number | string {
  if (value === undefined || value === null || value > 10 * dearest) return '';
  return Number(value.toFixed(1));
}

export type CountVerdict = 'under-costed' | 'fair' | 'over-costed';

/** By count: the published cost against the fitted cost's interval (below it: under-costed). */
export function countVerdict(result: ByCount['results'][number]): CountVerdict | undefined {
  if (result.publishedCost === undefined || result.costInterval === undefined) return undefined;
  if (result.publishedCost < result.costInterval.low) return 'under-costed';
  if (result.costInterval.high !== null && result.publishedCost > result.costInterval.high) return 'over-costed';
  return 'fair';
}

const VERDICT_ORDER: Record<string, number> = { 'under-costed': 0, 'over-costed': 1, fair: 2 };

export function countCostsTable(document: ByCount): ColumnTable {
  // Verdicts first (under-costed, then over-costed), each by how far published lies from fitted.
  const ranked = [...document.results].sort((a, b) => (VERDICT_ORDER[countVerdict(a) ?? ''] ?? 3) - (VERDICT_ORDER[countVerdict(b) ?? ''] ?? 3) || Math.abs((b.publishedCost ?? 0) - (b.fairCost ?? 0)) - Math.abs((a.publishedCost ?? 0) - (a.fairCost ?? 0)));
  const costs = document.results.flatMap((result) => (result.publishedCost === undefined ? [] : [result.publishedCost]));
  const cheapest = Math.min(...costs, 1);
  const dearest = Math.max(...costs, 1);
  return tableOf(
    ranked.map((result) => ({
      Unit: result.name,
      Published: result.publishedCost ?? '',
      Fitted: result.fairCost === undefined ? 'not found' : points(result.fairCost),
      '95% interval': result.costInterval === undefined ? '' : costRange(result.costInterval.low, result.costInterval.high, cheapest, dearest),
      'Published − fitted': result.fairCost === undefined || result.publishedCost === undefined ? '' : signed(result.publishedCost - result.fairCost, 1),
      Verdict: countVerdict(result) ?? '',
      'Curve misfit (dispersion)': result.fit === undefined ? '' : result.fit.dispersion.toFixed(1),
      Note: result.problem ?? '',
    })),
  );
}

export function perCountTable(document: ByCount, unit: string): ColumnTable {
  const result = document.results.find((entry) => entry.unit === unit);
  return tableOf(
    (result?.curve ?? []).map((point) => ({
      Models: point.count,
      'Expected score (mean over opponents)': estimateText(point.score, document.precision),
      Trials: point.trials,
    })),
  );
}

export function perOpponentTable(document: ByCount, unit: string): ColumnTable {
  const result = document.results.find((entry) => entry.unit === unit);
  if (result === undefined) return tableOf([]);
  return tableOf(
    result.opponents.map((opponent) => {
      // The counts measured at full precision (the bisection's coarse ones are in the per-count table).
      const most = Math.max(...result.observations.map((observation) => observation.combined.trials));
      const seen = result.observations.filter((observation) => observation.opponent === opponent.opponent && observation.combined.trials === most);
      return {
        Opponent: opponent.name,
        'It fields': `${opponent.count} ${opponent.count === 1 ? 'model' : 'models'}, ${Number(opponent.points.toFixed(1))} points`,
        ...Object.fromEntries(seen.map((observation) => [`Score at ${observation.count}`, estimateText(observation.combined.score, document.precision)])),
        'Models for ½': opponent.fairCount === undefined ? 'not straddled' : opponent.fairCount.toFixed(2),
        'Cost by this opponent': points(opponent.cost),
      };
    }),
  );
}

export function wholeCostsTable(document: Whole): ColumnTable {
  const ranked = [...document.units].sort((a, b) => b.studentizedResidual - a.studentizedResidual);
  const cheapest = Math.min(...document.units.map((unit) => unit.points));
  const dearest = Math.max(...document.units.map((unit) => unit.points));
  return tableOf(
    ranked.map((unit) => ({
      Unit: unit.name,
      Published: unit.points,
      Strength: `${signed(unit.strength, 2)} ±${(1.96 * unit.strengthStandardError).toFixed(2)}`,
      Fitted: unit.fittedCost === null ? 'none (the line does not rise with points)' : points(unit.fittedCost),
      '95% interval': costRange(unit.costInterval.low, unit.costInterval.high, cheapest, dearest),
      Verdict: unit.verdict,
    })),
  );
}

/** Costs as numbers, for CSV and spreadsheets: rounded to 0.1 point, blank where unbounded. */
export function costsNumbers(document: BalanceDocument): ColumnTable {
  if (document.fielded === 'whole') {
    const dearest = Math.max(...document.units.map((unit) => unit.points));
    return tableOf(
      document.units.map((unit) => ({
        unit: unit.name,
        published: unit.points,
        strength: Number(unit.strength.toFixed(3)),
        'strength se': Number(unit.strengthStandardError.toFixed(3)),
        fitted: costNumber(unit.fittedCost, dearest),
        low: costNumber(unit.costInterval.low, dearest),
        high: costNumber(unit.costInterval.high, dearest),
        verdict: unit.verdict,
      })),
    );
  }
  const dearest = Math.max(...document.results.map((result) => result.publishedCost ?? 1));
  return tableOf(
    document.results.map((result) => ({
      unit: result.name,
      published: result.publishedCost ?? '',
      fitted: costNumber(result.fairCost, dearest),
      low: costNumber(result.costInterval?.low, dearest),
      high: costNumber(result.costInterval?.high, dearest),
      verdict: countVerdict(result) ?? '',
      dispersion: result.fit === undefined ? '' : Number(result.fit.dispersion.toFixed(2)),
      note: result.problem ?? '',
    })),
  );
}
