import { describe, expect, it } from 'vitest';
import { runNaiveWarmaster, ROUND, WINNER } from '../bench/naive-warmaster.js';
import { warmasterBenchScenario, warmasterBenchUnits } from '../bench/warmaster-scenarios.js';
import type { WarmasterUnit } from '../engine/warmaster/units.js';
import { compileWarmaster, type Scenario } from '../engine/warmaster/index.js';
import { runTrials } from '../sim/run.js';
import { chiSquareCritical } from './helpers/chi-square.js';
import { armyUnits, warmasterScenario } from './helpers/warmaster-scenarios.js';

/**
 * Differential test: the Warmaster engine and the deliberately naive implementation
 * (bench/naive-warmaster.ts, written from the rules text, rulings §12–18 and the engine's README,
 * not from its code) are two independent readings of the same rules. For each scenario both run
 * 150k engagements (fixed seed 20261122, never picked to pass); the distributions of winner,
 * rounds, retreat and each side's stands lost must pass a two-sample χ² test at α = 1e-6 (sparse
 * cells merged), and the means (for `winner`: each outcome's share) agree within 4 combined
 * standard errors.
 */

const SEED = 20261122;
const TRIALS = 150_000;
const Z = 4;
const ALPHA = 1e-6;
/** Cells with fewer trials than this (both samples together) are merged. */
const MIN_CELL = 20;
const METRICS = ['winner', 'rounds', 'retreat', 'A.standsLost', 'B.standsLost'] as const;

interface Case {
  readonly name: string;
  readonly scenario: Scenario;
  readonly units: ReadonlyMap<string, WarmasterUnit>;
}

const cases: readonly Case[] = [
  { name: 'bench: 3 knights charge 3 orc warriors in the open, pursue', scenario: warmasterBenchScenario, units: warmasterBenchUnits },
  // "Troops that pursue a retreating enemy are also assumed to be in the open" (rules, Defended &
  // fortified troops): when the defended Orcs win and pursue, the Halberdiers hit them on 4+ after.
  {
    name: 'halberdiers charge defended orc warriors, both with a support (defended winner pursues into the open)',
    units: armyUnits(),
    scenario: warmasterScenario({
      sides: [
        { name: 'Empire', policy: 'pursue', units: [{ id: 'halberdiers', unit: 'empire/halberdiers', charging: true, contact: { front: 2 }, supports: 1 }] },
        { name: 'Orcs', policy: 'pursue', units: [{ id: 'warriors', unit: 'orcs/orc-warriors', position: 'defended', contact: { front: 2 }, supports: 1 }] },
      ],
    }),
  },
  {
    name: 'a terrifying giant charges halberdiers (1 front stand, 2 supports)',
    units: armyUnits(),
    scenario: warmasterScenario({
      sides: [
        { name: 'Orcs', policy: 'pursue', units: [{ id: 'giant', unit: 'orcs/giant', charging: true, contact: { front: 1 } }] },
        { name: 'Empire', policy: 'pursue', units: [{ id: 'halberdiers', unit: 'empire/halberdiers', contact: { front: 1 }, supports: 2 }] },
      ],
    }),
  },
  {
    name: 'regenerating trolls charge halberdiers, pursue-while-ahead, 2 turns',
    units: armyUnits(),
    scenario: warmasterScenario({
      maxTurns: 2,
      sides: [
        { name: 'Orcs', policy: 'pursue-while-ahead', units: [{ id: 'trolls', unit: 'orcs/trolls', charging: true, contact: { front: 3 } }] },
        { name: 'Empire', policy: 'pursue-while-ahead', units: [{ id: 'halberdiers', unit: 'empire/halberdiers', contact: { front: 3 } }] },
      ],
    }),
  },
];

