/**
 * Warmaster: which troop units of four armies are over- or under-costed in their army lists? Units
 * come whole, at their list points, so every unit meets every other in a round robin (one charging
 * the other in the open, both seatings: each unit charges and is charged). A Bradley–Terry model
 * with draws turns the results into one strength per unit; strength is regressed on ln(points); a
 * unit is called over- or under-costed only when its strength lies outside the 95% prediction
 * interval of the line fitted to the others (analysis/whole-unit-costs.ts, docs/statistics.md).
 * The same as `crucible balance --all --against data/warmaster/rosters/four-armies.yaml -p 0.03`.
 * Run: npx tsx notebooks/warmaster-costs.ts
 */
import { wholeBalanceDocument } from '../analysis/balance-document.js';
import { loadRoster } from '../analysis/roster.js';
import { wholeUnitCosts } from '../analysis/whole-unit-costs.js';
import { balancePage } from '../reports/balance-page.js';
import { writePage } from '../reports/page.js';
import { fromRepository, reportsDirectory, withPool } from './lib.js';

const ROSTER = 'data/warmaster/rosters/four-armies.yaml';
/** ±3 points on every score: the strengths' noise (±0.04 log-odds) is then far below the units' scatter about the line (~1 log-odds). */
const PRECISION = 0.03;

export async function warmasterCosts(outDirectory = reportsDirectory): Promise<string> {
  const roster = await loadRoster(fromRepository(ROSTER));
  const costs = await withPool((pool) => wholeUnitCosts(roster, { executor: pool, precision: PRECISION }));
  const document = wholeBalanceDocument(
    { roster: roster.roster.name, file: ROSTER, ruleset: costs.matchups.ruleset, engineVersion: costs.matchups.engineVersion, seed: costs.matchups.seed, precision: costs.matchups.precision, seating: 'both' },
    costs,
  );
  const flagged = costs.units.filter((unit) => unit.verdict !== 'fair');
  const page = balancePage(document, { slug: 'warmaster-costs', title: 'Warmaster units over- and under-costed by army' });
  const finding =
    flagged.length === 0
      ? `No unit lies outside the 95% prediction interval: units scatter about the points line by ${costs.regression.residualSd.toFixed(1)} log-odds — far more than simulation noise (±${(1.96 * Math.max(...costs.units.map((unit) => unit.strengthStandardError))).toFixed(2)}) — so on this yardstick alone (one unit charging another in the open) the lists' points cannot be called wrong for any single unit. Points also pay for what this fight does not test: shooting, manoeuvre, special rules.`
      : `Outside the 95% prediction interval: ${flagged.map((unit) => `${unit.name} (${unit.verdict}, ${unit.points} points, fitted ${unit.fittedCost.toFixed(0)})`).join('; ')}. The others scatter about the points line by ${costs.regression.residualSd.toFixed(1)} log-odds; points also pay for what this fight does not test (shooting, manoeuvre, special rules).`;
  return writePage(
    {
      ...page,
      question: 'Which troop units of the Empire, Orcs, Dwarfs and High Elves pay more (or less) than they fight for, one unit against another in the open?',
      sections: [{ heading: 'What the round robin says', text: finding }, ...page.sections],
      methods: [...(page.methods ?? []), 'Warmaster rulings §12–18 (engine/warmaster/README.md). Each pairing: the first side\'s unit charges the front of the second\'s in the open, three stands in contact, both pursuing whenever allowed, fought to its end; played with each unit charging and being charged.'],
    },
    outDirectory,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await warmasterCosts());
