import { InputError } from '../sim/errors.js';
import { type DavidsonFit, davidsonExpectedScore, fitDavidson, type PairingCounts } from './davidson.js';
import type { Interval } from './intervals.js';
import { type MatchupOptions, matchups, type MatchupsResult, type SeatingOutcomes } from './matchups.js';
import type { Outcome } from './outcome.js';
import { type PointsRegression, regressStrengthOnPoints, type UnitPrice } from './points-regression.js';
import { type PriceRow, priceRow, type SituationPrice } from './price-list.js';
import { DEFAULT_TOLERANCE, type Tolerance } from './price-verdict.js';
import type { LoadedRoster } from './roster.js';

/**
 * Prices where units are fielded whole (`fielded: whole`: Warmaster's units come at the size and
 * points their army list gives). Counts cannot be varied, so the roster plays a round robin at
 * published points (every entry against every entry, both seatings, every situation:
 * analysis/matchups.ts); a paired-comparison model — Bradley–Terry with draws (Davidson 1970) and a
 * first-seat advantage — turns the wins, draws and losses into one strength per unit; and the
 * list's cost-to-strength line, fitted robustly to the other units, gives each unit the cost it
 * deserves, with an interval that counts the simulation noise and the line's uncertainty
 * (analysis/points-regression.ts). With several situations, the strengths come from the mix of
 * the situations' results (each its share), and each situation is priced on its own as well.
 *
 * A new price changes no game here, so the model is checked instead: pairings held out of the fit
 * are predicted from the strengths fitted without them and compared with their played scores.
 */

export interface WholeUnitPrice extends PriceRow {
  readonly points: number;
  readonly strength: number;
  readonly strengthStandardError: number;
  /** Outside the 95% prediction band of the others' line. */
  readonly unusual?: 'stronger' | 'weaker' | undefined;
  /** Its weight in the robust line through every unit (below 1: discounted as far off the line). */
  readonly lineWeight: number;
  /** Root mean square, over its held-out pairings, of predicted − played expected score. */
  readonly heldOutError?: number | undefined;
}

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

export interface WholeLine extends Omit<PointsRegression, 'units'> {
  readonly situation?: string;
}

export interface WholeUnitCosts {
  readonly units: readonly WholeUnitPrice[];
  readonly tolerance: Tolerance;
  /** The line of the mix (combined). */
  readonly regression: WholeLine;
  /** With several situations, each one's line. */
  readonly situationLines?: readonly WholeLine[];
  readonly drawParameter: number;
  readonly drawInterval: Interval;
  readonly seatAdvantage: number;
  readonly seatAdvantageStandardError: number;
  readonly converged: boolean;
  readonly heldOut: HeldOutCheck;
  readonly matchups: MatchupsResult;
}

export interface WholeUnitOptions extends Omit<MatchupOptions, 'seating'> {
  readonly tolerance?: Tolerance;
}

/** Fewest units whose prices can be read off a line through the others. */
export const MIN_WHOLE_UNITS = 6;
/** Folds of the held-out check: each pairing is predicted by a fit without its fold. */
const HELD_OUT_FOLDS = 10;
const WORST_SHOWN = 3;

/**
 * An outcome as counts for the paired-comparison fit. One run: its wins, draws and losses. A mix of
 * situations: its probabilities times Kish's effective number of games, 1 / Σ(wᵢ²/nᵢ) — the number
 * of games a single sample as precise as the weighted mix would have.
 */
function countsOf(outcome: Outcome, shares?: readonly number[], trials?: readonly number[]): { wins: number; draws: number; losses: number } {
  const games = shares === undefined || trials === undefined ? outcome.trials : 1 / shares.reduce((sum, share, i) => sum + (share * share) / (trials[i] as number), 0);
  const exact = shares === undefined;
  const count = (p: number) => (exact ? Math.round(p * games) : p * games);
  return { wins: count(outcome.win.value), draws: count(outcome.draw.value), losses: count(outcome.loss.value) };
}

type Cell = MatchupsResult['cells'][number];

