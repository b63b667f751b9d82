import { describe, expect, it } from 'vitest';
import {
  compileBattleforge,
  type ScenarioInput,
  scenarioSchema,
  type UnitProfile,
  type WeaponProfile,
} from '../../engine/battleforge/index.js';
import { ScriptedDice } from '../../engine/dice/index.js';

/**
 * Battle Forge game mechanics with forced dice (ScriptedDice), one-round games (`rounds: 1`).
 * Roll order (engine/battleforge/README.md "A round", and as the scripts below pin it down):
 * - bidding: Shock from bids, then on a tie (or no side with a bonus) a roll-off, A's D10 then B's,
 *   the higher wins, equal rolls re-rolled;
 * - each activation: one Courage test per Shock, then the plan's actions;
 * - an attack: hit dice, then one save per hit, then (after Shock) break tests;
 * - a Counter Attack: the reaction's Initiative test (unless on Hold), the attacker's hit dice, the
 *   reacting unit's hit dice, the reacting unit's saves, the attacker's saves, then break tests;
 * - a broken unit in melee: its Initiative test, then (if failed) the free attack's hits and saves.
 * Every trial asserts `remaining === 0`: an unexpected extra roll makes ScriptedDice throw, a
 * skipped one leaves a face unused. Test profiles are invented ("test/…"): Save 5, Initiative 5.
 */

const bow: WeaponProfile = { name: 'Bow', attacks: 1, copies: 1, ap: 0, melee: false, short: 12, long: 24 };
const spear: WeaponProfile = { name: 'Spear', attacks: 1, copies: 1, ap: 0, melee: true, short: 0, long: 0 };
function unit(id: string, count: number, courage: number, more: { wounds?: number; save?: number } = {}): UnitProfile {
  const model = {
    name: id,
    count,
    hasCharacteristics: true,
    movement: 6,
    accuracy: 5,
    strength: 5,
    save: more.save ?? 5,
    initiative: 5,
    courage,
    wounds: more.wounds ?? 1,
    weapons: [bow, spear],
  };
  return { reference: `test/${id}`, name: id, models: [model] };
}
const profiles = new Map(
  [unit('archers', 4, 9), unit('shaky', 1, 3), unit('ogres', 2, 9, { wounds: 3, save: 4 }), unit('c6', 4, 6), unit('c7', 4, 7)].map((p) => [
    p.reference,
    p,
  ]),
);

type SideInput = ScenarioInput['sides'][number];
type UnitInput = SideInput['units'][number];
const side = (name: string, plan: SideInput['plan'], units: UnitInput[], more: Partial<SideInput> = {}): SideInput => ({
  name,
  plan,
  units,
  ...more,
});
const one = (id: string, ref: string, more: Partial<UnitInput> = {}): UnitInput[] => [{ id, unit: `test/${ref}`, ...more }];

function scripted(distance: number, a: SideInput, b: SideInput, faces: readonly number[]) {
  const scenario = scenarioSchema.parse({ ruleset: 'battleforge', name: 'scripted', mode: 'game', rounds: 1, distance, sides: [a, b] });
  const kernel = compileBattleforge(scenario, profiles, new Map(), 'dice'); // every die scripted: method dice
  const row = new Int32Array(kernel.metrics.length);
  const dice = new ScriptedDice(faces);
  kernel.trial(dice, row);
  const metric = (name: string): number => {
    const index = kernel.metrics.findIndex((m) => m.name === name);
    if (index < 0) throw new Error(`no metric ${name}`);
    return row[index] as number;
  };
  return { metric, remaining: dice.remaining };
}
const WINNER_A = 0;
const WINNER_NONE = 2;
const ROLL_OFF_A = [9, 2];
const ROLL_OFF_B = [2, 9];

