import { describe, expect, it } from 'vitest';
import { streamDice } from '../../engine/dice/index.js';
import { compileWarmaster } from '../../engine/warmaster/index.js';
import type { ScenarioInput } from '../../engine/warmaster/schema.js';
import { armyUnits, faces, scriptedWarmasterTrial, warmasterScenario } from './scenarios.js';

/**
 * Warmaster rules with forced dice (ScriptedDice). Dice order (engine/warmaster/README.md): units in
 * file order (side A's first), each rolls its attack dice then the target's saves; a draw rolls
 * 3D6 for side A then side B. Every trial asserts `remaining === 0`: an unexpected extra roll makes
 * ScriptedDice throw, a skipped one leaves a face unused.
 */

type Sides = ScenarioInput['sides'];
const knightsVsOrcs = (knights: object = {}, orcs: object = {}): Sides => [
  { name: 'Empire', units: [{ id: 'knights', unit: 'empire/knights', charging: true, contact: { front: 3 }, ...knights }] },
  { name: 'Orcs', units: [{ id: 'orcs', unit: 'orcs/orc-warriors', contact: { front: 3 }, ...orcs }] },
];

describe('a hand-traced chain: Knights charge Orc Warriors, pursue twice, the combat goes unresolved into turn 2', () => {
  // Knights A3 H3 Armour 4+; Orc Warriors A4 H3 Armour 6+; both pursue whenever they may.
  const script = [
    // Round 1 (turn 1). Knights charge in the open: 3 stands × (3 + 1) = 12 dice; 7 hit on 4+.
    ...[6, 6, 6, 5, 5, 4],
    ...[4, 3, 2, 1, 1, 1],
    // Orc saves on 6+: 1 of 7 → 6 hits taken.
    ...[6, 1, 1, 1, 1, 1],
    1,
    // Orcs: 3 × 4 = 12 dice, 2 hits; Knights save 1 of 2 on 4+ → 1 taken.
    ...faces(6, 1),
    ...[2, 2, 3, 3, 4, 5],
    ...[4, 1],
    // Result 6–1: Orcs lose 2 stands (6 hits), retreat 5 cm; Knights pursue at +1 +1 (one full 3 cm).
    // Round 2 (turn 1): Knights 3 × (3 + 2) = 15 dice, 1 hit, not saved; the 1 Orc stand rolls 4 dice, no hit.
    ...[4, 1, 1, 1, 1, 1],
    ...faces(6, 1),
    ...faces(3, 1),
    1,
    ...faces(4, 1),
    // Result 1–0: Orcs retreat 1 cm; the Knights pursue a second time: unresolved, on to turn 2.
    // Round 3 (turn 2): pursuit +1, +0 for the 1 cm: 3 × 4 = 12 dice, all miss; Orcs 4 hits, none saved.
    ...faces(12, 1),
    ...[6, 6, 6, 6],
    ...faces(4, 1),
    // Result 0–4: the Knights (1 + 4 = 5 hits: one stand off, 2 carried) retreat 4 cm; infantry cannot
    // pursue cavalry, so the Orcs stand and the engagement ends.
  ];
  const trial = () => scriptedWarmasterTrial(warmasterScenario({ maxTurns: 2, sides: knightsVsOrcs() }), script);

  it('records each round, the rounds, turns and pursuits', () => {
    const result = trial();
    expect([1, 2, 3, 4].map((round) => result.metric(`round${round}`))).toEqual([1, 1, 2, 0]);
    expect(result.metric('winner')).toBe(1);
    expect(result.metric('rounds')).toBe(3);
    expect(result.metric('turns')).toBe(2);
    expect(result.metric('pursuits')).toBe(2);
    expect(result.metric('retreat')).toBe(5);
    expect(result.remaining).toBe(0);
  });

  it('records the stands each side lost', () => {
    const result = trial();
    expect(result.metric('knights.standsLost')).toBe(1);
    expect(result.metric('orcs.standsLost')).toBe(2);
    expect(result.metric('A.standsLost')).toBe(1);
    expect(result.metric('B.standsLost')).toBe(2);
    expect(result.metric('A.unitsDestroyed') + result.metric('B.unitsDestroyed')).toBe(0);
    expect(result.metric('A.fallBack') + result.metric('B.fallBack')).toBe(0);
  });

  it('with maxTurns 1 the same dice leave it unresolved after round 2', () => {
    const result = scriptedWarmasterTrial(
      warmasterScenario({ maxTurns: 1, sides: knightsVsOrcs() }),
      script.slice(0, 12 + 7 + 12 + 2 + 15 + 1 + 4),
    );
    expect(result.metric('winner')).toBe(3);
    expect(result.metric('rounds')).toBe(2);
    expect(result.remaining).toBe(0);
  });
});

