import { describe, expect, it } from 'vitest';
import { streamDice } from '../../engine/dice/index.js';
import { compileWarmaster } from '../../engine/warmaster/index.js';
import type { Scenario, ScenarioInput } from '../../engine/warmaster/schema.js';
import { runWithDice } from '../../sim/run.js';
import { Tally } from '../../statistics/tally.js';
import { chiSquareCritical, chiSquareFit } from '../helpers/chi-square.js';
import { total } from '../helpers/distribution.js';
import { enumerate, expectSameProbabilities } from '../helpers/enumeration.js';
import { expectMatchesExact } from '../helpers/exact-check.js';
import { trialsToCatch } from '../helpers/power.js';
import { armyUnits, warmasterScenario } from './scenarios.js';
import { exactRound1, type Round1Exact, takenPerDie } from './oracle.js';

/**
 * Round 1 of Warmaster engagements, Monte Carlo (engine) against the exact oracle
 * (test/warmaster/oracle.ts, written from the rules text, rulings §12–16 and the README, not from
 * the engine): the `round1` category and the `retreat` metric (the round-1 loser's retreat in cm),
 * value by value within 4 standard errors plus the mean (helpers/exact-check.ts), and a Pearson χ²
 * over the whole retreat distribution at α = 1e-6. Case k draws from streamDice(SEED, k); the seed
 * was fixed before any result was seen: never tune it to make a case pass.
 * Power: 25,015 trials per case catch a 2-percentage-point error in any outcome's probability
 * with probability ≥ 0.99 (helpers/power.ts); exact enumeration of the same kernel must equal the
 * oracle to 1e-12 besides (below).
 */
const SEED = 20261122;
const TRIALS = trialsToCatch({ shift: 0.02 });
const ALPHA = 1e-6;

type SideInput = ScenarioInput['sides'][number];
const engagement = (a: SideInput, b: SideInput): Scenario => warmasterScenario({ sides: [a, b] });

interface Round1Case {
  readonly label: string;
  readonly scenario: Scenario;
  /** Hand-computed values the oracle must reproduce (known-answer rows). */
  readonly hand?: Round1Exact;
}

