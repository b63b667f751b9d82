import { describe, expect, it } from 'vitest';
import { CHECK_TOLERANCE, replayCheck } from '../../analysis/count-costs.js';
import { type CountPriceInput, solvePrices } from '../../analysis/count-prices.js';
import { trialsPerSeat } from '../../analysis/matchups.js';
import { binomialBand } from '../helpers/calibration.js';
import { type SyntheticGame, SyntheticCells } from '../helpers/synthetic-cells.js';

/**
 * The check of a price list bought by count (analysis/count-costs.ts, replayCheck) in a game of
 * known truth: the "linear" game of test/analysis/count-prices.test.ts, a unit's score ½ + (a·wᵤ −
 * b·wᵥ)/B for a models worth wᵤ against b worth wᵥ, so its true score against the list at average
 * counts κ is ½ + (κᵤwᵤ − mean of κᵥwᵥ over the others)/B, exactly (it is linear in the counts).
 * A designer reads a pass as "these prices make every unit even within ±2 points" and a miss as
 * "this one does not". So, at each precision a designer can choose (the workbench's three):
 *
 * - calibration: a unit whose price is right to within 2 points (its true score there) is called
 *   a miss at most 2.5% of the time — the replay's noise alone does not fail a right price;
 * - power: a unit whose proposed price is moved until its true score is 2 points plus 3.6 of the
 *   replay's standard errors from ½ (what its 95% allowance and a 95% power need) is caught 95% of
 *   the time: the finer the precision, the smaller the error the check catches.
 */

const BUDGET = 100;
const MAX_COUNT = 60;
const PUBLISHED = [6, 8, 9, 10, 12, 15, 18, 20];
/** Two units mispriced, +40% and −30% worth: the list's prices move, the rest stay. */
const WORTH = PUBLISHED.map((p, u) => p * (u === 1 ? 1.4 : u === 4 ? 0.7 : 1));
const LISTS = 100;
const PRECISIONS = [0.05, 0.02, 0.01] as const;

const linearGame = (seed: number, precision: number): SyntheticGame => ({
  types: WORTH.map((_, u) => `type-${u}`),
  truth: (_s, u, a, v, b) => Math.min(0.98, Math.max(0.02, 0.5 + (a * (WORTH[u] as number) - b * (WORTH[v] as number)) / BUDGET)),
  // The search at 3× the precision, the answer and the replay at it, as crucible balance -p runs them.
  trials: { coarse: trialsPerSeat(Math.min(0.45, precision * 3), 'both'), fine: trialsPerSeat(precision, 'both') },
  seed,
});

const input: CountPriceInput = { budget: BUDGET, published: PUBLISHED, free: PUBLISHED.map(() => true), maxCount: MAX_COUNT };

/** Unit u's true score against the list at counts κ, from the game's definition. */
function trueScore(kappa: readonly number[], u: number): number {
  const others = kappa.flatMap((k, v) => (v === u ? [] : [k * (WORTH[v] as number)]));
  return 0.5 + ((kappa[u] as number) * (WORTH[u] as number) - others.reduce((sum, value) => sum + value, 0) / others.length) / BUDGET;
}

describe('the check of a price list bought by count, in a game of known truth', () => {
  it.each(PRECISIONS)(
    'at ±%s: a right price is called a miss at most 2.5% of the time; a price off by 2 points and 3.6 replay errors is caught 95% of the time',
    async (precision) => {
      let right = 0;
      let falseMisses = 0;
      let wrong = 0;
      let caught = 0;
      for (let list = 0; list < LISTS; list++) {
        const solution = await solvePrices(new SyntheticCells(linearGame(20261128 + list, precision)), input);
        // The replay's own dice: cells seeded apart from the ones the prices came from.
        const replays = await replayCheck(
          new SyntheticCells(linearGame(90261128 + list, precision)),
          solution.kappa,
          input.free,
          MAX_COUNT,
        );
        replays.forEach((replay, u) => {
          if (replay === undefined || Math.abs(trueScore(solution.kappa, u) - 0.5) > CHECK_TOLERANCE) return;
          right++;
          if (!replay.pass) falseMisses++;
        });
        // One unit's price moved (its models with it) until its true score is off by the error the check must catch.
        const u = list % PUBLISHED.length;
        const noise = Math.sqrt(replays[u]?.variance ?? Number.NaN);
        const off = CHECK_TOLERANCE + 3.6 * noise;
        const others = solution.kappa.flatMap((k, v) => (v === u ? [] : [k * (WORTH[v] as number)]));
        const direction = list % 2 === 0 ? 1 : -1;
        const moved = solution.kappa.map((k, v) =>
          v === u ? (others.reduce((sum, value) => sum + value, 0) / others.length + direction * off * BUDGET) / (WORTH[u] as number) : k,
        );
        expect(trueScore(moved, u) - 0.5).toBeCloseTo(direction * off, 9);
        const [movedReplay] = (
          await replayCheck(
            new SyntheticCells(linearGame(70261128 + list, precision)),
            moved,
            input.free.map((_, v) => v === u),
            MAX_COUNT,
          )
        ).filter((entry) => entry !== undefined);
        wrong++;
        if (movedReplay?.pass === false) caught++;
      }
      if (process.env.CRUCIBLE_REPORT_RATES !== undefined)
        console.log(`±${precision}: right prices called a miss ${falseMisses} of ${right}; wrong ones caught ${caught} of ${wrong}`);
      expect(right).toBeGreaterThan(LISTS * PUBLISHED.length * 0.9);
      expect(falseMisses, `right prices called a miss ${falseMisses} of ${right}`).toBeLessThanOrEqual(binomialBand(right, 0.025).high);
      expect(caught, `wrong prices caught ${caught} of ${wrong}`).toBeGreaterThanOrEqual(binomialBand(wrong, 0.95).low);
    },
  );
});