describe('break tests (rulings §22)', () => {
  // A (1 archer, shoot-and-hold) shoots B at 10"; B (hold-for-overwatch) never shoots back.
  const shakyGame = (shock: number, faces: number[]) =>
    scripted(
      10,
      side('A', 'shoot-and-hold', one('a', 'archers', { models: 1 })),
      side('B', 'hold-for-overwatch', one('b', 'shaky', { shock })),
      faces,
    );

  it('a hit that takes Shock to Courage (3) forces a break test; failing it breaks the unit and B, with nothing left, loses', () => {
    // Roll-off; hit 1; save 1 (saved: the Shock still counts, on hits); break test 10 fails.
    const game = shakyGame(2, [...ROLL_OFF_A, 1, 1, 10]);
    expect(game.metric('b.shock')).toBe(3);
    expect(game.metric('b.broke')).toBe(1);
    expect(game.metric('B.unitsBroken')).toBe(1);
    expect(game.metric('winner')).toBe(WINNER_A);
    expect(game.metric('decisiveRound')).toBe(1);
    expect(game.remaining).toBe(0);
  });

  it('a passed break test keeps the unit: it activates, testing each of its 3 Shock', () => {
    const game = shakyGame(2, [...ROLL_OFF_A, 1, 1, 3, 10, 10, 10]);
    expect(game.metric('b.broke')).toBe(0);
    expect(game.metric('b.shock')).toBe(3);
    expect(game.metric('winner')).toBe(WINNER_NONE);
    expect(game.remaining).toBe(0);
  });

  it('Shock below Courage: no break test (the next die is an activation Shock test)', () => {
    const game = shakyGame(1, [...ROLL_OFF_A, 1, 1, 10, 1]);
    expect(game.metric('b.shock')).toBe(1);
    expect(game.metric('b.broke')).toBe(0);
    expect(game.remaining).toBe(0);
  });

  it('a broken unit does not lose the game while its side has another unit', () => {
    // b1 stands 10" from A (the nearest target); b2 on B's line, 20" away, only Holds.
    const b = side('B', 'hold-for-overwatch', [
      { id: 'b1', unit: 'test/shaky', shock: 2, position: 10 },
      { id: 'b2', unit: 'test/archers' },
    ]);
    const game = scripted(20, side('A', 'shoot-and-hold', one('a', 'archers', { models: 1 })), b, [...ROLL_OFF_A, 1, 1, 10]);
    expect(game.metric('b1.broke')).toBe(1);
    expect(game.metric('B.unitsBroken')).toBe(1);
    expect(game.metric('winner')).toBe(WINNER_NONE);
    expect(game.remaining).toBe(0);
  });

  // 4 archers (Courage 9) shoot 4 archers: 4 hits, then the saves decide the losses.
  const volley = (target: string, saves: number[], rest: number[]) =>
    scripted(10, side('A', 'shoot-and-hold', one('a', 'archers')), side('B', 'hold-for-overwatch', one('b', target)), [
      ...ROLL_OFF_A,
      1,
      1,
      1,
      1,
      ...saves,
      ...rest,
    ]);

  it('losing more than half the models (3 of 4) in one attack forces a break test', () => {
    const game = volley('archers', [10, 10, 10, 1], [10]);
    expect(game.metric('b.modelsLost')).toBe(3);
    expect(game.metric('b.broke')).toBe(1);
    expect(game.metric('winner')).toBe(WINNER_A);
    expect(game.remaining).toBe(0);
  });

  it("losing exactly half (2 of 4) does not: the next die is B's activation Shock test", () => {
    const game = volley('archers', [10, 10, 1, 1], [1]);
    expect(game.metric('b.modelsLost')).toBe(2);
    expect(game.metric('b.broke')).toBe(0);
    expect(game.metric('b.shock')).toBe(0);
    expect(game.remaining).toBe(0);
  });

  it('Wounds(3): losing 4 of 6 Wounds (1 of 2 models) forces a break test', () => {
    const game = volley('ogres', [10, 10, 10, 10], [10]);
    expect(game.metric('b.woundsLost')).toBe(4);
    expect(game.metric('b.modelsLost')).toBe(1);
    expect(game.metric('b.broke')).toBe(1);
    expect(game.remaining).toBe(0);
  });

  it('Wounds(3): losing exactly half the Wounds (3 of 6) does not', () => {
    const game = volley('ogres', [10, 10, 10, 1], [1]);
    expect(game.metric('b.woundsLost')).toBe(3);
    expect(game.metric('b.modelsLost')).toBe(1);
    expect(game.metric('b.broke')).toBe(0);
    expect(game.remaining).toBe(0);
  });
});

