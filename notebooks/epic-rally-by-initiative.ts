/**
 * Epic Armageddon: how fast does a Broken formation come back, by Initiative? The 7-unit Broken
 * company of the rule text, over four turns of fire, for Initiative 1+ to 6+ — and the armies'
 * actual Initiatives. Run: npx tsx notebooks/epic-rally-by-initiative.ts
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { sweep } from '../analysis/sweep.js';
import { sweepChart } from '../reports/charts.js';
import { writePage } from '../reports/page.js';
import { loadScenarioFile } from '../sim/scenario-file.js';
import { fromRepository, optionsOf, percent, provenanceOf, reportsDirectory, withPool } from './lib.js';

const FILE = fromRepository('data/epic/scenarios/guard-company-under-fire.yaml');
const AXES = [{ path: 'players[0].formations[0].initiative', values: [1, 2, 3, 4, 5, 6] }] as const;

export async function epicRallyByInitiative(outDirectory = reportsDirectory): Promise<string> {
  const points = await withPool((pool) => sweep(FILE, AXES, { trials: 100_000, executor: pool }));
  const loaded = await loadScenarioFile(FILE);
  const armies = (parse(readFileSync(fromRepository('data/epic/armies.yaml'), 'utf8')) as { armies: { name: string; initiative: number }[] }).armies;
  const broken = (initiative: number) =>
    points[initiative - 1]?.result.summary.find((summary) => summary.name === 'company.brokenAtEnd')?.distribution.find((entry) => entry.value === 1)?.probability ?? 0;
  return writePage(
    {
      slug: 'epic-rally-by-initiative',
      title: 'Epic rally recovery by Initiative',
      question: 'A Broken company of seven units under fire for four turns: how often is it still Broken at the end, for each Initiative?',
      sections: [
        {
          heading: 'Still Broken after four turns',
          text: `From ${percent(broken(1))} at Initiative 1+ to ${percent(broken(6))} at 6+. ${armies.map((army) => `${army.name} (${army.initiative}+): ${percent(broken(army.initiative))}`).join('; ')}.`,
          chart: sweepChart(AXES, points, 'company.brokenAtEnd', 'yes', { id: 'epic-broken-at-end', title: 'P(still Broken after turn 4)' }),
        },
        { heading: 'Rallies passed', chart: sweepChart(AXES, points, 'company.rallies', 'mean', { id: 'epic-rallies', title: 'Rally tests passed in four turns' }) },
        { heading: 'Units lost', chart: sweepChart(AXES, points, 'company.unitsLost', 'mean', { id: 'epic-units-lost', title: 'Units lost in four turns' }) },
      ],
      provenance: points.map((point) => provenanceOf(point.result)),
      methods: ['Epic rulings §26–28: D6 − 2 if Broken − 1 with enemy within 30 cm ≥ Initiative; markers, losses and withdrawal costs are the scenario\'s inputs.', ...optionsOf(loaded)],
    },
    outDirectory,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await epicRallyByInitiative());
