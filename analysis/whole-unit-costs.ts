import { InputError } from '../input/errors.js';
import { type DavidsonFit, fitDavidson, type PairingCounts } from '../statistics/davidson.js';
import { type HeldOutCheck, heldOutCheck } from './held-out-check.js';
import type { Interval } from '../statistics/intervals.js';
import { type MatchupOptions, matchups, type MatchupsResult, type SeatingOutcomes } from './matchups.js';
import type { Outcome } from '../statistics/outcome.js';
import { type PointsRegression, regressStrengthOnPoints, type UnitPrice } from '../statistics/points-regression.js';
import { type PriceRow, priceRow, type SituationPrice } from './price-list.js';
import { DEFAULT_TOLERANCE, type Tolerance } from './price-verdict.js';
import type { LoadedRoster } from '../input/roster.js';

/**
 * Prices where units are fielded whole (`fielded: whole`: Warmaster's units come at the size and
 * points their army list gives). Counts cannot be varied, so the roster plays a round robin at
 * published points (every entry against every entry, both seatings, every situation:
 * analysis/matchups.ts); a paired-comparison model — Bradley–Terry with draws (Davidson 1970) and a
 * first-seat advantage — turns the wins, draws and losses into one strength per unit; and the
 * list's cost-to-strength line, fitted robustly to the other units, gives each unit the cost it
 * deserves, with an interval that counts the simulation noise and the line's uncertainty
 * (statistics/points-regression.ts). With several situations, the strengths come from the mix of
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
const MIN_WHOLE_UNITS = 6;

/**
 * An outcome as counts for the paired-comparison fit. One run: its wins, draws and losses. A mix of
 * situations: its probabilities times Kish's effective number of games, 1 / Σ(wᵢ²/nᵢ) — the number
 * of games a single sample as precise as the weighted mix would have.
 */
function countsOf(
  outcome: Outcome,
  shares?: readonly number[],
  trials?: readonly number[],
): { wins: number; draws: number; losses: number } {
  const games =
    shares === undefined || trials === undefined
      ? outcome.trials
      : 1 / shares.reduce((sum, share, i) => sum + (share * share) / (trials[i] as number), 0);
  const exact = shares === undefined;
  const count = (p: number) => (exact ? Math.round(p * games) : p * games);
  return { wins: count(outcome.win.value), draws: count(outcome.draw.value), losses: count(outcome.loss.value) };
}

type Cell = MatchupsResult['cells'][number];

/** Each ordered run once — the row seated first against the column — as counts; mirrors (a unit against itself) carry no information. */
function pairingsOf(
  cells: readonly Cell[],
  index: ReadonlyMap<string, number>,
  pick: (cell: Cell) => { outcome: Outcome | undefined; shares?: readonly number[]; trials?: readonly number[] },
): PairingCounts[] {
  return cells.flatMap((cell) => {
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
    if (error instanceof RangeError)
      throw new InputError([{ file: roster.file, path: 'entries', message: `the round robin${what} cannot be fitted: ${error.message}` }]);
    throw error;
  }
}

function regressOrExplain(roster: LoadedRoster, result: MatchupsResult, fit: DavidsonFit): PointsRegression {
  try {
    return regressStrengthOnPoints(
      result.entries.map((entry, i) => ({
        id: entry.id,
        points: entry.points ?? 0,
        strength: fit.strength[i] ?? 0,
        standardError: fit.standardError[i] ?? 0,
      })),
    );
  } catch (error) {
    if (error instanceof RangeError)
      throw new InputError([{ file: roster.file, path: 'entries', message: `strength cannot be set against points: ${error.message}` }]);
    throw error;
  }
}

const lineOf = (regression: PointsRegression, situation?: string): WholeLine => {
  const { units: _units, ...line } = regression;
  return situation === undefined ? line : { ...line, situation };
};

/** Can a price be read off the line for this unit: does its interval bound it at all? */
const priced = (unit: UnitPrice | undefined): unit is UnitPrice =>
  unit !== undefined && Number.isFinite(unit.deservedCost) && unit.deservedInterval.high < Infinity;

const situationPrice = (situation: { name: string; share: number }, unit: UnitPrice | undefined): SituationPrice => ({
  situation: situation.name,
  share: situation.share,
  ...(priced(unit) ? { deserved: unit.deservedCost, interval: unit.deservedInterval } : {}),
});

/** Why a unit has no price, in words (each unit is priced by the line through the others: statistics/points-regression.ts). */
const NO_PRICE =
  'no price: the cost line through the other units is not determined (its slope could be 0, given the noise and their scatter about it) — add units, or costs further apart';

export async function wholeUnitCosts(roster: LoadedRoster, options: WholeUnitOptions = {}): Promise<WholeUnitCosts> {
  const entries =
    options.only === undefined ? roster.roster.entries : roster.roster.entries.filter((entry) => options.only?.includes(entry.id));
  const missing = entries.flatMap((entry, index) =>
    entry.cost === undefined
      ? [
          {
            file: roster.file,
            path: `entries[${index}].cost`,
            message: `${entry.id} has no cost: pricing needs every entry's published points`,
          },
        ]
      : [],
  );
  if (missing.length > 0) throw new InputError(missing);
  // Refused before the round robin is played, not after (the cost line needs both: statistics/points-regression.ts).
  const costs = new Set(entries.map((entry) => entry.cost)).size;
  if (entries.length < MIN_WHOLE_UNITS || costs < 3)
    throw new InputError([
      {
        file: roster.file,
        path: 'entries',
        message: `pricing whole units from a round robin needs at least ${MIN_WHOLE_UNITS} entries at 3 or more different points (each is priced by a line through the others), found ${entries.length} at ${costs}`,
      },
    ]);
  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE;
  const result = await matchups(roster, { ...options, seating: 'both' });
  const index = new Map(result.entries.map((entry, i) => [entry.id, i]));
  const shares = roster.situations.map((situation) => situation.share);
  const several = roster.situations.length > 1;
  // The mix: each ordered run's first-seat outcome over the situations, as Kish's effective games.
  const mixed = (cell: Cell) =>
    several
      ? { outcome: cell.first, shares, trials: (cell.situations ?? []).map((entry) => entry.first?.trials ?? 1) }
      : { outcome: cell.first };
  const fit = fitOrExplain(roster, result.entries.length, pairingsOf(result.cells, index, mixed), '');
  const regression = regressOrExplain(roster, result, fit);
  const bySituation = several
    ? roster.situations.map((situation, s) => {
        const own = (cell: Cell): { outcome: Outcome | undefined } => ({
          outcome: (cell.situations?.[s] as SeatingOutcomes | undefined)?.first,
        });
        const situationFit = fitOrExplain(
          roster,
          result.entries.length,
          pairingsOf(result.cells, index, own),
          ` in situation ${JSON.stringify(situation.name)}`,
        );
        return { situation, regression: regressOrExplain(roster, result, situationFit) };
      })
    : [];
  const { check, byUnit } = heldOutCheck(result, (kept) =>
    fitOrExplain(roster, result.entries.length, pairingsOf(kept, index, mixed), ' without some pairings (held-out check)'),
  );
  const units = regression.units.map((unit, i): WholeUnitPrice => {
    const entry = result.entries[i];
    const situations = several ? bySituation.map(({ situation, regression: own }) => situationPrice(situation, own.units[i])) : undefined;
    const row = priceRow(
      { id: unit.id, name: entry?.name ?? unit.id, published: unit.points },
      priced(unit) ? unit.deservedCost : undefined,
      priced(unit) ? unit.deservedInterval : undefined,
      tolerance,
      situations,
    );
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
