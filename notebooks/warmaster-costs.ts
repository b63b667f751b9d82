/**
 * Warmaster: which units are over- or under-costed in their army list? Each troop unit of four
 * armies charges a line of Orc Warriors in the open (a common yardstick); its win rate is its
 * fighting value. Points are then fitted to value across all the units (least squares, points on
 * win rate): a unit whose published points exceed the fit pays for more than it fights.
 * Run: npx tsx notebooks/warmaster-costs.ts
 */
import path from 'node:path';
import { linearRegression, linearRegressionLine } from 'simple-statistics';
import type { BalanceResult } from '../analysis/balance.js';
import { runScenario, type ScenarioResult } from '../analysis/run.js';
import { costScatterChart } from '../reports/charts.js';
import { writePage } from '../reports/page.js';
import type { LoadedScenario } from '../sim/scenario-file.js';
import { loadScenarioData } from '../sim/scenario-file.js';
import { fromRepository, provenanceOf, reportsDirectory, withPool } from './lib.js';

const ARMIES = ['empire', 'orcs', 'dwarfs', 'high-elves'];
const TRIALS = 20_000;

interface Measured {
  readonly reference: string;
  readonly name: string;
  readonly points: number;
  readonly winRate: number;
  readonly low: number;
  readonly high: number;
  readonly result: ScenarioResult;
}

export async function warmasterCosts(outDirectory = reportsDirectory): Promise<string> {
  const { readFileSync } = await import('node:fs');
  const { parse } = await import('yaml');
  const units: { reference: string; name: string; points: number; size: number }[] = [];
  for (const army of ARMIES) {
    const file = parse(readFileSync(fromRepository(`data/warmaster/armies/${army}.yaml`), 'utf8')) as { units: { id: string; name: string; kind: string; type: string; attacks: number | null; hits: number | null; points: number; unitSize: number }[] };
    for (const unit of file.units) {
      if (unit.kind !== 'troop' || unit.attacks === null || unit.hits === null || unit.type === 'artillery' || unit.type === 'machine') continue;
      units.push({ reference: `${army}/${unit.id}`, name: `${unit.name} (${army})`, points: unit.points, size: unit.unitSize });
    }
  }
  const scenarioFile = fromRepository('data/warmaster/scenarios/notebook-yardstick.yaml');
  const measured: Measured[] = await withPool(async (pool) => {
    const out: Measured[] = [];
    for (const unit of units) {
      const data = {
        ruleset: 'warmaster',
        name: `${unit.name} charges Orc Warriors`,
        sides: [
          { name: 'Unit', units: [{ id: 'unit', unit: unit.reference, charging: true, contact: { front: Math.min(unit.size, 3) } }] },
          { name: 'Orc Warriors', units: [{ id: 'orcs', unit: 'orcs/orc-warriors', contact: { front: 3 } }] },
        ],
      };
      const loaded: LoadedScenario = await loadScenarioData(scenarioFile, data);
      const result = await runScenario(loaded, { trials: TRIALS, executor: pool });
      const win = result.summary.find((summary) => summary.name === 'winner')?.distribution.find((entry) => entry.label === 'Unit');
      out.push({ reference: unit.reference, name: unit.name, points: unit.points, winRate: win?.probability ?? 0, low: win?.interval.low ?? 0, high: win?.interval.high ?? 0, result });
    }
    return out;
  });
  const line = linearRegressionLine(linearRegression(measured.map((unit) => [unit.winRate, unit.points])));
  const fitted: BalanceResult[] = measured.map((unit) => ({
    unit: unit.name,
    budget: 0,
    target: 'win-half',
    targetWinRate: 0.5,
    publishedCost: unit.points,
    fairCost: line(unit.winRate),
    costInterval: { low: Math.min(line(unit.low), line(unit.high)), high: Math.max(line(unit.low), line(unit.high)) },
    curve: [],
  }));
  const ranked = [...fitted].sort((a, b) => (b.publishedCost ?? 0) - (b.fairCost ?? 0) - ((a.publishedCost ?? 0) - (a.fairCost ?? 0)));
  return writePage(
    {
      slug: 'warmaster-costs',
      title: 'Warmaster units over- and under-costed by army',
      question: `Which troop units of ${ARMIES.join(', ')} pay more (or less) than they fight for, measured against a line of Orc Warriors?`,
      sections: [
        {
          heading: 'Published against fitted points',
          text: 'Above the diagonal: the list charges more than the unit earns on this yardstick. The fit is points on win rate over all units shown; one yardstick favours some roles (a charge in the open favours cavalry), so read differences within a role.',
          chart: costScatterChart(fitted, { id: 'warmaster-cost-scatter', title: 'Published vs fitted points' }),
        },
        {
          heading: 'Ranking: published minus fitted',
          table: {
            columns: ['unit', 'published', 'fitted', 'published − fitted', 'win rate vs Orc Warriors'],
            rows: ranked.map((entry) => {
              const unit = measured.find((item) => item.name === entry.unit);
              return [entry.unit, entry.publishedCost ?? 0, (entry.fairCost ?? 0).toFixed(0), ((entry.publishedCost ?? 0) - (entry.fairCost ?? 0)).toFixed(0), unit === undefined ? '' : `${(unit.winRate * 100).toFixed(1)}%`];
            }),
          },
        },
      ],
      provenance: measured.slice(0, 3).map((unit) => provenanceOf(unit.result)).concat([{ scenario: `…and ${measured.length - 3} more, each the unit charging orcs/orc-warriors`, file: path.relative(fromRepository('.'), scenarioFile), ruleset: 'warmaster', engineVersion: measured[0]?.result.engineVersion ?? '', seed: 1, trials: TRIALS }]),
      methods: ['Warmaster rulings §12–18 (engine/warmaster/README.md). Each unit charges the front of three Orc Warrior stands in the open with up to three stands in contact; both pursue whenever allowed; up to 6 turns.', 'Fitted points: least-squares line of published points on win rate across every unit shown.'],
    },
    outDirectory,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await warmasterCosts());