describe('Counter Attack: simultaneous shooting (rulings §23, "Simultaneous Actions")', () => {
  it('before activating (Initiative test): 4 archers shoot back although 3 of them are killed by the Shoot', () => {
    const faces = [
      ...ROLL_OFF_A,
      5, // B's Initiative test for the reaction: passes
      1,
      1,
      1,
      1, // A's 4 hit dice: 4 hits
      1,
      1,
      10,
      10, // B's 4 hit dice (pre-attack count): 2 hits
      10,
      10,
      10,
      1, // B's saves: 3 models lost
      10,
      1, // A's saves: 1 model lost
      1, // B's break test (3 of 4 lost): passes
    ];
    const game = scripted(
      10,
      side('A', 'shoot-and-hold', one('a', 'archers')),
      side('B', 'shoot-and-hold', one('b', 'archers'), { reactions: { toShooting: 'counter-attack', beforeActivating: true } }),
      faces,
    );
    expect(game.metric('b.modelsLost')).toBe(3);
    expect(game.metric('a.modelsLost')).toBe(1);
    expect(game.metric('a.shock')).toBe(1);
    expect(game.metric('b.shock')).toBe(1);
    expect(game.metric('b.broke')).toBe(0);
    expect(game.remaining).toBe(0); // and B, having reacted, makes no more rolls this round
  });

  it('a failed reaction test: 1 Shock and no counter attack (failedReaction: spends-round)', () => {
    const faces = [...ROLL_OFF_A, 6, 1, 1, 10, 10, 10, 1];
    const game = scripted(
      10,
      side('A', 'shoot-and-hold', one('a', 'archers')),
      side('B', 'shoot-and-hold', one('b', 'archers'), { reactions: { toShooting: 'counter-attack', beforeActivating: true } }),
      faces,
    );
    expect(game.metric('b.modelsLost')).toBe(1);
    expect(game.metric('b.shock')).toBe(2);
    expect(game.metric('a.modelsLost')).toBe(0);
    expect(game.remaining).toBe(0);
  });

  it('on Hold (no test, with its Focus): B is destroyed by the Shoot yet all 4 of its archers shoot back', () => {
    const faces = [
      ...ROLL_OFF_B, // B activates first: Focus, Hold
      1,
      1,
      1,
      1, // A's hits
      6,
      6,
      7,
      7, // B's hits on Accuracy 5 + 1 Focus: the 6s hit
      10,
      10,
      10,
      10, // B's saves: all 4 lost
      10,
      10, // A's saves: 2 lost (exactly half: no break test)
    ];
    const game = scripted(
      10,
      side('A', 'shoot-and-hold', one('a', 'archers')),
      side('B', 'hold-for-overwatch', one('b', 'archers')),
      faces,
    );
    expect(game.metric('b.destroyed')).toBe(1);
    expect(game.metric('a.modelsLost')).toBe(2);
    expect(game.metric('a.shock')).toBe(1);
    expect(game.metric('winner')).toBe(WINNER_A);
    expect(game.remaining).toBe(0);
  });
});

