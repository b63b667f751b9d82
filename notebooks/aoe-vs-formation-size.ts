/**
 * Heroic: does a bigger formation weather a breath attack better? Thunderbeak's Thunder Breath (5
 * dice pooled in one Attack Action at the formation, as the units file has it) on formations of 3
 * to 8 shielded Blackrazor Soldiers, who roll one Shield die per model (rulings §2).
 * Run: npx tsx notebooks/aoe-vs-formation-size.ts
 */
import { exactScenario, loadScenarioChanged, loadScenarioFile, sweep } from '../index.js';
import { estimateText, exactPercentText, meanText, sweepChart, writePage } from '../reports.js';
import { bundled, fieldWords, optionsOf, reportsDirectory, sweepLine, sweepProvenance, withPool } from './lib.js';

const FILE = bundled('heroic/scenarios/thunderbeak-breath-blackrazors.yaml');
const AXES = [{ path: 'sides[1].groups[0].models', values: [3, 4, 5, 6, 7, 8] }] as const;
const SOLDIERS = 'Blackrazor Soldiers in the formation';
const LOST = 'B.modelsLost';
const BROKEN = 'blackrazors.formationBroken';

export async function aoeVsFormationSize(outDirectory = reportsDirectory): Promise<string> {
  const points = await withPool((pool) => sweep(FILE, AXES, { trials: 100_000, executor: pool }));
  const loaded = await loadScenarioFile(FILE);
  const lost = sweepLine(points, LOST, 'mean');
  const broken = sweepLine(points, BROKEN, 'yes');
  // One breath is a single action: each point also has its exact answer, beside the simulated one.
  const exact = await Promise.all(
    points.map(
      async (point) =>
        exactScenario(await loadScenarioChanged(FILE, { fields: AXES.map((axis, i) => [axis.path, point.values[i]] as const) }))?.summary,
    ),
  );
  const exactOf = (index: number, metric: string) => exact[index]?.find((summary) => summary.name === metric);
  const exactBroken = (index: number) => exactOf(index, BROKEN)?.distribution.find((entry) => entry.value === 1)?.probability ?? 0;
  const [first, last] = [lost[0], lost.at(-1)];
  const trend =
    first === undefined || last === undefined
      ? ''
      : `${last.estimate < first.estimate ? 'fall' : 'grow'} as the formation grows: ${meanText(first.estimate, first)} of 3 soldiers, ${meanText(last.estimate, last)} of 8, on average`;
  const swept = `${fieldWords(loaded, AXES[0].path)} from 3 to 8`;
  return writePage(
    {
      slug: 'aoe-vs-formation-size',
      title: 'A breath attack against formations, by formation size',
      question:
        'How many Blackrazor Soldiers does one Thunder Breath vanquish, and how often does it break their formation, as the formation grows from 3 to 8?',
      sections: [
        {
          heading: 'Soldiers vanquished',
          text: `The breath's 5 dice are one pooled Attack Action against the formation, and every soldier adds a Shield die to it (rulings §2), so losses ${trend}.`,
          chart: sweepChart(lost, {
            id: 'aoe-models-lost',
            title: 'Soldiers vanquished by one breath',
            xTitle: SOLDIERS,
            yTitle: 'Soldiers vanquished (average)',
            probability: false,
          }),
        },
        {
          heading: 'Formation broken',
          text: 'A formation breaks when it falls below 3 models.',
          chart: sweepChart(broken, {
            id: 'aoe-formation-broken',
            title: 'Chance the breath breaks the formation',
            xTitle: SOLDIERS,
            yTitle: 'Chance the formation breaks',
            probability: true,
          }),
        },
        {
          heading: 'Table',
          text: 'Simulated estimates with their 95% intervals, and the exact answers (every outcome of the breath enumerated) they should agree with.',
          table: {
            columns: ['soldiers', 'vanquished (average)', 'exact', 'formation broken', 'exact'],
            rows: points.map((point, i) => [
              String(point.values[0]),
              lost[i] === undefined ? '' : meanText(lost[i].estimate, lost[i]),
              (exactOf(i, LOST)?.mean ?? Number.NaN).toFixed(3),
              broken[i] === undefined ? '' : estimateText({ value: broken[i].estimate, interval: broken[i] }),
              exactPercentText(exactBroken(i)),
            ]),
          },
        },
      ],
      provenance: sweepProvenance(points, `${swept}, one run a value`),
      methods: [
        `Swept: ${swept}; every point the same seed and trials.`,
        'One Thunder Breath: 5 dice in one Attack Action at the formation (a ranged weapon set in the units file), which rolls one Shield die per model (rulings §2, option shieldRolls).',
        'The "exact" columns enumerate every outcome of the breath (crucible run\'s exact method, sim/exact.ts); the others are the simulated estimates the charts show.',
        ...optionsOf(loaded),
      ],
    },
    outDirectory,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await aoeVsFormationSize());
