import { describe, expect, it } from 'vitest';
import {
  type ScenarioInput,
  scenarioSchema,
  type UnitProfile,
  type WeaponProfile,
  compileScenario,
} from '../../engine/battleforge/index.js';
import { BattleforgeKernel } from '../../engine/battleforge/kernel.js';
import { type BattleforgeTraceEvent, formatBattleforgeTrace } from '../../engine/battleforge/trace.js';
import { ScriptedDice, streamDice } from '../../engine/dice/index.js';
import type { DrawMethod } from '../../engine/kernel.js';

/**
 * The Battle Forge event trace (`crucible replay`): worked one-round games on scripted dice
 * (ScriptedDice), each asserting the trace line by line, that every scripted die was used, and that
 * the faces the events show are exactly the dice rolled, in order. That a traced trial draws the
 * same random numbers and writes the same row as an untraced one is the kernel contract's
 * property 3 (test/sim/kernel-contract.test.ts). Test profiles are invented ("test/…"): Movement 6,
 * Accuracy and Strength 5, Save 5, Initiative 5, Courage 9, a Bow 12"/24" and a Spear.
 */

const bow: WeaponProfile = { name: 'Bow', attacks: 1, copies: 1, ap: 0, melee: false, short: 12, long: 24 };
const spear: WeaponProfile = { name: 'Spear', attacks: 1, copies: 1, ap: 0, melee: true, short: 0, long: 0 };
const archers: UnitProfile = {
  reference: 'test/archers',
  name: 'Archers',
  models: [
    {
      name: 'Archer',
      count: 4,
      hasCharacteristics: true,
      movement: 6,
      accuracy: 5,
      strength: 5,
      save: 5,
      initiative: 5,
      courage: 9,
      wounds: 1,
      weapons: [bow, spear],
    },
  ],
};
const profiles = new Map([[archers.reference, archers]]);

type SideInput = ScenarioInput['sides'][number];
const side = (name: string, id: string, plan: SideInput['plan'], more: Partial<SideInput> = {}): SideInput => ({
  name,
  plan,
  units: [{ id, unit: 'test/archers' }],
  ...more,
});

function traced(
  distance: number,
  a: SideInput,
  b: SideInput,
  faces: readonly number[],
  method: DrawMethod = 'dice',
  mode: 'game' | 'attack' = 'game',
) {
  const scenario = scenarioSchema.parse({ ruleset: 'battleforge', name: 'traced', mode, rounds: 1, distance, sides: [a, b] });
  const kernel = new BattleforgeKernel(compileScenario(scenario, profiles), method);
  const events: BattleforgeTraceEvent[] = [];
  kernel.setTrace({ event: (event) => events.push(event) });
  const dice = new ScriptedDice(faces);
  const row = new Int32Array(kernel.metrics.length);
  kernel.trial(dice, row);
  // Every face an event shows, in order (hits, saves, tests, roll-offs, powers).
  const shown = events.flatMap((event) =>
    'faces' in event
      ? event.faces
      : event.type === 'bidding'
        ? (event.rollOff ?? [])
        : event.type === 'power' || event.type === 'stop'
          ? [event.face]
          : [],
  );
  return { lines: formatBattleforgeTrace(events), remaining: dice.remaining, shown, events };
}

const ROLL_OFF_A = [9, 2];

