/**
 * Heroic: how does an area attack scale with the size of the formation it hits? Thunderbeak's
 * Thunder Breath on formations of 3 to 8 Blackrazor Soldiers. Run: npx tsx notebooks/aoe-vs-formation-size.ts
 */
import { sweep } from '../analysis/sweep.js';
import { sweepChart } from '../reports/charts.js';
import { writePage } from '../reports/page.js';
import { loadScenarioFile } from '../sim/scenario-file.js';
import { fromRepository, optionsOf, provenanceOf, reportsDirectory, withPool } from './lib.js';

const FILE = fromRepository('data/heroic/scenarios/thunderbeak-breath-blackrazors.yaml');
const AXES = [{ path: 'sides[1].groups[0].models', values: [3, 4, 5, 6, 7, 8] }] as const;

export async function aoeVsFormationSize(outDirectory = reportsDirectory): Promise<string> {
  const points = await withPool((pool) => sweep(FILE, AXES, { trials: 100_000, executor: pool }));
  const loaded = await loadScenarioFile(FILE);
  const mean = (index: number, metric: string) => points[index]?.result.summary.find((summary) => summary.name === metric)?.mean ?? 0;
  return writePage(
    {
      slug: 'aoe-vs-formation-size',
      title: 'Area attacks against formations, by formation size',
      question: "How many Blackrazor Soldiers does one Thunder Breath vanquish, and how often does it break their formation, as the formation grows from 3 to 8?",
      sections: [
        {
          heading: 'Soldiers vanquished',
          text: `Every soldier in the area takes the breath's dice, so losses grow with the formation: ${mean(0, 'B.modelsLost').toFixed(2)} of 3, ${mean(5, 'B.modelsLost').toFixed(2)} of 8 on average.`,
          chart: sweepChart(AXES, points, 'B.modelsLost', 'mean', { id: 'aoe-models-lost', title: 'Soldiers vanquished by one breath' }),
        },
        { heading: 'Formation broken', chart: sweepChart(AXES, points, 'blackrazors.formationBroken', 'yes', { id: 'aoe-formation-broken', title: 'P(formation broken)' }) },
        {
          heading: 'Table',
          table: {
            columns: ['soldiers', 'vanquished (mean)', 'P(formation broken)'],
            rows: points.map((point, i) => [String(point.values[0]), mean(i, 'B.modelsLost').toFixed(3), (point.result.summary.find((summary) => summary.name === 'blackrazors.formationBroken')?.distribution.find((entry) => entry.value === 1)?.probability ?? 0).toFixed(4)]),
          },
        },
      ],
      provenance: points.map((point) => provenanceOf(point.result)),
      methods: ['One Thunder Breath (AoE: dice per model in the area), every soldier in the area, Shield rolls per model (rulings §2, option shieldRolls).', ...optionsOf(loaded)],
    },
    outDirectory,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await aoeVsFormationSize());
