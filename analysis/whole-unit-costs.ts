import { InputError } from '../sim/errors.js';
import { type DavidsonFit, fitDavidson, type PairingCounts } from './davidson.js';
import type { Interval } from './intervals.js';
import { type MatchupOptions, matchups, type MatchupsResult } from './matchups.js';
import type { Outcome } from './outcome.js';
import { type CostVerdict, type PointsRegression, regressStrengthOnPoints } from './points-regression.js';
import type { LoadedRoster } from './roster.js';

/**
 * Fitting costs where units are fielded whole (`fielded: whole`: Warmaster's units come at the
 * size and points their army list gives). Counts cannot be varied, so the roster plays a round
 * robin at published points (every entry against every entry, both seatings: analysis/matchups.ts);
 * a paired-comparison model — Bradley–Terry with draws (Davidson 1970) and a first-seat advantage,
 * by maximum likelihood — turns the wins, draws and losses into one strength per unit; strength is
 * regressed on ln(points), and a unit is called over- or under-costed only when its strength falls
 * outside the 95% prediction interval of the line fitted to the others (so how loosely units fit
 * the line counts, not only simulation noise). docs/statistics.md says more.
 */
export interface WholeUnitCost extends CostVerdict {
  readonly name: string;
  /** Its strength's standard error (the paired-comparison fit's). */
  readonly strengthStandardError: number;
}

export interface WholeUnitCosts {
  readonly units: readonly WholeUnitCost[];
  readonly regression: Omit<PointsRegression, 'units'>;
  readonly drawParameter: number;
  readonly drawInterval: Interval;
  readonly seatAdvantage: number;
  readonly seatAdvantageStandardError: number;
  readonly converged: boolean;
  readonly matchups: MatchupsResult;
}

/** Wins, draws and losses of a seated outcome, as counts (its probabilities are counts over trials). */
function countsOf(outcome: Outcome): { wins: number; draws: number; losses: number } {
  const n = outcome.trials;
  return { wins: Math.round(outcome.win.value * n), draws: Math.round(outcome.draw.value * n), losses: Math.round(outcome.loss.value * n) };
}

export async function wholeUnitCosts(roster: LoadedRoster, options: Omit<MatchupOptions, 'seating'> = {}): Promise<WholeUnitCosts> {
  const entries = options.only === undefined ? roster.roster.entries : roster.roster.entries.filter((entry) => options.only?.includes(entry.id));
  const missing = entries.flatMap((entry, index) => (entry.cost === undefined ? [{ file: roster.file, path: `entries[${index}].cost`, message: `${entry.id} has no cost: fitting costs needs every entry's published points` }] : []));
  if (missing.length > 0) throw new InputError(missing);
  if (entries.length < 4) throw new InputError([{ file: roster.file, path: 'entries', message: `fitting costs from a round robin needs at least 4 entries with different points (each is judged against the line through the others), found ${entries.length}` }]);
  const result = await matchups(roster, { ...options, seating: 'both' });
  const index = new Map(result.entries.map((entry, i) => [entry.id, i]));
  // Each ordered run once: the row seated first against the column (mirrors carry no information).
  const pairings: PairingCounts[] = result.cells.flatMap((cell) => {
    if (cell.row === cell.column || cell.first === undefined) return [];
    const { wins, draws, losses } = countsOf(cell.first);
    return [{ first: index.get(cell.row) as number, second: index.get(cell.column) as number, firstWins: wins, draws, secondWins: losses }];
  });
  let fit: DavidsonFit;
  try {
    fit = fitDavidson(result.entries.length, pairings, { seatAdvantage: true });
  } catch (error) {
    if (error instanceof RangeError) throw new InputError([{ file: roster.file, path: 'entries', message: `the round robin cannot be fitted: ${error.message}` }]);
    throw error;
  }
  let regression: PointsRegression;
  try {
    regression = regressStrengthOnPoints(result.entries.map((entry, i) => ({ id: entry.id, points: entry.points ?? 0, strength: fit.strength[i] ?? 0, standardError: fit.standardError[i] ?? 0 })));
  } catch (error) {
    if (error instanceof RangeError) throw new InputError([{ file: roster.file, path: 'entries', message: `strength cannot be regressed on points: ${error.message}` }]);
    throw error;
  }
  const { units, ...line } = regression;
  return {
    units: units.map((verdict, i) => ({ ...verdict, name: result.entries[i]?.name ?? verdict.id, strengthStandardError: fit.standardError[i] ?? 0 })),
    regression: line,
    drawParameter: fit.drawParameter,
    drawInterval: fit.drawInterval,
    seatAdvantage: fit.seatAdvantage,
    seatAdvantageStandardError: fit.seatAdvantageStandardError,
    converged: fit.converged,
    matchups: result,
  };
}
