import { describe, expect, it } from 'vitest';
import { battleforgeBenchProfiles, battleforgeBenchScenario } from './bench-scenario.js';
import { runNaiveBattleforge, WINNER } from './naive.js';
import {
  compileBattleforge,
  type Scenario,
  type ScenarioInput,
  scenarioSchema,
  type UnitProfile,
  type WeaponProfile,
} from '../../engine/battleforge/index.js';
import { runTrials } from '../../sim/run.js';
import { trialsToCatch } from '../helpers/power.js';
import { alignedCounts, expectSameDistribution } from '../helpers/two-sample.js';

/**
 * Differential test: the Battle Forge engine and the deliberately naive implementation
 * (test/battleforge/naive.ts, written from the rules text, rulings §19–25 and the engine's README,
 * not from its code) are two independent readings of the same rules. For each scenario both play
 * games (fixed seed 20261122, never picked to pass); the distributions of winner, rounds and each
 * side's models and Wounds lost must pass a two-sample χ² test at α = 1e-6 (sparse cells pooled),
 * and the means (for `winner`: each outcome's share) agree within 4 combined standard errors.
 *
 * Power: a reading that moves any outcome's probability by 2 percentage points is caught with
 * probability ≥ 0.99 (helpers/power.ts). The naive games are the slow side (~20× the engine's
 * cost), so the engine plays 4 times as many: 31,268 naive and 125,072 engine games per scenario.
 */

const SEED = 20261122;
const ENGINE_PER_NAIVE = 4;
const NAIVE_TRIALS = trialsToCatch({ shift: 0.02, referenceRatio: ENGINE_PER_NAIVE });
const ENGINE_TRIALS = ENGINE_PER_NAIVE * NAIVE_TRIALS;
const ALPHA = 1e-6;
const METRICS = ['winner', 'rounds', 'A.modelsLost', 'B.modelsLost', 'A.woundsLost', 'B.woundsLost'] as const;

const ranged = (name: string, attacks: number, ap: number, short: number, long: number): WeaponProfile => ({
  name,
  attacks,
  copies: 1,
  ap,
  melee: false,
  short,
  long,
});
const melee = (name: string, attacks: number, ap: number, copies = 1): WeaponProfile => ({
  name,
  attacks,
  copies,
  ap,
  melee: true,
  short: 0,
  long: 0,
});
interface Stats {
  movement: number;
  accuracy: number;
  strength: number;
  save: number;
  initiative: number;
  courage: number;
  wounds?: number;
}
function unit(reference: string, name: string, count: number, stats: Stats, weapons: WeaponProfile[]): [string, UnitProfile] {
  return [reference, { reference, name, models: [{ name, count, hasCharacteristics: true, wounds: 1, ...stats, weapons }] }];
}

/** Test profiles, MADE UP (plausible Battle Forge stat lines, weapons as the module's index has them). */
const profiles: ReadonlyMap<string, UnitProfile> = new Map([
  ...battleforgeBenchProfiles,
  unit('test/bowmen', 'Bowmen', 10, { movement: 6, accuracy: 5, strength: 4, save: 5, initiative: 5, courage: 5 }, [
    ranged('Long Bow', 1, 1, 15, 30),
    melee('Light Hand Weapon', 1, 0),
  ]),
  unit('test/quarrellers', 'Quarrellers', 8, { movement: 5, accuracy: 5, strength: 5, save: 6, initiative: 4, courage: 6 }, [
    ranged('Crossbow', 1, 2, 15, 30),
    melee('Hand Weapon', 1, 1),
  ]),
  unit('test/ogres', 'Ogres', 3, { movement: 6, accuracy: 4, strength: 6, save: 5, initiative: 4, courage: 7, wounds: 3 }, [
    melee('Ogre Club', 2, 2),
  ]),
  unit('test/handgunners', 'Handgunners', 10, { movement: 6, accuracy: 5, strength: 4, save: 5, initiative: 5, courage: 5 }, [
    ranged('Handgun', 1, 3, 12, 24),
    melee('Hand Weapon', 1, 1),
  ]),
  unit('test/boar-boyz', 'Boar Boyz', 8, { movement: 8, accuracy: 4, strength: 6, save: 6, initiative: 4, courage: 7 }, [
    melee('Choppa', 1, 2, 2),
  ]),
]);

const scenario = (input: Omit<ScenarioInput, 'ruleset'>): Scenario => scenarioSchema.parse({ ruleset: 'battleforge', ...input });

