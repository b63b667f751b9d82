/**
 * Warmaster: what should the troop units of eight army lists cost, fighting one another? Units come
 * whole, at their list points, so every unit meets every other in a round robin — one charging the
 * other, in the open, against a defended unit, against a supported unit and into missile fire, both
 * seatings (each unit charges and is charged) — weighted by how often each fight happens. A
 * Bradley–Terry model with draws turns the results into one strength per unit; the lists' cost line
 * (strength against ln points, fitted robustly) gives each unit the cost it deserves, with an
 * interval for the simulation noise and the line's uncertainty; pairings held out of the fit check
 * the model (analysis/whole-unit-costs.ts, docs/statistics.md).
 * The same as `crucible balance --against data/warmaster/rosters/eight-armies.yaml -p 0.03`.
 * Run: npx tsx notebooks/warmaster-costs.ts
 */
import { costText, loadRoster, medianIntervalWidth, verdictCounts, wholeBalanceDocument, wholeUnitCosts } from '../index.js';
import { balancePage, writePage } from '../reports.js';
import { bundled, reportsDirectory, shownPath, withPool } from './lib.js';

const ROSTER = bundled('warmaster/rosters/eight-armies.yaml');
/** ±3 points on every score: the strengths' noise (±0.01 log-odds) is then far below the units' scatter about the cost line (~1 log-odds), which sizes the intervals. */
const PRECISION = 0.03;

export async function warmasterCosts(outDirectory = reportsDirectory): Promise<string> {
  const roster = await loadRoster(ROSTER);
  const costs = await withPool((pool) => wholeUnitCosts(roster, { executor: pool, precision: PRECISION }));
  const document = wholeBalanceDocument({ roster: roster.roster.name, file: shownPath(ROSTER) }, costs);
  const page = balancePage(document, { slug: 'warmaster-costs', title: 'Warmaster troop units: a price list over eight armies' });
  const counts = verdictCounts(document);
  const width = medianIntervalWidth(document);
  const infantry = document.units.filter((unit) => unit.verdict === 'under-costed').length;
  const dearest = [...document.units].sort((a, b) => (b.changePercent ?? 0) - (a.changePercent ?? 0));
  const [most, least] = [dearest[0], dearest.at(-1)];
  const finding = [
    `Of ${document.units.length} units, ${counts['under-costed']} are under-costed and ${counts['over-costed']} over-costed by more than the tolerance, ${counts.uncertain} uncertain and ${counts.fair} fair. The median interval spans ${width?.toFixed(0) ?? '—'}% of the proposed cost: the list's cost line is known well enough to act on where a unit is far off it.`,
    most === undefined || least === undefined
      ? ''
      : `The largest changes: ${most.name} ${most.published} → ${costText(most.deserved ?? Number.NaN)}, ${least.name} ${least.published} → ${costText(least.deserved ?? Number.NaN)}.`,
    `Read these as prices for the fights played here, one unit against one: solid infantry gains most (${infantry} units under-costed, nearly all of them infantry or monsters), fast cavalry and flyers lose most. Points also pay for what a one-on-one charge does not test — speed, manoeuvre, shooting at range, support of other units — so a unit far off this list may be priced for those; the "By situation" table shows how much each fight moves a unit's price, and the model check how far a pairing strays from what the strengths predict.`,
  ].filter((paragraph) => paragraph !== '');
  return writePage(
    {
      ...page,
      question:
        'What should the troop units of the Empire, Orcs, Dwarfs, High Elves, Bretonnia, Chaos, Skaven and Vampire Counts cost, fighting one another unit against unit?',
      sections: [{ heading: 'What the round robin says', text: finding.join('\n\n') }, ...page.sections],
      methods: [
        ...page.methods,
        "Warmaster rulings §12–18 (engine/warmaster/README.md). Each pairing: the first side's unit charges the front of the second's, three stands in contact, both pursuing whenever allowed, fought to its end; played with each unit charging and being charged, in each of the roster's situations.",
      ],
    },
    outDirectory,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await warmasterCosts());
