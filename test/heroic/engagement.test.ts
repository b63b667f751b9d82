import { describe, expect, it } from 'vitest';
import { attackScenario, engagementScenario, model, SIDE_NAMES, scriptedTrial, weapon } from './scenarios.js';

/**
 * Rules of the engagement loop that single Attack Actions do not reach, each replayed with forced
 * dice. `remaining === 0` proves the kernel asked for exactly the scripted rolls: one die more
 * makes ScriptedDice throw, one fewer leaves a face unused.
 */

describe('Formation: Engagement — rear ranks attack only with Indirect Engagement (rulings §8)', () => {
  const units = [
    model('spearman', {
      def: 4,
      might: 1,
      will: 4,
      weapons: [weapon('melee', 2), { name: 'long spear', type: 'melee', atk: 2, indirect: true }, weapon('ranged', 2)],
    }),
    model('target', { def: 4, might: 20, will: 4 }),
  ];
  const attack = (weaponName: string) =>
    attackScenario(
      'ranks',
      [{ id: 'spears', unit: 'spearman', models: 4, formation: true, frontRank: 2, weapon: weaponName, target: 'target' }],
      [{ id: 'target', unit: 'target', models: 1 }],
    );

  it('a melee weapon: only the 2 front-rank figures roll (4 dice, not 8)', () => {
    const trial = scriptedTrial(attack('melee-2'), units, [4, 4, 4, 4]);
    expect(trial.metric('target.woundsTaken')).toBe(4);
    expect(trial.remaining).toBe(0);
  });

  it('an Indirect Engagement weapon: all 4 figures roll', () => {
    const trial = scriptedTrial(attack('long spear'), units, [4, 4, 4, 4, 4, 4, 4, 4]);
    expect(trial.metric('target.woundsTaken')).toBe(8);
    expect(trial.remaining).toBe(0);
  });

  it('a ranged weapon: all 4 figures roll whatever the ranks', () => {
    const trial = scriptedTrial(attack('ranged-2'), units, [4, 4, 4, 4, 1, 1, 1, 1]);
    expect(trial.metric('target.woundsTaken')).toBe(4);
    expect(trial.remaining).toBe(0);
  });
});

describe('Healing — Regeneration (R) heals 1 Wound at the start of each activation (rulings §9)', () => {
  const units = [
    model('hitter', { def: 6, might: 3, will: 4, weapons: [weapon('melee', 2)] }),
    model('troll', { def: 4, might: 5, will: 4, regenerates: true, weapons: [weapon('melee', 1)] }),
  ];
  const scenario = engagementScenario(
    'regeneration',
    3,
    [{ id: 'hitter', unit: 'hitter', models: 1 }],
    [{ id: 'troll', unit: 'troll', models: 1 }],
  );

  it('heals before the troll acts, so it survives two 2-Wound rounds and falls in the third', () => {
    // Round 1: 2 Wounds, troll heals to 1 and misses. Round 2: 3, heals to 2, misses.
    // Round 3: 6 and 6 = 4 Wounds, only 3 fit under MIGHT 5.
    const trial = scriptedTrial(scenario, units, [4, 4, 1, 4, 4, 1, 6, 6]);
    expect(trial.metric('troll.woundsTaken')).toBe(2 + 2 + 3);
    expect(trial.metric('troll.vanquished')).toBe(1);
    expect(trial.metric('rounds')).toBe(3);
    expect(trial.winner).toBe(SIDE_NAMES[0]);
    expect(trial.remaining).toBe(0);
  });
});

describe("Healing ability: Wounds healed at the end of the group's activation", () => {
  const units = [
    model('hitter', { def: 6, might: 3, will: 4, weapons: [weapon('melee', 2)] }),
    model('brewer', { def: 4, might: 4, will: 4, heroic: true, weapons: [weapon('melee', 1)] }),
  ];
  it('healing 2 lets the target take 3 + 3 Wounds before falling, not 3 + 1', () => {
    const scenario = engagementScenario(
      'heal',
      2,
      [{ id: 'hitter', unit: 'hitter', models: 1 }],
      [{ id: 'brewer', unit: 'brewer', models: 1, heal: { wounds: 2 } }],
    );
    const trial = scriptedTrial(scenario, units, [6, 4, 1, 6, 4]);
    expect(trial.metric('brewer.woundsTaken')).toBe(6);
    expect(trial.metric('brewer.vanquished')).toBe(1);
    expect(trial.remaining).toBe(0);
  });
});

