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

const points = (value: number | null | undefined): string => (value === undefined ? '' : value === null ? '∞' : value.toFixed(1));

export function countCostsTable(document: ByCount): ColumnTable {
  const ranked = [...document.results].sort((a, b) => (b.publishedCost ?? 0) - (b.fairCost ?? 0) - ((a.publishedCost ?? 0) - (a.fairCost ?? 0)));
  return tableOf(
    ranked.map((result) => ({
      unit: result.name,
      published: result.publishedCost ?? '',
      fitted: result.fairCost === undefined ? 'not found' : points(result.fairCost),
      '95% interval': result.costInterval === undefined ? '' : `[${points(result.costInterval.low)}, ${points(result.costInterval.high)}]`,
      'published − fitted': result.fairCost === undefined || result.publishedCost === undefined ? '' : points(result.publishedCost - result.fairCost),
      'curve misfit (dispersion)': result.fit === undefined ? '' : result.fit.dispersion.toFixed(1),
      note: result.problem ?? '',
    })),
  );
}

export function perCountTable(document: ByCount, unit: string): ColumnTable {
  const result = document.results.find((entry) => entry.unit === unit);
  return tableOf(
    (result?.curve ?? []).map((point) => ({
      models: point.count,
      'expected score (mean over opponents)': estimateText(point.score, document.precision),
      trials: point.trials,
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
        opponent: opponent.name,
        'it fields': `${opponent.count} = ${points(opponent.points)} pts`,
        ...Object.fromEntries(seen.map((observation) => [`score at ${observation.count}`, estimateText(observation.combined.score, document.precision)])),
        'models for ½': opponent.fairCount === undefined ? 'not straddled' : opponent.fairCount.toFixed(2),
        'cost by this opponent': points(opponent.cost),
      };
    }),
  );
}

export function wholeCostsTable(document: Whole): ColumnTable {
  const ranked = [...document.units].sort((a, b) => b.studentizedResidual - a.studentizedResidual);
  return tableOf(
    ranked.map((unit) => ({
      unit: unit.name,
      published: unit.points,
      strength: `${unit.strength.toFixed(2)} ±${(1.96 * unit.strengthStandardError).toFixed(2)}`,
      fitted: unit.fittedCost === null ? 'none (the line does not rise with points)' : points(unit.fittedCost),
      '95% interval': unit.costInterval.high === null ? 'any price' : `[${points(unit.costInterval.low)}, ${points(unit.costInterval.high)}]`,
      verdict: unit.verdict,
    })),
  );
}

/** Costs as numbers, for CSV and spreadsheets. */
export function costsNumbers(document: BalanceDocument): ColumnTable {
  if (document.fielded === 'whole') {
    return tableOf(document.units.map((unit) => ({ unit: unit.name, published: unit.points, strength: unit.strength, 'strength se': unit.strengthStandardError, fitted: unit.fittedCost ?? '', low: unit.costInterval.low, high: unit.costInterval.high ?? '', verdict: unit.verdict })));
  }
  return tableOf(document.results.map((result) => ({ unit: result.name, published: result.publishedCost ?? '', fitted: result.fairCost ?? '', low: result.costInterval?.low ?? '', high: result.costInterval?.high ?? '', dispersion: result.fit?.dispersion ?? '', note: result.problem ?? '' })));
}
