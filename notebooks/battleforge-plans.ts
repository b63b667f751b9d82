/**
 * Battle Forge: which plan should 10 Bowmen follow against 10 charging Orc Warriors, and which plan
 * should the Orcs? Every Bowmen plan against every Orc plan, six rounds from 24".
 * Run: npx tsx notebooks/battleforge-plans.ts
 */
import type { MatchupCell } from '../analysis/matchups.js';
import { sweep } from '../analysis/sweep.js';
import { heatmapChart } from '../reports/charts.js';
import { writePage } from '../reports/page.js';
import { loadScenarioFile } from '../sim/scenario-file.js';
import { fromRepository, optionsOf, provenanceOf, reportsDirectory, withPool } from './lib.js';

const FILE = fromRepository('data/battleforge/scenarios/bowmen-hold-vs-orc-charge.yaml');
const BOWMEN_PLANS = ['shoot-and-hold', 'focus-then-shoot', 'move-and-shoot', 'evade-and-shoot', 'hold-for-overwatch', 'charge-and-fight'];
const ORC_PLANS = ['charge-and-fight', 'shoot-then-charge', 'hold-for-overwatch'];

export async function battleforgePlans(outDirectory = reportsDirectory): Promise<string> {
  const axes = [
    { path: 'sides[0].plan', values: BOWMEN_PLANS },
    { path: 'sides[1].plan', values: ORC_PLANS },
  ] as const;
  const points = await withPool((pool) => sweep(FILE, axes, { trials: 20_000, executor: pool }));
  const loaded = await loadScenarioFile(FILE);
  const cells: MatchupCell[] = points.map((point) => {
    const winner = point.result.summary.find((summary) => summary.name === 'winner');
    const entry = winner?.distribution.find((value) => value.label === 'Human Kingdoms');
    return { a: String(point.values[0]), b: String(point.values[1]), winProbability: entry?.probability ?? 0, interval: entry?.interval ?? { low: 0, high: 0 }, trials: point.result.trials };
  });
  const names = new Map([...BOWMEN_PLANS, ...ORC_PLANS].map((plan) => [plan, plan]));
  const best = [...cells].sort((x, y) => y.winProbability - x.winProbability)[0];
  return writePage(
    {
      slug: 'battleforge-plans',
      title: 'Battle Forge plans against each other',
      question: 'Bowmen against charging Orc Warriors: which plan wins most often, against each Orc plan?',
      sections: [
        {
          heading: 'P(Human Kingdoms win), Bowmen plan (rows) against Orc plan (columns)',
          text: best === undefined ? undefined : `The best pairing for the Bowmen: ${best.a} against ${best.b}, won ${(best.winProbability * 100).toFixed(1)}% of the time. A side wins when the other has no unit left that is neither destroyed nor broken after six rounds.`,
          chart: heatmapChart(cells, names, { id: 'battleforge-plans-heatmap', title: 'P(Bowmen side wins)' }),
        },
        {
          heading: 'Table',
          table: {
            columns: ['Bowmen plan', 'Orc plan', 'P(Bowmen win)', '95% interval', 'trials'],
            rows: cells.map((cell) => [cell.a, cell.b, cell.winProbability.toFixed(4), `[${cell.interval.low.toFixed(4)}, ${cell.interval.high.toFixed(4)}]`, cell.trials]),
          },
        },
      ],
      provenance: points.map((point) => provenanceOf(point.result)),
      methods: ['Battle Forge rulings §19–25; plans as engine/battleforge/README.md describes them; the Orc side rallies at 2 Shock.', ...optionsOf(loaded)],
    },
    outDirectory,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await battleforgePlans());
