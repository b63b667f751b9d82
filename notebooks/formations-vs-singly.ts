/**
 * Heroic: is a formation worth it? Three Sylvan Knights attack an Ogre in formation (one pooled
 * Attack Action, one Shield roll for the Ogre) and one by one (each knight's own action and Shield
 * roll), on the same dice (common random numbers). Run: npx tsx notebooks/formations-vs-singly.ts
 */
import { comparisonChart, distributionChart } from '../reports/charts.js';
import { writePage } from '../reports/page.js';
import { compareVariants } from '../analysis/compare.js';
import { exactScenario, runScenario } from '../analysis/run.js';
import { loadScenarioChanged } from '../sim/scenario-file.js';
import { fromRepository, optionsOf, percent, provenanceOf, reportsDirectory, withPool } from './lib.js';

const FILE = fromRepository('data/heroic/scenarios/sylvan-knights-formation.yaml');
const TRIALS = 200_000;

export async function formationsVsSingly(outDirectory = reportsDirectory): Promise<string> {
  const comparison = await compareVariants(FILE, undefined, 'singly', { trials: TRIALS });
  const formation = await loadScenarioChanged(FILE, {});
  const singly = await loadScenarioChanged(FILE, { variant: 'singly' });
  const [inFormation, oneByOne] = await withPool((pool) => Promise.all([runScenario(formation, { trials: TRIALS, executor: pool }), runScenario(singly, { trials: TRIALS, executor: pool })]));
  const woundsOf = (result: typeof inFormation) => result.summary.find((metric) => metric.name === 'ogre.woundsTaken');
  const vanquished = comparison.channels.find((channel) => channel.name === 'ogre.vanquished');
  // One Attack Action each way: both have an exact answer, the check on the simulated difference.
  const exactVanquished = [formation, singly].map((loaded) => {
    const exact = exactScenario(loaded);
    return exact?.summary.find((metric) => metric.name === 'ogre.vanquished')?.distribution.find((entry) => entry.value === 1)?.probability;
  });
  const [exactFormation, exactSingly] = exactVanquished;
  const exactText =
    exactFormation === undefined || exactSingly === undefined
      ? ''
      : ` Exactly (every outcome enumerated, crucible run's exact method): ${(exactFormation * 100).toFixed(2)}% and ${(exactSingly * 100).toFixed(2)}%, a difference of ${((exactFormation - exactSingly) * 100).toFixed(2)} points.`;
  const wounds = [woundsOf(inFormation), woundsOf(oneByOne)];
  return writePage(
    {
      slug: 'formations-vs-singly',
      title: 'Formations against single models',
      question: 'Three Sylvan Knights attack a shielded Ogre: in formation, or one by one?',
      sections: [
        {
          heading: 'The difference, on the same dice',
          text: `In formation the Ogre is vanquished ${percent(vanquished?.a.mean ?? 0)} of the time, one by one ${percent(vanquished?.b.mean ?? 0)}: the Ogre rolls one Shield die against the pooled attack instead of one per knight. Each bar is formation minus singly with its 95% interval (${TRIALS.toLocaleString('en')} paired trials).${exactText}`,
          chart: comparisonChart(comparison, ['ogre.vanquished', 'ogre.woundsTaken', 'B.modelsLost'], { id: 'formations-difference', title: 'Formation minus one by one' }),
        },
        ...wounds.flatMap((summary, i) =>
          summary === undefined ? [] : [{ heading: i === 0 ? 'Wounds on the Ogre: formation' : 'Wounds on the Ogre: one by one', chart: distributionChart(summary, { id: `ogre-wounds-${i === 0 ? 'formation' : 'singly'}`, title: i === 0 ? 'Wounds taken (formation)' : 'Wounds taken (one by one)' }) }],
        ),
        {
          heading: 'Table',
          table: {
            columns: ['outcome', 'formation', 'one by one', 'difference', '95% interval', 'p'],
            rows: comparison.channels
              .filter((channel) => ['ogre.vanquished', 'ogre.woundsTaken', 'B.modelsLost'].includes(channel.name))
              .map((channel) => [channel.name, channel.a.mean.toFixed(4), channel.b.mean.toFixed(4), channel.difference.mean.toFixed(4), `[${channel.difference.interval.low.toFixed(4)}, ${channel.difference.interval.high.toFixed(4)}]`, channel.difference.pValue < 1e-4 ? '<0.0001' : channel.difference.pValue.toFixed(4)]),
          },
        },
      ],
      provenance: [provenanceOf(inFormation), provenanceOf(oneByOne)],
      methods: [
        'Common random numbers: trial t of both variants starts from the same dice (crucible compare).',
        'Exact values: every path of the single Attack Action enumerated, each pool\'s Wounds from its exact convolution (sim/exact.ts).',
        'Heroic rulings §1–11; a formation pools its ATK dice into one Attack Action and the target rolls one Shield die (rulings §2).',
        ...optionsOf(formation),
      ],
    },
    outDirectory,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await formationsVsSingly());
