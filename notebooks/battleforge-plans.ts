/**
 * Battle Forge: which plan should 10 Bowmen follow against 10 charging Orc Warriors, and which plan
 * should the Orcs? Every Bowmen plan against every Orc plan, six rounds from 24". A game can end with
 * neither side beaten, so each pairing is scored as win + ½ draw (the expected score), and the plan
 * to pick is the one whose worst case over the opponent's plans is best (the maximin).
 * Run: npx tsx notebooks/battleforge-plans.ts
 */
import { capitalized, loadScenarioFile, type Outcome, outcomeOf, sweep, words } from '../index.js';
import { estimateText, heatmapChart, writePage } from '../reports.js';
import { bundled, fieldWords, optionsOf, reportsDirectory, sampled, sweepProvenance, withPool } from './lib.js';

const FILE = bundled('battleforge/scenarios/bowmen-hold-vs-orc-charge.yaml');
const BOWMEN_PLANS = ['shoot-and-hold', 'focus-then-shoot', 'move-and-shoot', 'evade-and-shoot', 'hold-for-overwatch', 'charge-and-fight'];
const ORC_PLANS = ['charge-and-fight', 'shoot-then-charge', 'hold-for-overwatch'];
const TRIALS = 20_000;
/** The win metric's labels: the scenario's side names. */
const BOWMEN = 'Human Kingdoms';
const ORCS = 'Orcs';

const planName = (plan: string): string => capitalized(words(plan));

interface Pairing {
  readonly bowmen: string;
  readonly orcs: string;
  readonly outcome: Outcome;
}

/** The lowest expected score a Bowmen plan gets over the Orc plans, and against which. */
function worstCase(pairings: readonly Pairing[], plan: string): Pairing {
  const mine = pairings.filter((pairing) => pairing.bowmen === plan);
  return mine.reduce((worst, pairing) => (pairing.outcome.score.value < worst.outcome.score.value ? pairing : worst));
}

/** The highest expected score the Bowmen reach against an Orc plan, and with which plan. */
function bestAgainst(pairings: readonly Pairing[], orcPlan: string): Pairing {
  const theirs = pairings.filter((pairing) => pairing.orcs === orcPlan);
  return theirs.reduce((best, pairing) => (pairing.outcome.score.value > best.outcome.score.value ? pairing : best));
}

