/**
 * Epic Armageddon: how fast does a Broken formation come back, by Initiative? The 7-unit Broken
 * company of the rule text, over four turns of fire, for Initiative 1+ to 6+ — and the armies'
 * actual Initiatives. Run: npx tsx notebooks/epic-rally-by-initiative.ts
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { loadScenarioFile, sweep } from '../index.js';
import { estimateText, meanText, sweepChart, writePage } from '../reports.js';
import { bundled, fieldWords, optionsOf, reportsDirectory, sweepLine, sweepProvenance, withPool } from './lib.js';

const FILE = bundled('epic/scenarios/guard-company-under-fire.yaml');
const AXES = [{ path: 'players[0].formations[0].initiative', values: [1, 2, 3, 4, 5, 6] }] as const;
const INITIATIVE = "The company's Initiative (it rallies on a D6 roll of this or more, after modifiers)";

export async function epicRallyByInitiative(outDirectory = reportsDirectory): Promise<string> {
  const points = await withPool((pool) => sweep(FILE, AXES, { trials: 100_000, executor: pool }));
  const loaded = await loadScenarioFile(FILE);
  const armies = (parse(readFileSync(bundled('epic/armies.yaml'), 'utf8')) as { armies: { name: string; initiative: number }[] }).armies;
  const broken = sweepLine(points, 'company.brokenAtEnd', 'yes');
  const at = (initiative: number) => {
    const point = broken.find((candidate) => candidate.x === initiative);
    return point === undefined ? '—' : estimateText({ value: point.estimate, interval: point });
  };
  const rallies = sweepLine(points, 'company.rallies', 'mean');
  const lost = sweepLine(points, 'company.unitsLost', 'mean');
  return writePage(
    {
      slug: 'epic-rally-by-initiative',
      title: 'Epic rally recovery by Initiative',
      question: 'A Broken company of seven units under fire for four turns: how often is it still Broken at the end, for each Initiative?',
      sections: [
        {
          heading: 'Still Broken after four turns',
          text: `From ${at(1)} at Initiative 1+ to ${at(6)} at 6+. The armies' own Initiatives: ${armies.map((army) => `${army.name} (${army.initiative}+) ${at(army.initiative)}`).join('; ')}.`,
          chart: sweepChart(broken, {
            id: 'epic-broken-at-end',
            title: 'Chance the company is still Broken after turn 4',
            xTitle: INITIATIVE,
            yTitle: 'Chance still Broken after turn 4',
            probability: true,
            xLabelSuffix: '+',
          }),
        },
        {
          heading: 'Rallies passed',
          chart: sweepChart(rallies, {
            id: 'epic-rallies',
            title: 'Rally tests passed in four turns',
            xTitle: INITIATIVE,
            yTitle: 'Rally tests passed (average)',
            probability: false,
            xLabelSuffix: '+',
          }),
        },
        {
          heading: 'Units lost',
          chart: sweepChart(lost, {
            id: 'epic-units-lost',
            title: 'Units lost in four turns',
            xTitle: INITIATIVE,
            yTitle: 'Units lost (average)',
            probability: false,
            xLabelSuffix: '+',
          }),
        },
        {
          heading: 'Table',
          table: {
            columns: ['Initiative', 'still Broken after turn 4', 'rally tests passed (average)', 'units lost (average)'],
            rows: points.map((point, i) => [
              `${String(point.values[0])}+`,
              broken[i] === undefined ? '' : estimateText({ value: broken[i].estimate, interval: broken[i] }),
              rallies[i] === undefined ? '' : meanText(rallies[i].estimate, rallies[i]),
              lost[i] === undefined ? '' : meanText(lost[i].estimate, lost[i]),
            ]),
          },
        },
      ],
      provenance: sweepProvenance(points, `${fieldWords(loaded, AXES[0].path)} = 1 to 6, one run a value`),
      methods: [
        `Swept: ${fieldWords(loaded, AXES[0].path)}, 1 to 6; every point the same seed and trials.`,
        "Epic rulings §26–28: D6 − 2 if Broken − 1 with enemy within 30 cm ≥ Initiative; markers, losses and withdrawal costs are the scenario's inputs.",
        ...optionsOf(loaded),
      ],
    },
    outDirectory,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await epicRallyByInitiative());