describe('retreat distance: the difference ÷ losing units, rounded up, at least 1 cm (rulings §16)', () => {
  // Knights (policy stand, so the engagement ends after round 1) against Orcs with a supporting unit.
  const supported = (knightHits: number, supports: number) =>
    scriptedWarmasterTrial(
      warmasterScenario({
        sides: [
          { name: 'Empire', policy: 'stand', units: [{ id: 'knights', unit: 'empire/knights', charging: true, contact: { front: 3 } }] },
          {
            name: 'Orcs',
            units: [
              { id: 'orcs', unit: 'orcs/orc-warriors', contact: { front: 3 } },
              { id: 'support', unit: 'orcs/orc-warriors', supports },
            ],
          },
        ],
      }),
      // Knights: 12 dice, `knightHits` sixes; saves all fail; Orcs: 12 dice all miss.
      [...faces(knightHits, 6), ...faces(12 - knightHits, 1), ...faces(knightHits, 1), ...faces(12, 1)],
    );

  it('8 hits against 3 supports, two losing units: ⌈5 / 2⌉ = 3 cm', () => {
    const result = supported(8, 3);
    expect(result.metric('round1')).toBe(1);
    expect(result.metric('retreat')).toBe(3);
    expect(result.metric('orcs.standsLost')).toBe(2);
    expect(result.remaining).toBe(0);
  });

  it('7 hits against 1 support: ⌈6 / 2⌉ = 3 cm; 6 against 1: ⌈5 / 2⌉ = 3; 4 against 3: ⌈1 / 2⌉ = 1', () => {
    expect(supported(7, 1).metric('retreat')).toBe(3);
    expect(supported(6, 1).metric('retreat')).toBe(3);
    expect(supported(4, 3).metric('retreat')).toBe(1);
  });

  it('hits beyond what the unit can take do not count: 12 hits on 9 Hits, result 9 − 3 = 6, ⌈6 / 2⌉ = 3 cm', () => {
    const result = supported(12, 3);
    expect(result.metric('orcs.destroyedInRound')).toBe(1);
    expect(result.metric('retreat')).toBe(3);
    expect(result.metric('support.destroyedInRound')).toBe(0);
  });
});

describe('draws: equal results, both sides fall back 3D6 cm', () => {
  it('3 hits each: a draw, then 3D6 for Empire and for Orcs', () => {
    const result = scriptedWarmasterTrial(warmasterScenario({ sides: knightsVsOrcs() }), [
      ...faces(3, 6),
      ...faces(9, 1),
      ...faces(3, 1), // Knights: 3 hits, none saved
      ...faces(3, 6),
      ...faces(9, 1),
      ...faces(3, 1), // Orcs: 3 hits, none saved
      2,
      4,
      6,
      1,
      1,
      1, // fall backs
    ]);
    expect(result.metric('round1')).toBe(3);
    expect(result.metric('winner')).toBe(2);
    expect(result.metric('A.fallBack')).toBe(12);
    expect(result.metric('B.fallBack')).toBe(3);
    expect(result.metric('retreat')).toBe(0);
    expect(result.remaining).toBe(0);
  });
});

describe('modifiers and the last-ditch die, counted in dice rolled', () => {
  /** When every die misses there are no saves, and the 0–0 draw rolls 3D6 per side: 6 dice more. */
  const DRAW_DICE = 6;
  /** Attack dice rolled in round 1 by both units when everything misses. */
  const firstUnitDice = (knights: object, orcs: object = {}): number => {
    const total = 60;
    const trial = scriptedWarmasterTrial(warmasterScenario({ sides: knightsVsOrcs(knights, orcs) }), faces(total, 1));
    return total - trial.remaining - DRAW_DICE;
  };

  it('charging in the open +1; none against defended infantry, nor without a charge', () => {
    expect(firstUnitDice({}) - 12).toBe(12); // Knights 3 × (3 + 1), Orcs 12
    expect(firstUnitDice({}, { position: 'defended' }) - 12).toBe(9);
    expect(firstUnitDice({ charging: false }) - 12).toBe(9);
  });

  it('terror −1 (the Orcs touching a terrifying unit), a character +2 on one stand, confusion −1', () => {
    expect(firstUnitDice({ flags: { terror: true } }) - 12 + 3).toBe(12); // Orcs 3 × (4 − 1) = 9
    expect(firstUnitDice({ characters: ['empire/general'] }) - 12).toBe(14);
    expect(firstUnitDice({ confused: true }) - 12).toBe(9);
  });

  it('flank contact −1 per stand; monster charge +2', () => {
    expect(firstUnitDice({}, { contact: { front: 2, flank: 1 } })).toBe(12 + 4 + 4 + 3);
    const giant = scriptedWarmasterTrial(
      warmasterScenario({
        sides: [
          { name: 'Orcs', policy: 'stand', units: [{ id: 'giant', unit: 'orcs/giant', charging: true, contact: { front: 1 } }] },
          { name: 'Empire', policy: 'stand', units: [{ id: 'halberdiers', unit: 'empire/halberdiers', contact: { front: 2 } }] },
        ],
      }),
      faces(60, 1),
    );
    // Giant 8 + 2 = 10 dice; Halberdiers 2 stands × (3 − 1 terror) = 4.
    expect(60 - giant.remaining - DRAW_DICE).toBe(14);
  });

  it('the last-ditch die: a unit whose stands are all at 0 still rolls one die', () => {
    // Goblins A2, confused (−1) and touching a terrifying enemy (−1) in the flank (−1): 0 each.
    const trial = scriptedWarmasterTrial(
      warmasterScenario({
        sides: [
          { name: 'Orcs', policy: 'stand', units: [{ id: 'goblins', unit: 'orcs/goblins', confused: true, contact: { flank: 3 } }] },
          { name: 'Chaos', policy: 'stand', units: [{ id: 'spawn', unit: 'chaos/chaos-spawn', contact: { front: 1 } }] },
        ],
      }),
      faces(60, 1),
    );
    expect(60 - trial.remaining - DRAW_DICE).toBe(1 + 3); // the Goblins' one die, the Spawn's 3
  });
});