/** Each ordered run once — the row seated first against the column — as counts; mirrors (a unit against itself) carry no information. */
function pairingsOf(result: MatchupsResult, index: ReadonlyMap<string, number>, pick: (cell: Cell) => { outcome: Outcome | undefined; shares?: readonly number[]; trials?: readonly number[] }): PairingCounts[] {
  return result.cells.flatMap((cell) => {
    const { outcome, shares, trials } = pick(cell);
    if (cell.row === cell.column || outcome === undefined) return [];
    const { wins, draws, losses } = countsOf(outcome, shares, trials);
    return [{ first: index.get(cell.row) as number, second: index.get(cell.column) as number, firstWins: wins, draws, secondWins: losses }];
  });
}

function fitOrExplain(roster: LoadedRoster, units: number, pairings: readonly PairingCounts[], what: string): DavidsonFit {
  try {
    return fitDavidson(units, pairings, { seatAdvantage: true });
  } catch (error) {
    if (error instanceof RangeError) throw new InputError([{ file: roster.file, path: 'entries', message: `the round robin${what} cannot be fitted: ${error.message}` }]);
    throw error;
  }
}

function regressOrExplain(roster: LoadedRoster, result: MatchupsResult, fit: DavidsonFit): PointsRegression {
  try {
    return regressStrengthOnPoints(result.entries.map((entry, i) => ({ id: entry.id, points: entry.points ?? 0, strength: fit.strength[i] ?? 0, standardError: fit.standardError[i] ?? 0 })));
  } catch (error) {
    if (error instanceof RangeError) throw new InputError([{ file: roster.file, path: 'entries', message: `strength cannot be set against points: ${error.message}` }]);
    throw error;
  }
}

/** An unordered pairing's fold: from the ids, so it does not depend on the order of the entries. */
function foldOf(a: string, b: string): number {
  const [low, high] = a < b ? [a, b] : [b, a];
  let hash = 2166136261;
  for (const character of `${low}\u0000${high}`) hash = Math.imul(hash ^ (character.codePointAt(0) as number), 16777619) >>> 0;
  return hash % HELD_OUT_FOLDS;
}

/**
 * K-fold cross-validation over unordered pairings: both seatings of a pairing held out together,
 * strengths refitted without them, and their combined expected score predicted from the refitted
 * strengths, draw tendency and seat advantage (davidsonExpectedScore).
 */
