/**
 * Heroic: is a formation worth it? Three Sylvan Knights attack an Ogre in formation (one pooled
 * Attack Action, one Shield roll for the Ogre) and one by one (each knight's own action and Shield
 * roll), on the same dice (common random numbers). Run: npx tsx notebooks/formations-vs-singly.ts
 */
import { compareVariants, exactScenario, loadScenarioChanged, runScenario } from '../index.js';
import {
  type DifferenceRow,
  differenceChart,
  differenceText,
  distributionChart,
  estimateText,
  exactPercentText,
  meanText,
  percentText,
  writePage,
} from '../reports.js';
import { bundled, optionsOf, provenanceOf, reportsDirectory, withPool } from './lib.js';

const FILE = bundled('heroic/scenarios/sylvan-knights-formation.yaml');
const TRIALS = 200_000;
const FORMATION = 'in formation';
const SINGLY = 'one by one';
/** The outcomes the page shows, in words (the metrics' own descriptions name groups by id). */
const SHOWN: readonly { readonly metric: string; readonly label: string }[] = [
  { metric: 'ogre.vanquished', label: 'Ogre vanquished' },
  { metric: 'ogre.woundsTaken', label: 'Wounds on the Ogre' },
];

export async function formationsVsSingly(outDirectory = reportsDirectory): Promise<string> {
  // The scenario as written is the formation (the baseline); the variant "singly" attacks one by one.
  const comparison = await compareVariants(FILE, undefined, 'singly', { trials: TRIALS });
  const formation = await loadScenarioChanged(FILE, {});
  const singly = await loadScenarioChanged(FILE, { variant: 'singly' });
  const [inFormation, oneByOne] = await withPool((pool) =>
    Promise.all([runScenario(formation, { trials: TRIALS, executor: pool }), runScenario(singly, { trials: TRIALS, executor: pool })]),
  );
  // What forming up gains: formation − one by one, the comparison's variant − baseline turned round.
  const rows: DifferenceRow[] = SHOWN.flatMap(({ metric, label }) => {
    const outcome = comparison.outcomes.find(
      (candidate) => candidate.metric === metric && (candidate.measure === 'mean' || candidate.label === 'yes'),
    );
    if (outcome === undefined) return [];
    return [
      {
        label,
        kind: outcome.measure === 'probability' ? 'chance' : 'mean',
        baseline: outcome.variant.mean,
        variant: outcome.baseline.mean,
        difference: -outcome.difference.mean,
        low: -outcome.difference.interval.high,
        high: -outcome.difference.interval.low,
        pValue: outcome.difference.pValue,
      },
    ];
  });
  const vanquished = rows[0];
  const vanquishedOutcome = comparison.outcomes.find((candidate) => candidate.metric === 'ogre.vanquished' && candidate.label === 'yes');
  const chanceText = (value: number, side: 'baseline' | 'variant') =>
    vanquishedOutcome === undefined ? percentText(value) : estimateText({ value, interval: vanquishedOutcome[side].interval });
  // Exact answers beside simulated ones get a decimal: 74.5% is not a disagreement with 74% ±0.2.
  // One Attack Action each way: both have an exact answer, the check on the simulated difference.
  const [exactFormation, exactSingly] = [formation, singly].map(
    (loaded) =>
      exactScenario(loaded)
        ?.summary.find((metric) => metric.name === 'ogre.vanquished')
        ?.distribution.find((entry) => entry.value === 1)?.probability,
  );
  const exactText =
    exactFormation === undefined || exactSingly === undefined
      ? ''
      : ` Exactly (every outcome enumerated): ${exactPercentText(exactFormation)} and ${exactPercentText(exactSingly)}, a difference of ${((exactFormation - exactSingly) * 100).toFixed(1)} points.`;
  const woundsOf = (result: typeof inFormation) => result.summary.find((metric) => metric.name === 'ogre.woundsTaken');
  const wounds = [woundsOf(inFormation), woundsOf(oneByOne)];
  return writePage(
    {
      slug: 'formations-vs-singly',
      title: 'Formations against single models',
      question: 'Three Sylvan Knights attack a shielded Ogre: in formation, or one by one?',
      sections: [
        {
          heading: 'What forming up changes, on the same dice',
          text:
            vanquished === undefined
              ? undefined
              : `In formation the Ogre is vanquished ${chanceText(vanquished.variant, 'baseline')} of the time, one by one ${chanceText(vanquished.baseline, 'variant')}: the Ogre rolls one Shield die against the pooled attack instead of one per knight. Each point is in formation minus one by one, with its 95% interval (${TRIALS.toLocaleString('en-US')} paired trials).${exactText}`,
          chart: differenceChart(rows, {
            id: 'formations-difference',
            title: 'In formation against one by one',
            baseline: SINGLY,
            variant: FORMATION,
            trialsNote: `${TRIALS.toLocaleString('en-US')} paired trials (the same dice for both)`,
          }),
        },
        ...wounds.flatMap((summary, i) =>
          summary === undefined
            ? []
            : [
                {
                  heading: i === 0 ? 'Wounds on the Ogre: in formation' : 'Wounds on the Ogre: one by one',
                  chart: distributionChart(summary, {
                    xTitle: 'Wounds on the Ogre',
                    id: `ogre-wounds-${i === 0 ? 'formation' : 'singly'}`,
                    title: i === 0 ? 'Wounds on the Ogre, knights in formation' : 'Wounds on the Ogre, knights one by one',
                  }),
                },
              ],
        ),
        {
          heading: 'Table',
          table: {
            columns: ['outcome', FORMATION, SINGLY, 'difference (95% interval)', 'p-value'],
            rows: rows.map((row) => {
              const outcome = comparison.outcomes.find(
                (candidate) => SHOWN.find((shown) => shown.label === row.label)?.metric === candidate.metric,
              );
              const shown = (value: number, interval: { low: number; high: number } | undefined) =>
                interval === undefined
                  ? row.kind === 'chance'
                    ? percentText(value)
                    : value.toFixed(2)
                  : row.kind === 'chance'
                    ? estimateText({ value, interval })
                    : meanText(value, interval);
              return [
                row.label,
                shown(row.variant, outcome?.baseline.interval),
                shown(row.baseline, outcome?.variant.interval),
                differenceText(row.difference, row, row.kind),
                row.pValue === undefined ? '' : row.pValue < 1e-4 ? '< 0.0001' : row.pValue.toFixed(4),
              ];
            }),
          },
        },
      ],
      provenance: [
        {
          scenario: comparison.scenario,
          file: provenanceOf(inFormation).file,
          ruleset: comparison.ruleset,
          engineVersion: comparison.engineVersion,
          variant: `${FORMATION} and ${SINGLY}, paired (the difference)`,
          seed: comparison.seed,
          trials: comparison.trials,
        },
        { ...provenanceOf(inFormation), variant: `${FORMATION} (as written)` },
        { ...provenanceOf(oneByOne), variant: `${SINGLY} (variant singly)` },
      ],
      methods: [
        "Common random numbers: trial t of both variants starts from the same dice (crucible compare); the difference is paired trial by trial, with its 95% t interval and the paired t test's p-value.",
        "Exact values: every path of the single Attack Action enumerated, each pool's Wounds from its exact convolution (sim/exact.ts).",
        'Heroic rulings §1–11; a formation pools its ATK dice into one Attack Action and the target rolls one Shield die (rulings §2).',
        ...optionsOf(formation),
      ],
    },
    outDirectory,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await formationsVsSingly());