/** Over many seeded trials: after `side` wins round 1 with the loser still standing, is round 2 fought? */
function pursuesAfterWinning(input: ScenarioInput['sides'], side: number, trials = 4000): { won: number; pursued: number } {
  const kernel = compileWarmaster(warmasterScenario({ sides: input }), armyUnits(), 'dice');
  const names = kernel.metrics.map((metric) => metric.name);
  const at = (name: string) => names.indexOf(name);
  const loser = input[1 - side]?.units[0]?.id ?? '';
  const dice = streamDice(20261122, 0);
  const row = new Int32Array(names.length);
  let won = 0;
  let pursued = 0;
  for (let trial = 0; trial < trials; trial++) {
    kernel.trial(dice, row);
    if (row[at('round1')] !== 1 + side || row[at(`${loser}.destroyedInRound`)] === 1) continue;
    won++;
    if (row[at('round2')] !== 0) pursued++;
  }
  return { won, pursued };
}

describe('pursuit restrictions by troop type (rulings §17)', () => {
  const infantryVsCavalry = (orcs: object, knights: object = {}) => [
    { name: 'Orcs', units: [{ id: 'orcs', unit: 'orcs/orc-warriors', contact: { front: 3 }, ...orcs }] },
    { name: 'Empire', units: [{ id: 'knights', unit: 'empire/knights', contact: { front: 3 }, ...knights }] },
  ];
  const cases: { name: string; sides: Sides; side: number; pursues: boolean }[] = [
    { name: 'cavalry pursue infantry', sides: knightsVsOrcs(), side: 0, pursues: true },
    { name: 'infantry never pursue cavalry', sides: infantryVsCavalry({ charging: true }), side: 0, pursues: false },
    {
      name: '… unless they charged it in the flank',
      sides: infantryVsCavalry({ charging: true }, { contact: { flank: 3 } }),
      side: 0,
      pursues: true,
    },
    {
      name: '… or it was in irregular formation',
      sides: infantryVsCavalry({ charging: true }, { irregular: true }),
      side: 0,
      pursues: true,
    },
    {
      name: '… or they may (Dwarf Rangers)',
      sides: [
        { name: 'Dwarfs', units: [{ id: 'rangers', unit: 'dwarfs/rangers', contact: { front: 3 } }] },
        infantryVsCavalry({})[1] as Sides[number],
      ],
      side: 0,
      pursues: true,
    },
    {
      name: 'artillery never pursue',
      sides: [
        { name: 'Empire', units: [{ id: 'cannon', unit: 'empire/cannon', contact: { front: 2 } }] },
        { name: 'Orcs', units: [{ id: 'goblins', unit: 'orcs/goblins', contact: { front: 2 } }] },
      ],
      side: 0,
      pursues: false,
    },
    {
      name: 'fortified units never pursue',
      sides: [
        { name: 'Dwarfs', units: [{ id: 'dwarfs', unit: 'dwarfs/warriors', position: 'fortified', contact: { front: 3 } }] },
        { name: 'Orcs', units: [{ id: 'goblins', unit: 'orcs/goblins', charging: true, contact: { front: 3 } }] },
      ],
      side: 0,
      pursues: false,
    },
    {
      name: 'non-flyers never pursue flyers',
      sides: [
        { name: 'Orcs', units: [{ id: 'orcs', unit: 'orcs/black-orcs', contact: { front: 3 } }] },
        { name: 'Chaos', units: [{ id: 'harpies', unit: 'chaos/harpies', charging: true, contact: { front: 3 } }] },
      ],
      side: 0,
      pursues: false,
    },
    {
      name: 'nobody follows into terrain it cannot enter',
      sides: knightsVsOrcs({}, { retreatTerrain: ['cavalry'] }),
      side: 0,
      pursues: false,
    },
    {
      name: 'policy stand never pursues',
      sides: knightsVsOrcs().map((side, s) => (s === 0 ? { ...side, policy: 'stand' as const } : side)),
      side: 0,
      pursues: false,
    },
  ];
  for (const testCase of cases) {
    it(testCase.name, () => {
      const { won, pursued } = pursuesAfterWinning(testCase.sides, testCase.side);
      expect(won).toBeGreaterThan(50); // enough round-1 wins to tell
      expect(pursued).toBe(testCase.pursues ? won : 0);
    });
  }
});