const cases: readonly { readonly name: string; readonly scenario: Scenario; readonly profiles: ReadonlyMap<string, UnitProfile> }[] = [
  {
    name: 'bench: 10 men-at-arms (shoot, then charge) vs 10 orc warriors (charge and fight), 18" apart',
    scenario: battleforgeBenchScenario,
    profiles: battleforgeBenchProfiles,
  },
  {
    // The Bowmen Shoot then Hold; the Quarrellers Evade then Shoot, and Counter Attack a Shoot even
    // before they activate (an Initiative test; failed, 1 Shock and, keeps-actions, they still act).
    // On Hold after their Shoot, the Bowmen may not Counter Attack by shooting again: "Units may only
    // shoot once per round" (Shoot), and a Counter Attack makes "a Fight or Shoot action". The engine
    // (battleforge-1.0.0) lets them, which this case catches.
    name: 'four-round shooting duel at 16" (long range), soft vs hard cover: shoot-and-hold vs evade-and-shoot, Counter Attacks',
    profiles,
    scenario: scenario({
      name: 'duel',
      distance: 16,
      rounds: 4,
      options: { failedReaction: 'keeps-actions' },
      sides: [
        { name: 'Humans', plan: 'shoot-and-hold', units: [{ id: 'bowmen', unit: 'test/bowmen', cover: 'soft' }] },
        {
          name: 'Dwarfs',
          plan: 'evade-and-shoot',
          reactions: { toShooting: 'counter-attack', beforeActivating: true },
          units: [{ id: 'quarrellers', unit: 'test/quarrellers', cover: 'hard' }],
        },
      ],
    }),
  },
  {
    // Wounds(3) Ogres charge (rushing) into Handgunners that Focus and Hold, or Overwatch before
    // activating; broken units surrender 30% of the time.
    name: 'Wounds(3) ogres charge into overwatch from 15", surrender 0.3',
    profiles,
    scenario: scenario({
      name: 'overwatch',
      distance: 15,
      options: { surrender: 0.3 },
      sides: [
        { name: 'Ogres', plan: 'charge-and-fight', units: [{ id: 'ogres', unit: 'test/ogres' }] },
        {
          name: 'Humans',
          plan: 'hold-for-overwatch',
          reactions: { toCharge: 'overwatch', beforeActivating: true },
          units: [{ id: 'handgunners', unit: 'test/handgunners' }],
        },
      ],
    }),
  },
  {
    // Handgunners bid 2 (often forfeiting: Courage 5 allows 2 Shock), Boar Boyz bid 1; both rally at
    // 2 Shock. A Focus made for a shot that never came does not help in melee with `token`.
    name: 'bids 2 vs 1, rallyAt 2, focusEvade token: focus-then-shoot handgunners behind terrain vs evading boar boyz from 30"',
    profiles,
    scenario: scenario({
      name: 'bids',
      distance: 30,
      options: { focusEvade: 'token' },
      sides: [
        {
          name: 'Humans',
          plan: 'focus-then-shoot',
          bid: 2,
          rallyAt: 2,
          units: [{ id: 'handgunners', unit: 'test/handgunners', terrain: true }],
        },
        {
          name: 'Orcs',
          plan: 'charge-and-fight',
          bid: 1,
          rallyAt: 2,
          units: [{ id: 'boyz', unit: 'test/boar-boyz', models: 5, evade: true }],
        },
      ],
    }),
  },
];

describe('battleforge engine and naive implementation agree', () => {
  it("the naive winner codes are the engine metric's labels", () => {
    const metrics = compileBattleforge(battleforgeBenchScenario, battleforgeBenchProfiles).metrics;
    expect(metrics.find((metric) => metric.name === 'winner')?.labels).toEqual(['Humans', 'Orcs', 'none']);
    expect(WINNER).toEqual({ A: 0, B: 1, none: 2 });
  });

  it('the naive code refuses what it cannot play', () => {
    const twoUnits = scenario({
      ...battleforgeBenchScenario,
      sides: [
        battleforgeBenchScenario.sides[0],
        {
          ...battleforgeBenchScenario.sides[1],
          units: [
            { id: 'a', unit: 'orcs_and_goblins/orc_warriors' },
            { id: 'b', unit: 'orcs_and_goblins/orc_warriors' },
          ],
        },
      ],
    } as Omit<ScenarioInput, 'ruleset'>);
    expect(() => runNaiveBattleforge(twoUnits, battleforgeBenchProfiles, SEED, 1)).toThrow(/one unit per side/);
    expect(() => runNaiveBattleforge({ ...battleforgeBenchScenario, mode: 'attack' }, battleforgeBenchProfiles, SEED, 1)).toThrow(/game/);
  });

  for (const { name, scenario: input, profiles: units } of cases) {
    it(name, () => {
      const tally = runTrials(compileBattleforge(input, units), { seed: SEED, trials: ENGINE_TRIALS });
      const naive = runNaiveBattleforge(input, units, SEED, NAIVE_TRIALS);
      for (const metric of METRICS) {
        const engineCounts = Array.from(tally.histogram(metric));
        const naiveCounts = alignedCounts(metric, engineCounts.length, naive.histograms[metric] ?? {});
        expectSameDistribution(metric, engineCounts, naiveCounts, ALPHA, metric === 'winner');
      }
    });
  }
});
