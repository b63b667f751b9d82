import { describe, expect, it } from 'vitest';
import { runNaiveWarmaster, ROUND, WINNER } from './naive.js';
import { warmasterBenchScenario, warmasterBenchUnits } from './bench-scenario.js';
import type { WarmasterUnit } from '../../engine/warmaster/units.js';
import { compileWarmaster, type Scenario } from '../../engine/warmaster/index.js';
import { runTrials } from '../../sim/run.js';
import { trialsToCatch } from '../helpers/power.js';
import { alignedCounts, expectSameDistribution } from '../helpers/two-sample.js';
import { armyUnits, warmasterScenario } from './scenarios.js';

/**
 * Differential test: the Warmaster engine and the deliberately naive implementation
 * (test/warmaster/naive.ts, written from the rules text, rulings §12–18 and the engine's README,
 * not from its code) are two independent readings of the same rules. For each scenario both run
 * engagements (fixed seed 20261122, never picked to pass); the distributions of winner, rounds,
 * retreat and each side's stands lost must pass a two-sample χ² test at α = 1e-6 (sparse cells
 * merged), and the means (for `winner`: each outcome's share) agree within 4 combined standard
 * errors.
 *
 * Power: a reading that moves any outcome's probability by 2 percentage points is caught with
 * probability ≥ 0.99 (helpers/power.ts). The naive engagements are the slow side (~15× the
 * engine's cost), so the engine runs 4 times as many: 31,268 naive and 125,072 engine engagements.
 */

const SEED = 20261122;
const ENGINE_PER_NAIVE = 4;
const NAIVE_TRIALS = trialsToCatch({ shift: 0.02, referenceRatio: ENGINE_PER_NAIVE });
const ENGINE_TRIALS = ENGINE_PER_NAIVE * NAIVE_TRIALS;
const ALPHA = 1e-6;
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
        {
          name: 'Empire',
          policy: 'pursue',
          units: [{ id: 'halberdiers', unit: 'empire/halberdiers', charging: true, contact: { front: 2 }, supports: 1 }],
        },
        {
          name: 'Orcs',
          policy: 'pursue',
          units: [{ id: 'warriors', unit: 'orcs/orc-warriors', position: 'defended', contact: { front: 2 }, supports: 1 }],
        },
      ],
    }),
  },
  {
    name: 'a terrifying giant charges halberdiers (1 front stand, 2 supports)',
    units: armyUnits(),
    scenario: warmasterScenario({
      sides: [
        { name: 'Orcs', policy: 'pursue', units: [{ id: 'giant', unit: 'orcs/giant', charging: true, contact: { front: 1 } }] },
        {
          name: 'Empire',
          policy: 'pursue',
          units: [{ id: 'halberdiers', unit: 'empire/halberdiers', contact: { front: 1 }, supports: 2 }],
        },
      ],
    }),
  },
  {
    name: 'regenerating trolls charge halberdiers, pursue-while-ahead, 2 turns',
    units: armyUnits(),
    scenario: warmasterScenario({
      maxTurns: 2,
      sides: [
        {
          name: 'Orcs',
          policy: 'pursue-while-ahead',
          units: [{ id: 'trolls', unit: 'orcs/trolls', charging: true, contact: { front: 3 } }],
        },
        { name: 'Empire', policy: 'pursue-while-ahead', units: [{ id: 'halberdiers', unit: 'empire/halberdiers', contact: { front: 3 } }] },
      ],
    }),
  },
];

describe('warmaster engine and naive implementation agree', () => {
  it("the naive codes are the engine metrics' labels", () => {
    const metrics = compileWarmaster(warmasterBenchScenario, warmasterBenchUnits).metrics;
    expect(metrics.find((metric) => metric.name === 'winner')?.labels).toEqual(['Empire', 'Orcs', 'draw', 'unresolved']);
    expect(WINNER).toEqual({ A: 0, B: 1, draw: 2, unresolved: 3 });
    expect(metrics.find((metric) => metric.name === 'round1')?.labels).toEqual(['not fought', 'Empire', 'Orcs', 'draw']);
    expect(ROUND).toEqual({ notFought: 0, A: 1, B: 2, draw: 3 });
  });

  for (const { name, scenario, units } of cases) {
    it(name, () => {
      const tally = runTrials(compileWarmaster(scenario, units, 'dice'), { seed: SEED, trials: ENGINE_TRIALS });
      const naive = runNaiveWarmaster(scenario, units, SEED, NAIVE_TRIALS);
      for (const metric of METRICS) {
        const engineCounts = Array.from(tally.histogram(metric));
        const naiveCounts = alignedCounts(metric, engineCounts.length, naive.histograms[metric] ?? {});
        expectSameDistribution(metric, engineCounts, naiveCounts, ALPHA, metric === 'winner');
      }
    });
  }
});