function heldOutCheck(roster: LoadedRoster, result: MatchupsResult, index: ReadonlyMap<string, number>, pick: Parameters<typeof pairingsOf>[2]): { check: HeldOutCheck; byUnit: Map<string, number> } {
  const pairs = result.cells.filter((cell) => cell.row < cell.column);
  const errors: { row: string; column: string; predicted: number; played: number; variance: number }[] = [];
  for (let fold = 0; fold < HELD_OUT_FOLDS; fold++) {
    const held = pairs.filter((cell) => foldOf(cell.row, cell.column) === fold);
    if (held.length === 0) continue;
    const out = new Set(held.map((cell) => `${cell.row}\u0000${cell.column}`));
    const kept = { ...result, cells: result.cells.filter((cell) => !out.has(cell.row < cell.column ? `${cell.row}\u0000${cell.column}` : `${cell.column}\u0000${cell.row}`)) };
    const fit = fitOrExplain(roster, result.entries.length, pairingsOf(kept, index, pick), ' without some pairings (held-out check)');
    for (const cell of held) {
      const predicted = davidsonExpectedScore(fit, index.get(cell.row) as number, index.get(cell.column) as number);
      errors.push({ row: cell.row, column: cell.column, predicted, played: cell.combined.score.value, variance: cell.combined.scoreVariance / cell.combined.trials });
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

const lineOf = (regression: PointsRegression, situation?: string): WholeLine => {
  const { units: _units, ...line } = regression;
  return situation === undefined ? line : { ...line, situation };
};

/** Can a price be read off the line for this unit: does its interval bound it at all? */
const priced = (unit: UnitPrice | undefined): unit is UnitPrice => unit !== undefined && Number.isFinite(unit.deservedCost) && unit.deservedInterval.high < Infinity;

const situationPrice = (situation: { name: string; share: number }, unit: UnitPrice | undefined): SituationPrice => ({
  situation: situation.name,
  share: situation.share,
  ...(priced(unit) ? { deserved: unit.deservedCost, interval: unit.deservedInterval } : {}),
});

/** Why a unit has no price, in words (each unit is priced by the line through the others: analysis/points-regression.ts). */
const NO_PRICE = "no price: the cost line through the other units is not determined (its slope could be 0, given the noise and their scatter about it) — add units, or costs further apart";

export async function wholeUnitCosts(roster: LoadedRoster, options: WholeUnitOptions = {}): Promise<WholeUnitCosts> {
  const entries = options.only === undefined ? roster.roster.entries : roster.roster.entries.filter((entry) => options.only?.includes(entry.id));
  const missing = entries.flatMap((entry, index) => (entry.cost === undefined ? [{ file: roster.file, path: `entries[${index}].cost`, message: `${entry.id} has no cost: pricing needs every entry's published points` }] : []));
  if (missing.length > 0) throw new InputError(missing);
  if (entries.length < MIN_WHOLE_UNITS) throw new InputError([{ file: roster.file, path: 'entries', message: `pricing whole units from a round robin needs at least ${MIN_WHOLE_UNITS} entries at 3 or more different points (each is priced by a line through the others), found ${entries.length}` }]);
  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE;
  const result = await matchups(roster, { ...options, seating: 'both' });
  const index = new Map(result.entries.map((entry, i) => [entry.id, i]));
  const shares = roster.situations.map((situation) => situation.share);
  const several = roster.situations.length > 1;
  // The mix: each ordered run's first-seat outcome over the situations, as Kish's effective games.
  const mixed = (cell: Cell) => (several ? { outcome: cell.first, shares, trials: (cell.situations ?? []).map((entry) => entry.first?.trials ?? 1) } : { outcome: cell.first });
  const fit = fitOrExplain(roster, result.entries.length, pairingsOf(result, index, mixed), '');
  const regression = regressOrExplain(roster, result, fit);
  const bySituation = several
    ? roster.situations.map((situation, s) => {
        const own = (cell: Cell): { outcome: Outcome | undefined } => ({ outcome: (cell.situations?.[s] as SeatingOutcomes | undefined)?.first });
        const situationFit = fitOrExplain(roster, result.entries.length, pairingsOf(result, index, own), ` in situation ${JSON.stringify(situation.name)}`);
        return { situation, regression: regressOrExplain(roster, result, situationFit) };
      })
    : [];
  const { check, byUnit } = heldOutCheck(roster, result, index, mixed);
  const units = regression.units.map((unit, i): WholeUnitPrice => {
    const entry = result.entries[i];
    const situations = several ? bySituation.map(({ situation, regression: own }) => situationPrice(situation, own.units[i])) : undefined;
    const row = priceRow({ id: unit.id, name: entry?.name ?? unit.id, published: unit.points }, priced(unit) ? unit.deservedCost : undefined, priced(unit) ? unit.deservedInterval : undefined, tolerance, situations);
    return {
      ...row,
      ...(priced(unit) ? {} : { problem: NO_PRICE }),
      points: unit.points,
      strength: unit.strength,
      strengthStandardError: unit.standardError,
      ...(unit.unusual === undefined ? {} : { unusual: unit.unusual }),
      lineWeight: unit.weight,
      ...(byUnit.has(unit.id) ? { heldOutError: byUnit.get(unit.id) } : {}),
    };
  });
  return {
    units,
    tolerance,
    regression: lineOf(regression),
    ...(several ? { situationLines: bySituation.map(({ situation, regression: own }) => lineOf(own, situation.name)) } : {}),
    drawParameter: fit.drawParameter,
    drawInterval: fit.drawInterval,
    seatAdvantage: fit.seatAdvantage,
    seatAdvantageStandardError: fit.seatAdvantageStandardError,
    converged: fit.converged,
    heldOut: check,
    matchups: result,
  };
}