describe('bidding limits (rulings §25)', () => {
  // Sides 100" apart, plans that only Focus and Hold: Shock comes from bids alone; the only dice
  // are roll-offs and activation Shock tests (10 always fails, 1 always passes).
  const far = (a: SideInput, b: SideInput, faces: number[]) => scripted(100, a, b, faces);
  const hold = (name: string, bid: number, units: UnitInput[]) => side(name, 'hold-for-overwatch', units, { bid });

  it('Courage 6 takes a bid of 2 (below half): A activates first, no roll-off', () => {
    const game = far(hold('A', 2, one('a', 'c6')), hold('B', 0, one('b', 'c6')), [10, 10]);
    expect(game.metric('a.shock')).toBe(2);
    expect(game.metric('b.shock')).toBe(0);
    expect(game.remaining).toBe(0);
  });

  it('Courage 7 takes 3 (3 < 3.5)', () => {
    const game = far(hold('A', 3, one('a', 'c7')), hold('B', 0, one('b', 'c6')), [10, 10, 10]);
    expect(game.metric('a.shock')).toBe(3);
    expect(game.remaining).toBe(0);
  });

  it('a bid of 3 on one Courage 6 unit: only 2 are assigned and the bonus is forfeited, so B (bid 1) goes first', () => {
    // B's test first (passes), then A's two (fail). Had A kept its bonus, A's 1 would pass first.
    const game = far(hold('A', 3, one('a', 'c6')), hold('B', 1, one('b', 'c6')), [1, 10, 10]);
    expect(game.metric('a.shock')).toBe(2);
    expect(game.metric('b.shock')).toBe(0);
    expect(game.remaining).toBe(0);
  });

  it('two Courage 6 units take a bid of 4 (2 each); a bid of 5 forfeits and leads to a roll-off', () => {
    const four = far(hold('A', 4, [...one('a1', 'c6'), ...one('a2', 'c6')]), hold('B', 0, one('b', 'c6')), [10, 10, 10, 10]);
    expect([four.metric('a1.shock'), four.metric('a2.shock'), four.remaining]).toEqual([2, 2, 0]);
    const five = far(hold('A', 5, [...one('a1', 'c6'), ...one('a2', 'c6')]), hold('B', 0, one('b', 'c6')), [...ROLL_OFF_A, 10, 10, 10, 10]);
    expect([five.metric('a1.shock'), five.metric('a2.shock'), five.remaining]).toEqual([2, 2, 0]);
  });

  it('both sides forfeiting roll off (re-rolling a tie), whatever their bids', () => {
    // A bids 3, B bids 4, each on one Courage 6 unit: 2 Shock each. Roll-off 5–5, then B wins 2–9.
    const game = far(hold('A', 3, one('a', 'c6')), hold('B', 4, one('b', 'c6')), [5, 5, ...ROLL_OFF_B, 1, 10, 10, 10]);
    expect(game.metric('b.shock')).toBe(1);
    expect(game.metric('a.shock')).toBe(2);
    expect(game.remaining).toBe(0);
  });
});

describe('falling back from melee (core rules "Falling Back", README)', () => {
  // 4 archers fight 4 archers in base contact (distance 0); B does not react to the Fight.
  const melee = (faces: number[]) =>
    scripted(
      0,
      side('A', 'charge-and-fight', one('a', 'archers')),
      side('B', 'charge-and-fight', one('b', 'archers'), { reactions: { toFighting: 'none' } }),
      faces,
    );
  // Roll-off; A's Fight: 4 hits, B saves 1 of 4 (3 lost); B's break test fails (10).
  const broken = [...ROLL_OFF_A, 1, 1, 1, 1, 10, 10, 10, 1, 10];

  it("a broken unit failing its Initiative test (5 − 1 Shock = 4: a 5 fails) takes A's free attack", () => {
    const game = melee([...broken, 5, 1, 10, 10, 10, 1]); // free attack: 1 hit, saved
    expect(game.metric('b.broke')).toBe(1);
    expect(game.metric('b.modelsLost')).toBe(3);
    expect(game.metric('b.shock')).toBe(2); // one per attack
    expect(game.remaining).toBe(0);
  });

  it('the free attack can destroy it', () => {
    const game = melee([...broken, 5, 1, 10, 10, 10, 10]);
    expect(game.metric('b.destroyed')).toBe(1);
    expect(game.metric('b.modelsLost')).toBe(4);
    expect(game.remaining).toBe(0);
  });

  it('passing the Initiative test (a 4): no free attack', () => {
    const game = melee([...broken, 4]);
    expect(game.metric('b.broke')).toBe(1);
    expect(game.metric('b.modelsLost')).toBe(3);
    expect(game.metric('b.shock')).toBe(1);
    expect(game.remaining).toBe(0);
  });
});