describe("Formation Attacks — the defender's allocation policy (rulings §5)", () => {
  const units = [
    model('archer', { def: 4, might: 1, will: 4, weapons: [weapon('ranged', 1)] }),
    model('soldier', { def: 4, might: 2, will: 4 }),
  ];
  const scenario = (allocation: 'most-damaged' | 'least-damaged') =>
    attackScenario(
      `allocation-${allocation}`,
      [
        { id: 'first', unit: 'archer', models: 1, target: 'wall' },
        { id: 'second', unit: 'archer', models: 1, target: 'wall' },
      ],
      [{ id: 'wall', unit: 'soldier', models: 3, formation: true }],
      { allocation },
    );

  it('most-damaged finishes the wounded model: one lost, formation broken', () => {
    const trial = scriptedTrial(scenario('most-damaged'), units, [4, 4]);
    expect(trial.metric('wall.modelsLost')).toBe(1);
    expect(trial.metric('wall.formationBroken')).toBe(1);
  });

  it('least-damaged spreads the Wounds: none lost', () => {
    const trial = scriptedTrial(scenario('least-damaged'), units, [4, 4]);
    expect(trial.metric('wall.woundsTaken')).toBe(2);
    expect(trial.metric('wall.modelsLost')).toBe(0);
    expect(trial.metric('wall.formationBroken')).toBe(0);
  });
});

describe('Breaking a Formation: below 3 models its survivors fight as single models (rulings §8)', () => {
  const units = [
    model('sniper', { def: 4, shield: true, might: 10, will: 4, weapons: [weapon('ranged', 1)] }),
    model('knight', { def: 4, might: 1, will: 4, weapons: [weapon('ranged', 1)] }),
  ];
  it('each survivor makes its own Attack Action, with its own Shield roll by the target', () => {
    const scenario = engagementScenario(
      'broken',
      1,
      [{ id: 'sniper', unit: 'sniper', models: 1 }],
      [{ id: 'knights', unit: 'knight', models: 3, formation: true }],
    );
    // Sniper kills a knight (4). Knight 1: hit (4), Shield fails (1). Knight 2: hit (4), Shield fails (1).
    const trial = scriptedTrial(scenario, units, [4, 4, 1, 4, 1]);
    expect(trial.metric('knights.formationBroken')).toBe(1);
    expect(trial.metric('sniper.woundsTaken')).toBe(2);
    expect(trial.remaining).toBe(0);
  });
});

describe('Rolling ATK Dice: a split re-declared each activation', () => {
  const units = [
    model('uldar', { def: 6, might: 5, will: 5, heroic: true, weapons: [weapon('melee', 4)] }),
    model('kobold', { def: 2, might: 1, will: 2, weapons: [weapon('melee', 1)] }),
    model('ogre', { def: 4, might: 10, will: 4, weapons: [weapon('melee', 1)] }),
  ];
  it('once the Kobold is gone, all 4 dice go to the Ogre', () => {
    const scenario = engagementScenario(
      'split-orphan',
      2,
      [
        {
          id: 'uldar',
          unit: 'uldar',
          models: 1,
          split: [
            { target: 'kobold', dice: 1 },
            { target: 'ogre', dice: 3 },
          ],
        },
      ],
      [
        { id: 'kobold', unit: 'kobold', models: 1, target: 'uldar' },
        { id: 'ogre', unit: 'ogre', models: 1, target: 'uldar' },
      ],
    );
    // Round 1: Kobold (2) falls, Ogre misses 3 dice, Ogre's own die misses Uldar.
    // Round 2: 4 dice at the Ogre, Ogre misses again.
    const trial = scriptedTrial(scenario, units, [2, 1, 1, 1, 1, 4, 4, 1, 1, 1]);
    expect(trial.metric('kobold.vanquished')).toBe(1);
    expect(trial.metric('ogre.woundsTaken')).toBe(2);
    expect(trial.remaining).toBe(0);
  });
});

describe('Area of Effect: allies inside the area are hit too (rulings §10)', () => {
  const units = [
    model('shaman', { def: 4, might: 4, will: 5, heroic: true, weapons: [weapon('aoe', 1, ['Fire'])] }),
    model('bodyguard', { def: 4, might: 2, will: 4 }),
    model('skeleton', { def: 4, might: 1, will: 4 }),
  ];
  it('the ally takes its Wound, and side A is not credited with it', () => {
    const scenario = attackScenario(
      'friendly-fire',
      [
        {
          id: 'shaman',
          unit: 'shaman',
          models: 1,
          area: [
            { group: 'skeletons', models: 2 },
            { group: 'bodyguard', models: 1 },
          ],
        },
        { id: 'bodyguard', unit: 'bodyguard', models: 1 },
      ],
      [{ id: 'skeletons', unit: 'skeleton', models: 2 }],
    );
    // The bodyguard has no target plan of its own: it attacks the first enemy group with its 1 die (1: miss).
    const trial = scriptedTrial(scenario, units, [4, 1, 4, 1]);
    expect(trial.metric('skeletons.modelsLost')).toBe(1);
    expect(trial.metric('bodyguard.woundsTaken')).toBe(1);
    expect(trial.metric('A.woundsDealt')).toBe(1);
    expect(trial.remaining).toBe(0);
  });
});