const cases: Round1Case[] = [
  {
    // §12: charge +1 in the open; the General's +2 on one stand (14 dice); 4+ vs Sv6, orcs 12 dice vs Sv4.
    label: 'Knights with a General charge Orc Warriors in the open',
    scenario: engagement(
      {
        name: 'Empire',
        units: [{ id: 'knights', unit: 'empire/knights', charging: true, characters: ['empire/general'], contact: { front: 3 } }],
      },
      { name: 'Orcs', units: [{ id: 'orcs', unit: 'orcs/orc-warriors', contact: { front: 3 } }] },
    ),
  },
  {
    // §12/§13: no charge bonus against a defended unit, and the chargers hit on 5+.
    label: 'Orc Warriors charge DEFENDED Halberdiers',
    scenario: engagement(
      { name: 'Orcs', units: [{ id: 'orcs', unit: 'orcs/orc-warriors', charging: true, contact: { front: 3 } }] },
      { name: 'Empire', units: [{ id: 'halberdiers', unit: 'empire/halberdiers', position: 'defended', contact: { front: 3 } }] },
    ),
  },
  {
    // §13: hits on 6 against FORTIFIED Dwarf Warriors (Sv4), no charge bonus.
    label: 'Black Orcs assault FORTIFIED Dwarf Warriors',
    scenario: engagement(
      { name: 'Orcs', units: [{ id: 'black-orcs', unit: 'orcs/black-orcs', charging: true, contact: { front: 3 } }] },
      { name: 'Dwarfs', units: [{ id: 'warriors', unit: 'dwarfs/warriors', position: 'fortified', contact: { front: 3 } }] },
    ),
  },
  {
    // §13: armourPiercing Halberdiers turn the Boar Riders' 5+ into 6+.
    label: 'Boar Riders charge armour-piercing Halberdiers',
    scenario: engagement(
      { name: 'Orcs', units: [{ id: 'boars', unit: 'orcs/boar-riders', charging: true, contact: { front: 3 } }] },
      { name: 'Empire', units: [{ id: 'halberdiers', unit: 'empire/halberdiers', armourPiercing: true, contact: { front: 3 } }] },
    ),
  },
  {
    // §12: A1 −1 terror −1 flank −1 confused → 0: the last-ditch die, which destroys the Giant (7 hits
    // on, 1 left) with 1/3; the Giant's 10 dice (+2 monster charge) destroy the 2 stands on ≥ 6 hits.
    label: 'wounded Giant charges the flank of confused Waywatchers (last-ditch die)',
    scenario: engagement(
      { name: 'Orcs', units: [{ id: 'giant', unit: 'orcs/giant', hits: 7, charging: true, contact: { front: 1 } }] },
      { name: 'Wood Elves', units: [{ id: 'waywatchers', unit: 'wood-elves/waywatchers', confused: true, contact: { flank: 1 } }] },
    ),
  },
  {
    // §15: 1 supporting stand (+1); the third orc stand touches corner to corner and fights at full Attack.
    label: 'Orc Warriors charge Halberdiers with 1 support',
    scenario: engagement(
      { name: 'Orcs', units: [{ id: 'orcs', unit: 'orcs/orc-warriors', charging: true, contact: { front: 2, corner: 1 } }] },
      { name: 'Empire', units: [{ id: 'halberdiers', unit: 'empire/halberdiers', contact: { front: 2 }, supports: 1 }] },
    ),
  },
  {
    // §15: a Dwarf column with 2 supporting stands (+2) charged by a line of Orcs.
    label: 'Orc Warriors charge a Dwarf column with 2 supports',
    scenario: engagement(
      { name: 'Orcs', units: [{ id: 'orcs', unit: 'orcs/orc-warriors', charging: true, contact: { front: 1, corner: 2 } }] },
      { name: 'Dwarfs', units: [{ id: 'warriors', unit: 'dwarfs/warriors', contact: { front: 1 }, supports: 2 }] },
    ),
  },
  {
    // §15/§16: a separate supporting unit (+3) in the engagement; when Empire loses, 2 units share
    // the difference (⌈d/2⌉).
    label: 'Halberdiers supported by a second-line Crossbowmen unit',
    scenario: engagement(
      {
        name: 'Empire',
        units: [
          { id: 'halberdiers', unit: 'empire/halberdiers', contact: { front: 3 } },
          { id: 'crossbowmen', unit: 'empire/crossbowmen', supports: 3, supporting: 'halberdiers' },
        ],
      },
      { name: 'Orcs', units: [{ id: 'orcs', unit: 'orcs/orc-warriors', charging: true, contact: { front: 3 } }] },
    ),
  },
  {
    // 2 vs 1: Knights charge the orc line's end stand in the flank (it fights them at −1); both Empire
    // units' hits fill one cap on the Orcs; a retreating Empire side divides by 2.
    label: '2 vs 1: Halberdiers in front, Knights charging the flank',
    scenario: engagement(
      {
        name: 'Empire',
        units: [
          { id: 'halberdiers', unit: 'empire/halberdiers', contact: { target: 'orcs', front: 2 }, supports: 1 },
          { id: 'knights', unit: 'empire/knights', charging: true, contact: { target: 'orcs', front: 1 } },
        ],
      },
      {
        name: 'Orcs',
        units: [
          {
            id: 'orcs',
            unit: 'orcs/orc-warriors',
            contact: [
              { target: 'halberdiers', front: 2 },
              { target: 'knights', flank: 1 },
            ],
          },
        ],
      },
    ),
  },
  {
    // §12: monster charge +2 (10 dice); terror −1 on every Halberdier stand touching it.
    label: 'Giant charges Halberdiers (monster charge, terror)',
    scenario: engagement(
      { name: 'Orcs', units: [{ id: 'giant', unit: 'orcs/giant', charging: true, contact: { front: 1 } }] },
      { name: 'Empire', units: [{ id: 'halberdiers', unit: 'empire/halberdiers', contact: { front: 1, corner: 2 } }] },
    ),
  },
  {
    // Step 6: both sides are one battered stand; a side destroyed loses even with the higher result,
    // both destroyed is a draw, and a destroyed loser retreats 0.
    label: 'a wounded Knight stand charges wounded Boar Riders (destruction decides)',
    scenario: engagement(
      { name: 'Empire', units: [{ id: 'knights', unit: 'empire/knights', stands: 1, hits: 1, charging: true, contact: { front: 1 } }] },
      { name: 'Orcs', units: [{ id: 'boars', unit: 'orcs/boar-riders', stands: 2, hits: 2, contact: { front: 1, corner: 1 } }] },
    ),
  },
  {
    // §15: Dwarf Handgunners shoot the charging Knights (armour one worse: 5+), the hits count for
    // round 1 and share the cap with the combat hits; 3 hits remove a Knight stand before it fights.
    label: 'Knights charge Dwarf Handgunners who shoot at the chargers',
    scenario: engagement(
      { name: 'Empire', units: [{ id: 'knights', unit: 'empire/knights', charging: true, contact: { front: 3 } }] },
      { name: 'Dwarfs', units: [{ id: 'handgunners', unit: 'dwarfs/handgunners', shootsAtChargers: true, contact: { front: 3 } }] },
    ),
  },
  {
    // §15: wounded Wolf Riders (2 hits on) charge Handgunners: every shooting hit (no save) removes a
    // stand before round 1, so fewer stands fight; shooting + combat hits share the cap of 7.
    label: 'wounded Wolf Riders charge Empire Handgunners through their shots',
    scenario: engagement(
      { name: 'Orcs', units: [{ id: 'wolves', unit: 'orcs/wolf-riders', hits: 2, charging: true, contact: { front: 3 } }] },
      { name: 'Empire', units: [{ id: 'handgunners', unit: 'empire/handgunners', shootsAtChargers: true, contact: { front: 3 } }] },
    ),
  },
  {
    // Option shootingCasualties: after-round-1 (rulings §15): the same shots, but every Wolf Rider
    // stand fights round 1 (9 dice); the combat cap is what the shots left (7 − shooting hits).
    label: 'wounded Wolf Riders through Handgunner shots, casualties after round 1',
    scenario: warmasterScenario({
      options: { shootingCasualties: 'after-round-1' },
      sides: [
        { name: 'Orcs', units: [{ id: 'wolves', unit: 'orcs/wolf-riders', hits: 2, charging: true, contact: { front: 3 } }] },
        { name: 'Empire', units: [{ id: 'handgunners', unit: 'empire/handgunners', shootsAtChargers: true, contact: { front: 3 } }] },
      ],
    }),
  },
  {
    // chargeBonusD6: 5 + 1 + D6 dice (a mixture over the D6); the Doom Wheel also causes terror.
    label: 'Doom Wheel charges Halberdiers (+D6 charge dice)',
    scenario: engagement(
      { name: 'Skaven', units: [{ id: 'doom-wheel', unit: 'skaven/doom-wheel', charging: true, contact: { front: 1 } }] },
      { name: 'Empire', units: [{ id: 'halberdiers', unit: 'empire/halberdiers', contact: { front: 1, corner: 2 } }] },
    ),
  },
  {
    // bonusAttackVsMonsters +1 and immuneToTerror: 18 Slayer dice against the charging Giant (cap 8).
    label: 'Giant charges Troll Slayers (bonus vs monsters, immune to terror)',
    scenario: engagement(
      { name: 'Orcs', units: [{ id: 'giant', unit: 'orcs/giant', charging: true, contact: { front: 1 } }] },
      { name: 'Dwarfs', units: [{ id: 'slayers', unit: 'dwarfs/troll-slayers', contact: { front: 1, corner: 2 } }] },
    ),
  },
  {
    // 2 vs 3: firstRoundFrontBonus (Cold One Knights 3+1+1), two separate fights, B supported by
    // Handgunners (+3); a losing Empire side divides by 3, a losing Dark Elf side by 2.
    label: '2 vs 3: Cold One Knights and Spearmen charge an Empire line',
    scenario: engagement(
      {
        name: 'Dark Elves',
        units: [
          { id: 'cold-ones', unit: 'dark-elves/cold-one-knights', charging: true, contact: { target: 'halberdiers', front: 3 } },
          { id: 'spearmen', unit: 'dark-elves/spearmen', charging: true, contact: { target: 'crossbowmen', front: 3 } },
        ],
      },
      {
        name: 'Empire',
        units: [
          { id: 'halberdiers', unit: 'empire/halberdiers', contact: { target: 'cold-ones', front: 3 } },
          { id: 'crossbowmen', unit: 'empire/crossbowmen', contact: { target: 'spearmen', front: 3 } },
          { id: 'handgunners', unit: 'empire/handgunners', supports: 3, supporting: 'halberdiers' },
        ],
      },
    ),
  },
  // Known answers, by hand.
  {
    // 1 die each (A2 −1 confused), 4+, no armour: each side wins 1/2·1/2; else a draw. Retreat 1.
    label: 'known answer: two confused single Goblin stands, 1 die vs 1 die',
    scenario: engagement(
      { name: 'Orcs', units: [{ id: 'gobbos', unit: 'orcs/goblins', stands: 1, confused: true, contact: { front: 1 } }] },
      { name: 'Goblins', units: [{ id: 'gits', unit: 'goblins/goblins', stands: 1, confused: true, contact: { front: 1 } }] },
    ),
    hand: { aWins: 1 / 4, bWins: 1 / 4, draw: 1 / 2, retreat: Float64Array.of(1 / 2, 1 / 2) },
  },
  {
    // Knight stand A3 −1 confused −1 flank = 1 die, 4+ vs no armour: 1/2; the confused Goblin's 1 die
    // vs Sv4: 1/4. Knights win 1/2·3/4 = 3/8, Goblins 1/4·1/2 = 1/8, draw 1/2.
    label: "known answer: confused Knight stand in a confused Goblin stand's flank, 1 die vs 1 die",
    scenario: engagement(
      { name: 'Empire', units: [{ id: 'knight', unit: 'empire/knights', stands: 1, confused: true, contact: { flank: 1 } }] },
      { name: 'Orcs', units: [{ id: 'gobbos', unit: 'orcs/goblins', stands: 1, confused: true, contact: { front: 1 } }] },
    ),
    hand: { aWins: 3 / 8, bWins: 1 / 8, draw: 1 / 2, retreat: Float64Array.of(1 / 2, 1 / 2) },
  },
  {
    // Goblin stand: 2 −1 confused −1 flank −1 terror → last-ditch die, hits the Giant (7 hits on, 1
    // left) with 1/2·2/3 = 1/3 and destroys it. The Giant's 8 dice (1/2 each) destroy the Goblin
    // stand on ≥ 3 hits (219/256). Goblin hits: both dead (draw) or Goblins win; Goblin misses: the
    // Giant wins unless it scores 0 (draw), retreat = its hits when 1 or 2, 0 when the Goblin died.
    label: 'known answer: last-ditch Goblin die against a Giant with one hit left',
    scenario: engagement(
      { name: 'Orcs', units: [{ id: 'gobbos', unit: 'orcs/goblins', stands: 1, confused: true, contact: { flank: 1 } }] },
      { name: 'Giants', units: [{ id: 'giant', unit: 'goblins/giant', hits: 7, contact: { front: 1 } }] },
    ),
    hand: {
      aWins: 37 / 768,
      bWins: 510 / 768,
      draw: 221 / 768,
      retreat: Float64Array.of(696 / 768, 16 / 768, 56 / 768),
    },
  },
];