/** Two-sample χ² over the same cells: Σ (a·√(Nb/Na) − b·√(Na/Nb))² / (a + b), df = cells − 1. */
function twoSampleChiSquare(a: readonly number[], b: readonly number[]): { statistic: number; df: number } {
  const cells = a.map((count, i) => [count, b[i] ?? 0] as [number, number]);
  const kept = cells.filter(([x, y]) => x + y >= MIN_CELL);
  const pooled = cells.filter(([x, y]) => x + y < MIN_CELL).reduce<[number, number]>(([x, y], [u, v]) => [x + u, y + v], [0, 0]);
  if (pooled[0] + pooled[1] >= MIN_CELL) kept.push(pooled);
  else if (pooled[0] + pooled[1] > 0 && kept.length > 0) {
    // Too sparse even pooled: fold it into the smallest kept cell.
    const smallest = kept.reduce((best, cell) => (cell[0] + cell[1] < best[0] + best[1] ? cell : best));
    smallest[0] += pooled[0];
    smallest[1] += pooled[1];
  }
  const totalA = kept.reduce((sum, [x]) => sum + x, 0);
  const totalB = kept.reduce((sum, [, y]) => sum + y, 0);
  const ka = Math.sqrt(totalB / totalA);
  const kb = Math.sqrt(totalA / totalB);
  const statistic = kept.reduce((sum, [x, y]) => sum + (x * ka - y * kb) ** 2 / (x + y), 0);
  return { statistic, df: kept.length - 1 };
}

function meanAndError(counts: readonly number[]): { mean: number; standardError: number } {
  const trials = counts.reduce((sum, count) => sum + count, 0);
  const mean = counts.reduce((sum, count, value) => sum + value * count, 0) / trials;
  const variance = counts.reduce((sum, count, value) => sum + count * (value - mean) ** 2, 0) / (trials - 1);
  return { mean, standardError: Math.sqrt(variance / trials) };
}

function expectSameMean(label: string, engine: readonly number[], naive: readonly number[]): void {
  const e = meanAndError(engine);
  const n = meanAndError(naive);
  const combined = Math.sqrt(e.standardError ** 2 + n.standardError ** 2);
  expect(Math.abs(e.mean - n.mean), `${label}: engine ${e.mean} vs naive ${n.mean} (combined SE ${combined})`).toBeLessThanOrEqual(Z * combined);
}

describe('warmaster engine and naive implementation agree', () => {
  it('the naive codes are the engine metrics\' labels', () => {
    const metrics = compileWarmaster(warmasterBenchScenario, warmasterBenchUnits).metrics;
    expect(metrics.find((metric) => metric.name === 'winner')?.labels).toEqual(['Empire', 'Orcs', 'draw', 'unresolved']);
    expect(WINNER).toEqual({ A: 0, B: 1, draw: 2, unresolved: 3 });
    expect(metrics.find((metric) => metric.name === 'round1')?.labels).toEqual(['not fought', 'Empire', 'Orcs', 'draw']);
    expect(ROUND).toEqual({ notFought: 0, A: 1, B: 2, draw: 3 });
  });

  for (const { name, scenario, units } of cases) {
    it(name, () => {
      const tally = runTrials(compileWarmaster(scenario, units), { seed: SEED, trials: TRIALS });
      const naive = runNaiveWarmaster(scenario, units, SEED, TRIALS);
      for (const metric of METRICS) {
        const engineCounts = Array.from(tally.histogram(metric));
        const naiveHistogram = naive.histograms[metric] ?? {};
        const outside = Object.keys(naiveHistogram).filter((value) => Number(value) >= engineCounts.length);
        expect(outside, `${metric}: naive values outside the engine's range`).toEqual([]);
        const naiveCounts = engineCounts.map((_, value) => naiveHistogram[value] ?? 0);
        const { statistic, df } = twoSampleChiSquare(engineCounts, naiveCounts);
        if (df > 0) {
          const critical = chiSquareCritical(ALPHA, df);
          expect(statistic, `${metric}: χ² ${statistic.toFixed(1)} on ${df} df\n engine ${engineCounts.join(' ')}\n naive  ${naiveCounts.join(' ')}`).toBeLessThan(critical);
        }
        if (metric === 'winner') {
          for (let value = 0; value < engineCounts.length; value++) {
            const share = (counts: number[]): number[] => [TRIALS - (counts[value] ?? 0), counts[value] ?? 0];
            expectSameMean(`winner = ${value}`, share(engineCounts), share(naiveCounts));
          }
        } else expectSameMean(metric, engineCounts, naiveCounts);
      }
    });
  }
});