export async function battleforgePlans(outDirectory = reportsDirectory): Promise<string> {
  const axes = [
    { path: 'sides[0].plan', values: BOWMEN_PLANS },
    { path: 'sides[1].plan', values: ORC_PLANS },
  ] as const;
  const points = await withPool((pool) => sweep(FILE, axes, { trials: TRIALS, executor: pool }));
  const loaded = await loadScenarioFile(FILE);
  const pairings: Pairing[] = points.map((point) => ({
    bowmen: String(point.values[0]),
    orcs: String(point.values[1]),
    outcome: outcomeOf(sampled(point), loaded, 'winner', BOWMEN, ORCS),
  }));

  // The Bowmen's maximin: the plan whose worst case over the Orc plans is best.
  const worst = BOWMEN_PLANS.map((plan) => worstCase(pairings, plan));
  const [maximin, runnerUp] = [...worst].sort((a, b) => b.outcome.score.value - a.outcome.score.value);
  // The Orcs' side of it: their best answer to that plan, and their own minimax (the Orc plan that holds the Bowmen's best lowest).
  const answer = worstCase(pairings, maximin?.bowmen ?? '');
  const orcMinimax = ORC_PLANS.map((plan) => bestAgainst(pairings, plan)).sort((a, b) => a.outcome.score.value - b.outcome.score.value)[0];
  // Two Orc plans that give the same games against every Bowmen plan (same dice, same choices) are one plan here.
  const identical = (a: string, b: string) =>
    BOWMEN_PLANS.every((plan) => {
      const [x, y] = [a, b].map((orcs) => pairings.find((pairing) => pairing.bowmen === plan && pairing.orcs === orcs)?.outcome);
      return x !== undefined && y !== undefined && x.win.value === y.win.value && x.draw.value === y.draw.value;
    });
  const twinNote = ORC_PLANS.flatMap((plan, i) =>
    ORC_PLANS.slice(i + 1)
      .filter((other) => identical(plan, other))
      .map(
        (other) =>
          `${planName(other)} gives exactly the same games as ${planName(plan)}: these Orc Warriors carry no missile weapon, so it has nothing to shoot with and charges the same way, on the same dice.`,
      ),
  );
  const clear =
    maximin !== undefined && runnerUp !== undefined && maximin.outcome.score.interval.low > runnerUp.outcome.score.interval.high;
  const headline =
    maximin === undefined || runnerUp === undefined || orcMinimax === undefined
      ? ''
      : [
          `The Bowmen's safest plan is ${planName(maximin.bowmen)}: whatever the Orcs do, its expected score is at least ${estimateText(maximin.outcome.score)} (its worst case, against ${planName(maximin.orcs)}). ` +
            (clear
              ? `The next best worst case, ${planName(runnerUp.bowmen)}'s, is ${estimateText(runnerUp.outcome.score)}.`
              : `${planName(runnerUp.bowmen)} comes within the noise of it (worst case ${estimateText(runnerUp.outcome.score)}): either will do.`),
          [
            `The Orcs' best plan is ${planName(orcMinimax.orcs)}: the Bowmen's best reply to it, ${planName(orcMinimax.bowmen)}, scores ${estimateText(orcMinimax.outcome.score)}, no more than against any other Orc plan.`,
            answer.orcs === orcMinimax.orcs
              ? ''
              : ` Against ${planName(maximin.bowmen)} in particular, their best answer is ${planName(answer.orcs)} (${estimateText(answer.outcome.score)}).`,
            // The same cell is the Bowmen's maximin and the Orcs' minimax: a saddle point.
            answer.orcs === orcMinimax.orcs && orcMinimax.bowmen === maximin.bowmen
              ? ` So ${planName(maximin.bowmen)} against ${planName(orcMinimax.orcs)} is a stable pair: neither side does better by changing plan alone.`
              : '',
          ].join(''),
          ...twinNote,
          'Expected score = P(win) + ½ P(draw): a side wins when the other has no unit left that is neither destroyed nor broken after six rounds; anything else is a draw. 50% is an even game. Hover a cell for win, draw and loss.',
        ].join('\n\n');
  const rows = BOWMEN_PLANS.map(planName);
  const columns = ORC_PLANS.map(planName);
  const outcomeOfPair = (bowmen: string, orcs: string) =>
    pairings.find((pairing) => pairing.bowmen === bowmen && pairing.orcs === orcs)?.outcome;
  return writePage(
    {
      slug: 'battleforge-plans',
      title: 'Battle Forge plans against each other',
      question: 'Bowmen against charging Orc Warriors: which plan does best whatever the Orcs do, and how should the Orcs answer?',
      sections: [
        {
          heading: "The Bowmen's expected score, Bowmen plan (rows) against Orc plan (columns)",
          text: headline,
          chart: heatmapChart(
            pairings.map((pairing) => ({ row: planName(pairing.bowmen), column: planName(pairing.orcs), combined: pairing.outcome })),
            {
              id: 'battleforge-plans-heatmap',
              title: "The Bowmen's expected score by plan",
              rowTitle: 'Bowmen plan',
              columnTitle: 'Orc plan',
              rows,
              columns,
            },
          ),
          table: {
            columns: ['Bowmen plan', ...columns.map((name) => `against ${name}`), 'worst case'],
            rows: BOWMEN_PLANS.map((plan, i) => [
              planName(plan),
              ...ORC_PLANS.map((orcs) => {
                const outcome = outcomeOfPair(plan, orcs);
                return outcome === undefined ? '' : estimateText(outcome.score);
              }),
              estimateText((worst[i] as Pairing).outcome.score),
            ]),
          },
        },
        {
          heading: 'Win, draw and loss for the Bowmen',
          text: 'The same games, each end counted: a draw is six rounds with both sides still standing.',
          table: {
            columns: ['Bowmen plan', 'Orc plan', 'win', 'draw', 'loss', 'expected score'],
            rows: pairings.map((pairing) => [
              planName(pairing.bowmen),
              planName(pairing.orcs),
              estimateText(pairing.outcome.win),
              estimateText(pairing.outcome.draw),
              estimateText(pairing.outcome.loss),
              estimateText(pairing.outcome.score),
            ]),
          },
        },
      ],
      provenance: sweepProvenance(
        points,
        `each of the ${points.length} pairings of a Bowmen plan (${fieldWords(loaded, 'sides[0].plan')}) and an Orc plan (${fieldWords(loaded, 'sides[1].plan')})`,
      ),
      methods: [
        `Each of the ${pairings.length} pairings: the scenario with the two sides' plans set (sides[0].plan, sides[1].plan), ${TRIALS.toLocaleString('en-US')} trials, the same seed.`,
        'Intervals are 95%: Wilson score intervals for win, draw and loss; for the expected score, Wilson\'s at the effective number of trials its variance allows. "62% ±1" is the estimate and the wider side of its interval in points.',
        'Battle Forge rulings §19–25; plans as engine/battleforge/README.md describes them; the Orc side rallies at 2 Shock.',
        ...optionsOf(loaded),
      ],
    },
    outDirectory,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await battleforgePlans());