describe('worked examples on scripted dice: the trace line by line', () => {
  it('a Shoot met by a Counter Attack before activating: both volleys on the state before either, then saves, Shock, a break test', () => {
    const faces = [...ROLL_OFF_A, 5, 1, 1, 1, 1, 1, 1, 10, 10, 10, 10, 10, 1, 10, 1, 1];
    const game = traced(
      10,
      side('A', 'a', 'shoot-and-hold'),
      side('B', 'b', 'shoot-and-hold', { reactions: { toShooting: 'counter-attack', beforeActivating: true } }),
      faces,
    );
    expect(game.lines).toEqual([
      'round 1',
      '  bidding: A 0, B 0; roll-off 9 2: A activates 1 unit first',
      '  a activates (shoot-and-hold, Shock 0)',
      '    shoot at b',
      '      b reacts to a with counter-attack: Initiative on ≤5: 5 → done',
      '      a → b: shoot at 10"',
      '        Bow: 4 dice hitting on ≤5: 1 1 1 1 → 4 hits',
      '      b → a: counter-attack at 10"',
      '        Bow: 4 dice hitting on ≤5: 1 1 10 10 → 2 hits',
      '        b saves 4 hits (AP 0) on ≤5: 10 10 10 1 → 1 saved, 3 Wounds lost, 3 models removed',
      '        a saves 2 hits (AP 0) on ≤5: 10 1 → 1 saved, 1 Wound lost, 1 model removed',
      '      b gains 1 Shock (hit): 1',
      '      b: break test, Courage on ≤9: 1 → passed',
      '      a gains 1 Shock (hit): 1',
      '    hold',
      'outcome: none after 1 round',
    ]);
    expect(game.remaining).toBe(0);
    expect(game.shown).toEqual(faces);
  });

  it('a bid, Overwatch on Hold, a failed Rush and a charge that makes contact', () => {
    const faces = [
      10, // b's Courage test for its bid Shock: fails
      10,
      10,
      10,
      1, // b's Overwatch at 1": Accuracy 5 − 1 Shock + 1 Focus
      10, // a's save
      9, // a's Rush: Initiative 5 − 1 = 4, failed
      1,
      4,
      2, // a's free fight: 3 archers left, Strength 5 − 2 Shock
      3,
      8, // b's saves
    ];
    const game = traced(8, side('A', 'a', 'charge-and-fight'), side('B', 'b', 'hold-for-overwatch', { bid: 1 }), faces);
    expect(game.lines).toEqual([
      'round 1',
      '  bidding: A 0, B 1: B activates 1 unit first',
      '    b gains 1 Shock (bid): 1',
      '  b activates (hold-for-overwatch, Shock 1)',
      '    1 Courage test on ≤9: 10 → 0 Shock removed, 1 left',
      '    focus',
      '    hold',
      '  a activates (charge-and-fight, Shock 0)',
      '    charge b',
      '      b reacts to a with overwatch: automatic (on Hold) → done',
      '      b → a: overwatch at 1"',
      '        Bow: 4 dice hitting on ≤5: 10 10 10 1 → 1 hit',
      '        a saves 1 hit (AP 0) on ≤5: 10 → 0 saved, 1 Wound lost, 1 model removed',
      '      a gains 1 Shock (hit): 1',
      '      a: Rush, Initiative on ≤4: 9 → failed',
      '      a charges b 8" away, reach 5": falls short',
      '      a moves 5" toward b: 3" apart',
      '      a gains 1 Shock (failed rush): 2',
      '    charge b',
      '      a charges b 3" away, reach 4": base contact',
      '      a → b: free fight at 0"',
      '        Spear: 3 dice hitting on ≤3: 1 4 2 → 2 hits',
      '        b saves 2 hits (AP 0) on ≤5: 3 8 → 1 saved, 1 Wound lost, 1 model removed',
      '      b gains 1 Shock (hit): 2',
      'outcome: none after 1 round',
    ]);
    expect(game.remaining).toBe(0);
    expect(game.shown).toEqual(faces);
  });

  it('a charge from 0", a break, falling back with a failed Initiative test, destroyed by the free attack', () => {
    // The sides start 0" apart but not engaged (only charges engage): A charges, with no Rush needed.
    const faces = [...ROLL_OFF_A, 1, 1, 1, 1, 10, 10, 10, 1, 10, 5, 1, 10, 10, 10, 10];
    const game = traced(
      0,
      side('A', 'a', 'charge-and-fight'),
      side('B', 'b', 'charge-and-fight', { reactions: { toFighting: 'none' }, units: [{ id: 'b', unit: 'test/archers', shock: 1 }] }),
      faces,
    );
    expect(game.lines).toEqual([
      'round 1',
      '  bidding: A 0, B 0; roll-off 9 2: A activates 1 unit first',
      '  a activates (charge-and-fight, Shock 0)',
      '    charge b',
      '      a charges b 0" away, reach 6": base contact',
      '      a → b: free fight at 0"',
      '        Spear: 4 dice hitting on ≤5: 1 1 1 1 → 4 hits',
      '        b saves 4 hits (AP 0) on ≤5: 10 10 10 1 → 1 saved, 3 Wounds lost, 3 models removed',
      '      b gains 1 Shock (hit): 2',
      '      b: break test, Courage on ≤9: 10 → failed',
      '      b: falling back, Initiative on ≤3: 5 → failed',
      '      a → b: free attack at 0"',
      '        Spear: 4 dice hitting on ≤5: 1 10 10 10 → 1 hit',
      '        b saves 1 hit (AP 0) on ≤5: 10 → 0 saved, 1 Wound lost, 1 model removed',
      '      b is destroyed',
      '      a gains 1 Shock (destroyed nearby): 1',
      '      b breaks, destroyed as it falls back',
      'outcome: A after 1 round (decided in round 1)',
    ]);
    expect(game.remaining).toBe(0);
    expect(game.shown).toEqual(faces);
  });

  it('method tables: a volley and its saves drawn whole, shown without faces', () => {
    // `mode: attack`; ScriptedDice's picks are the outcomes themselves: 3 hits, then 1 of 3 saved.
    const game = traced(10, side('A', 'a', 'shoot-and-hold'), side('B', 'b', 'hold-for-overwatch'), [3, 1], 'tables', 'attack');
    expect(game.lines).toEqual([
      'round 1',
      '      a → b: shoot at 10"',
      '        Bow: 4 dice hitting on ≤5: drawn whole → 3 hits',
      '        b saves 3 hits (AP 0) on ≤5: drawn whole → 1 saved, 2 Wounds lost, 2 models removed',
      '      b gains 1 Shock (hit): 1',
      'outcome: none after 1 round',
    ]);
    expect(game.remaining).toBe(0);
  });
});

describe('tracing on real dice', () => {
  it('every event of a six-round game is plain JSON, and the game ends with its outcome', () => {
    const scenario = scenarioSchema.parse({
      ruleset: 'battleforge',
      name: 'six rounds',
      distance: 20,
      sides: [
        side('A', 'a', 'shoot-then-charge', { bid: 1 }),
        side('B', 'b', 'charge-and-fight', {
          rallyAt: 2,
          reactions: { toShooting: 'dodge', toFighting: 'escape', toCharge: 'escape', beforeActivating: true },
        }),
      ],
    });
    const kernel = new BattleforgeKernel(compileScenario(scenario, profiles), 'dice');
    const events: BattleforgeTraceEvent[] = [];
    kernel.setTrace({ event: (event) => events.push(event) });
    const dice = streamDice(20261122);
    const row = new Int32Array(kernel.metrics.length);
    for (let trial = 0; trial < 20; trial++) {
      events.length = 0;
      kernel.trial(dice, row);
      expect(JSON.parse(JSON.stringify(events))).toEqual(events);
      expect(events.at(-1)?.type).toBe('end');
      expect(formatBattleforgeTrace(events).every((line) => !line.includes('undefined') && !line.includes('NaN'))).toBe(true);
    }
  });
});
