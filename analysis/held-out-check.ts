import { type DavidsonFit, davidsonExpectedScore } from '../statistics/davidson.js';
import type { MatchupCell, MatchupEntry } from './matchups.js';
import { scoreVarianceOfMean } from '../statistics/outcome.js';

/**
 * The model check of a price list from a round robin (analysis/whole-unit-costs.ts): K-fold
 * cross-validation over unordered pairings — both seatings of a pairing held out together,
 * strengths refitted without them, and their combined expected score predicted from the refitted
 * strengths, draw tendency and seat advantage (davidsonExpectedScore) — against the played score.
 * Where strengths capture the matchups, the misses are the played scores' own noise; where they
 * do not (one unit beats another whatever their strengths say), they are larger.
 */

/** How well strengths fitted without a pairing predict it: the model's own check. */
export interface HeldOutCheck {
  readonly folds: number;
  readonly pairings: number;
  /** Root mean square of predicted − played combined expected score, over every pairing held out. */
  readonly rmsError: number;
  /** Root mean square of the played scores' own standard errors: what noise alone would give. */
  readonly rmsNoise: number;
  /** The pairings predicted worst: predicted and played combined expected scores of the row unit. */
  readonly worst: readonly { readonly row: string; readonly column: string; readonly predicted: number; readonly played: number }[];
}

/** Folds of the held-out check: each pairing is predicted by a fit without its fold. */
const HELD_OUT_FOLDS = 10;
const WORST_SHOWN = 3;

/** An unordered pairing's fold: from the ids, so it does not depend on the order of the entries. */
function foldOf(a: string, b: string): number {
  const [low, high] = a < b ? [a, b] : [b, a];
  let hash = 2166136261;
  for (const character of `${low}\u0000${high}`) hash = Math.imul(hash ^ (character.codePointAt(0) as number), 16777619) >>> 0;
  return hash % HELD_OUT_FOLDS;
}

const pairKey = (a: string, b: string): string => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);

/**
 * The check over a round robin's cells, `fitWithout(kept)` fitting strengths (indexed as `entries`)
 * to the cells kept; also each unit's own root mean square miss over its held-out pairings.
 */
export function heldOutCheck(
  result: { readonly entries: readonly MatchupEntry[]; readonly cells: readonly MatchupCell[] },
  fitWithout: (kept: readonly MatchupCell[]) => DavidsonFit,
): { check: HeldOutCheck; byUnit: Map<string, number> } {
  const index = new Map(result.entries.map((entry, i) => [entry.id, i]));
  const pairs = result.cells.filter((cell) => cell.row < cell.column);
  const errors: { row: string; column: string; predicted: number; played: number; variance: number }[] = [];
  for (let fold = 0; fold < HELD_OUT_FOLDS; fold++) {
    const held = pairs.filter((cell) => foldOf(cell.row, cell.column) === fold);
    if (held.length === 0) continue;
    const out = new Set(held.map((cell) => pairKey(cell.row, cell.column)));
    const fit = fitWithout(result.cells.filter((cell) => !out.has(pairKey(cell.row, cell.column))));
    for (const cell of held) {
      const predicted = davidsonExpectedScore(fit, index.get(cell.row) as number, index.get(cell.column) as number);
      errors.push({
        row: cell.row,
        column: cell.column,
        predicted,
        played: cell.combined.score.value,
        variance: scoreVarianceOfMean(cell.combined),
      });
    }
  }
  const rms = (values: readonly number[]) => Math.sqrt(values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length));
  const byUnit = new Map<string, number>();
  for (const entry of result.entries) {
    const mine = errors.filter((error) => error.row === entry.id || error.column === entry.id);
    if (mine.length > 0) byUnit.set(entry.id, rms(mine.map((error) => (error.predicted - error.played) ** 2)));
  }
  const worst = [...errors].sort((a, b) => Math.abs(b.predicted - b.played) - Math.abs(a.predicted - a.played)).slice(0, WORST_SHOWN);
  return {
    check: {
      folds: Math.min(HELD_OUT_FOLDS, pairs.length),
      pairings: errors.length,
      rmsError: rms(errors.map((error) => (error.predicted - error.played) ** 2)),
      rmsNoise: rms(errors.map((error) => error.variance)),
      worst: worst.map(({ row, column, predicted, played }) => ({ row, column, predicted, played })),
    },
    byUnit,
  };
}
