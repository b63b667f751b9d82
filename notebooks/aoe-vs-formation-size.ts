/**
 * Heroic: does a bigger formation weather a breath attack better? Thunderbeak's Thunder Breath (5
 * dice pooled in one Attack Action at the formation, as the units file has it) on formations of 3
 * to 8 shielded Blackrazor Soldiers, who roll one Shield die per model (rulings §2).
 * Run: npx tsx notebooks/aoe-vs-formation-size.ts
 */
import { exactScenario } from '../analysis/run.js';
import { sweep } from '../analysis/sweep.js';
import { sweepChart } from '../reports/charts.js';
import { writePage } from '../reports/page.js';
import { loadScenarioChanged, loadScenarioFile } from '../sim/scenario-file.js';
import { fromRepository, optionsOf, provenanceOf, reportsDirectory, withPool } from './lib.js';

const FILE = fromRepository('data/heroic/scenarios/thunderbeak-breath-blackrazors.yaml');
const AXES = [{ path: 'sides[1].groups[0].models', values: [3, 4, 5, 6, 7, 8] }] as const;

export async function aoeVsFormationSize(outDirectory = reportsDirectory): Promise<string> {
  const points = await withPool((pool) => sweep(FILE, AXES, { trials: 100_000, executor: pool }));
  const loaded = await loadScenarioFile(FILE);
  const mean = (index: number, metric: string) => points[index]?.result.summary.find((summary) => summary.name === metric)?.mean ?? 0;
  // One breath is a single action: each point also has its exact answer, beside the simulated one.
  const exact = await Promise.all(
    points.map(async (point) => exactScenario(await loadScenarioChanged(FILE, { fields: AXES.map((axis, i) => [axis.path, point.values[i]] as const) }))?.summary),
  );
  const exactOf = (index: number, metric: string) => exact[index]?.find((summary) => summary.name === metric);
  const broken = (summary: { distribution: readonly { value: number; probability: number }[] } | undefined) => summary?.distribution.find((entry) => entry.value === 1)?.probability ?? 0;
  return writePage(
    {
      slug: 'aoe-vs-formation-size',
      title: 'A breath attack against formations, by formation size',
      question: "How many Blackrazor Soldiers does one Thunder Breath vanquish, and how often does it break their formation, as the formation grows from 3 to 8?",
      sections: [
        {
          heading: 'Soldiers vanquished',
          text: `The breath's 5 dice are one pooled Attack Action against the formation, and every soldier adds a Shield die to it (rulings §2), so losses ${mean(5, 'B.modelsLost') < mean(0, 'B.modelsLost') ? 'fall' : 'grow'} as the formation grows: ${mean(0, 'B.modelsLost').toFixed(2)} of 3, ${mean(5, 'B.modelsLost').toFixed(2)} of 8 on average.`,
          chart: sweepChart(AXES, points, 'B.modelsLost', 'mean', { id: 'aoe-models-lost', title: 'Soldiers vanquished by one breath' }),
        },
        { heading: 'Formation broken', chart: sweepChart(AXES, points, 'blackrazors.formationBroken', 'yes', { id: 'aoe-formation-broken', title: 'P(formation broken)' }) },
        {
          heading: 'Table',
          table: {
            columns: ['soldiers', 'vanquished (mean)', 'exact', 'P(formation broken)', 'exact'],
            rows: points.map((point, i) => [
              String(point.values[0]),
              mean(i, 'B.modelsLost').toFixed(3),
              (exactOf(i, 'B.modelsLost')?.mean ?? Number.NaN).toFixed(3),
              broken(point.result.summary.find((summary) => summary.name === 'blackrazors.formationBroken')).toFixed(4),
              broken(exactOf(i, 'blackrazors.formationBroken')).toFixed(4),
            ]),
          },
        },
      ],
      provenance: points.map((point) => provenanceOf(point.result)),
      methods: [
        'One Thunder Breath: 5 dice in one Attack Action at the formation (a ranged weapon set in the units file), which rolls one Shield die per model (rulings §2, option shieldRolls).',
        'The "exact" columns enumerate every outcome of the breath (crucible run\'s exact method, sim/exact.ts); the others are the simulated estimates the charts show.',
        ...optionsOf(loaded),
      ],
    },
    outDirectory,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await aoeVsFormationSize());