describe('the Warmaster round-1 oracle itself', () => {
  it('scores one die as rulings §13 says', () => {
    expect(takenPerDie(4, null, false)).toBe(1 / 2);
    expect(takenPerDie(5, 4, false)).toBeCloseTo((1 / 3) * (1 / 2), 15);
    expect(takenPerDie(6, 6, false)).toBeCloseTo((1 / 6) * (5 / 6), 15);
    expect(takenPerDie(4, 6, true)).toBe(1 / 2); // 6+ one worse: no save
    expect(takenPerDie(4, 3, true)).toBeCloseTo((1 / 2) * (1 / 2), 15);
  });

  for (const { label, scenario, hand } of cases) {
    it(`is a distribution: ${label}`, () => {
      const exact = exactRound1(scenario, armyUnits());
      expect(Math.abs(exact.aWins + exact.bWins + exact.draw - 1)).toBeLessThan(1e-12);
      expect(Math.abs(total(exact.retreat) - 1)).toBeLessThan(1e-12);
      // A draw always retreats 0; so does a win over a destroyed side.
      expect(exact.retreat[0]).toBeGreaterThanOrEqual(exact.draw - 1e-12);
      for (const p of [exact.aWins, exact.bWins, exact.draw, ...exact.retreat]) expect(p).toBeGreaterThanOrEqual(0);
      if (hand !== undefined) {
        expect(exact.aWins).toBeCloseTo(hand.aWins, 14);
        expect(exact.bWins).toBeCloseTo(hand.bWins, 14);
        expect(exact.draw).toBeCloseTo(hand.draw, 14);
        expect(exact.retreat.length).toBe(hand.retreat.length);
        hand.retreat.forEach((p, v) => expect(exact.retreat[v]).toBeCloseTo(p, 14));
      }
    });
  }
});

describe('Warmaster round 1: engine vs the exact oracle', () => {
  cases.forEach(({ label, scenario }, k) => {
    it(label, () => {
      const exact = exactRound1(scenario, armyUnits());
      const kernel = compileWarmaster(scenario, armyUnits(), 'dice');
      const tally = new Tally(kernel.metrics);
      runWithDice(kernel, streamDice(SEED, k), TRIALS, tally);

      const labels = kernel.metrics.find((m) => m.name === 'round1')?.labels ?? [];
      const [nameA, nameB] = scenario.sides.map((side) => side.name);
      const byLabel = new Map<string, number>([
        ['not fought', 0],
        [nameA ?? 'A', exact.aWins],
        [nameB ?? 'B', exact.bWins],
        ['draw', exact.draw],
      ]);
      expect(labels).toEqual(['not fought', nameA, nameB, 'draw']);
      expectMatchesExact(
        tally,
        'round1',
        Float64Array.from(labels, (name) => byLabel.get(name) ?? 0),
      );
      expectMatchesExact(tally, 'retreat', exact.retreat);

      const { statistic, df } = chiSquareFit(tally.histogram('retreat'), exact.retreat, TRIALS);
      expect(df).toBeGreaterThanOrEqual(1);
      expect(statistic, `retreat χ² with ${df} df`).toBeLessThan(chiSquareCritical(ALPHA, df));
    });
  });
});

/**
 * A round of combat as one action (`maxRounds: 1`): exact enumeration (sim/exact.ts, each strike's
 * hits after saves drawn from its binomial table) equals the oracle to 1e-12 — the round's result
 * and the whole retreat distribution.
 */
describe('Warmaster round 1: exact enumeration of a one-round scenario equals the oracle', () => {
  cases.forEach(({ label, scenario }) => {
    it(label, () => {
      const oracle = exactRound1(scenario, armyUnits());
      const exact = enumerate(compileWarmaster({ ...scenario, maxRounds: 1 }, armyUnits(), 'tables'), label);
      // round1's values: 0 not fought, 1 side A, 2 side B, 3 draw.
      expectSameProbabilities('round1', exact.probabilities('round1'), [0, oracle.aWins, oracle.bWins, oracle.draw], 1e-12);
      expectSameProbabilities('retreat', exact.probabilities('retreat'), oracle.retreat, 1e-12);
      expect(exact.probabilities('rounds')[1]).toBe(1);
    });
  });
});
