import { describe, expect, it } from 'vitest';
import { scenarioSchema } from '../../engine/heroic/index.js';
import { attackScenario, model, type OptionsInput, SIDE_NAMES, scriptedTrial, weapon } from './scenarios.js';

/**
 * The worked examples of the rule texts, replayed with forced dice (ScriptedDice), plus edge cases
 * of the post-roll pipeline. Dice order (common brief): WILL test first; ATK dice figure after
 * figure; then Shield dice. Where a test expects `remaining === 0`, any unexpected extra roll makes
 * ScriptedDice throw and any skipped roll leaves a face unused.
 */

describe('Attack Action, "Resistance and Weakness": the Draugr', () => {
  const units = [
    model('frost-mage', { def: 3, might: 3, will: 5, weapons: [weapon('ranged', 1, ['Frost'])] }),
    model('fire-mage', { def: 3, might: 3, will: 5, weapons: [weapon('ranged', 1, ['Fire', 'Spells'])] }),
    model('draugr', { def: 4, might: 2, will: 3, weak: ['Fire'], resist: ['Frost'] }),
  ];
  const draugr = { id: 'draugr', unit: 'draugr', models: 1 };

  it('1 Frost Wound is reduced to 0 by Resistance', () => {
    const scenario = attackScenario('draugr-frost', [{ id: 'frost', unit: 'frost-mage', models: 1, target: 'draugr' }], [draugr]);
    const trial = scriptedTrial(scenario, units, [5]);
    expect(trial.metric('draugr.woundsTaken')).toBe(0);
    expect(trial.metric('draugr.modelsLost')).toBe(0);
    expect(trial.remaining).toBe(0);
  });

  it('then a 1-Wound Firebolt becomes 2 Wounds and vanquishes the MIGHT 2 Draugr', () => {
    const scenario = attackScenario(
      'draugr-frost-then-fire',
      [
        { id: 'frost', unit: 'frost-mage', models: 1, target: 'draugr' },
        { id: 'fire', unit: 'fire-mage', models: 1, target: 'draugr' },
      ],
      [draugr],
    );
    const trial = scriptedTrial(scenario, units, [5, 4]);
    expect(trial.metric('draugr.woundsTaken')).toBe(2);
    expect(trial.metric('draugr.modelsLost')).toBe(1);
    expect(trial.metric('draugr.vanquished')).toBe(1);
    expect(trial.metric('A.woundsDealt')).toBe(2);
    expect(trial.winner).toBe(SIDE_NAMES[0]);
    expect(trial.remaining).toBe(0);
  });
});

describe('Dynamic Formations, "Single Model vs Formation": the WILL 3 Goblin', () => {
  const units = [
    model('goblin', { def: 3, might: 1, will: 3, weapons: [weapon('melee', 3)] }),
    model('goblin-chief', { def: 3, might: 3, will: 3, heroic: true, weapons: [weapon('melee', 3)] }),
    model('guard', { def: 4, might: 1, will: 3 }),
  ];
  const guards = { id: 'guards', unit: 'guard', models: 3, formation: true };
  const charge = (unit: string) =>
    attackScenario(`${unit}-charges`, [{ id: 'charger', unit, models: 1, charging: true, target: 'guards' }], [guards]);

  it('rolling 4 on its WILL test vs a formation of 3: charge refused, no attack', () => {
    const trial = scriptedTrial(charge('goblin'), units, [4]);
    expect(trial.metric('A.chargesRefused')).toBe(1);
    expect(trial.metric('A.torment')).toBe(0);
    expect(trial.metric('guards.woundsTaken')).toBe(0);
    expect(trial.metric('guards.modelsLost')).toBe(0);
    expect(trial.remaining).toBe(0);
  });

  it('rolling 3 passes (D6 ≤ WILL) and the Goblin attacks', () => {
    const trial = scriptedTrial(charge('goblin'), units, [3, 4, 1, 6]);
    expect(trial.metric('A.chargesRefused')).toBe(0);
    expect(trial.metric('guards.woundsTaken')).toBe(3);
    expect(trial.metric('guards.modelsLost')).toBe(3);
    expect(trial.metric('guards.formationBroken')).toBe(1);
    expect(trial.metric('guards.vanquished')).toBe(1);
    expect(trial.remaining).toBe(0);
  });

  it('a Heroic model that fails gains 1 Torment', () => {
    const trial = scriptedTrial(charge('goblin-chief'), units, [6]);
    expect(trial.metric('A.chargesRefused')).toBe(1);
    expect(trial.metric('A.torment')).toBe(1);
    expect(trial.remaining).toBe(0);
  });
});

describe('Attack Action, "AoE Attacks Dice": Fire Cannon on 6 Skeletons', () => {
  const cannon = { name: 'Fire Cannon', type: 'aoe' as const, atk: 2, damage: ['Fire', 'Spells'] };
  const units = [
    model('vesdra', { def: 3, might: 4, will: 5, heroic: true, weapons: [cannon] }),
    model('skeleton', { def: 4, might: 1, will: 3 }),
    model('shield-skeleton', { def: 4, shield: true, might: 1, will: 3 }),
  ];
  const volley = (unit: string) =>
    attackScenario(
      `fire-cannon-${unit}`,
      [{ id: 'vesdra', unit: 'vesdra', models: 1, area: [{ group: 'skeletons', models: 6 }] }],
      [{ id: 'skeletons', unit, models: 6, formation: true }],
    );

  it('rolls 2 dice per Skeleton, one by one (12 dice): all 6 vanquished', () => {
    const trial = scriptedTrial(volley('skeleton'), units, [4, 1, 1, 5, 6, 6, 2, 4, 5, 5, 3, 6]);
    expect(trial.metric('skeletons.modelsLost')).toBe(6);
    expect(trial.metric('skeletons.woundsTaken')).toBe(6);
    expect(trial.metric('skeletons.vanquished')).toBe(1);
    expect(trial.metric('skeletons.formationBroken')).toBe(1);
    expect(trial.remaining).toBe(0);
  });

  it('nothing spills over from one Skeleton to the next', () => {
    // Skeleton 1 takes a critical pair (4 Wounds on MIGHT 1); skeletons 2..6 roll nothing.
    const trial = scriptedTrial(volley('skeleton'), units, [6, 6, 1, 1, 2, 3, 1, 2, 3, 3, 1, 1]);
    expect(trial.metric('skeletons.modelsLost')).toBe(1);
    expect(trial.metric('skeletons.woundsTaken')).toBe(1);
    expect(trial.metric('skeletons.formationBroken')).toBe(0);
    expect(trial.remaining).toBe(0);
  });

  it('each shielded Skeleton rolls its own Shield die right after its ATK dice, only when wounded', () => {
    const faces = [
      ...[4, 1, 6], // 1 Wound, saved
      ...[1, 2], // no Wound: no Shield die
      ...[6, 3, 5], // 2 Wounds, 1 saved: vanquished
      ...[5, 5, 1], // 2 Wounds, not saved: vanquished
      ...[2, 4, 2], // 1 Wound, not saved: vanquished
      ...[3, 3], // no Wound
    ];
    const trial = scriptedTrial(volley('shield-skeleton'), units, faces);
    expect(trial.metric('skeletons.modelsLost')).toBe(3);
    expect(trial.metric('skeletons.woundsTaken')).toBe(3);
    expect(trial.metric('skeletons.formationBroken')).toBe(0);
    expect(trial.remaining).toBe(0);
  });
});

describe('Attack Action, "Rolling ATK Dices": Uldar\'s split', () => {
  const units = [
    model('uldar', { def: 4, might: 6, will: 5, heroic: true, weapons: [weapon('melee', 4)] }),
    model('kobold', { def: 3, might: 1, will: 2 }),
    model('ogre', { def: 4, might: 3, will: 3 }),
  ];
  const scenario = attackScenario(
    'uldar-split',
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
      { id: 'kobold', unit: 'kobold', models: 1 },
      { id: 'ogre', unit: 'ogre', models: 1 },
    ],
  );

  it('1 die kills the Kobold, then 3 dice kill the Ogre', () => {
    const trial = scriptedTrial(scenario, units, [4, 5, 6, 1]);
    expect(trial.metric('kobold.modelsLost')).toBe(1);
    expect(trial.metric('ogre.woundsTaken')).toBe(3);
    expect(trial.metric('ogre.vanquished')).toBe(1);
    expect(trial.metric('A.woundsDealt')).toBe(4);
    expect(trial.remaining).toBe(0);
  });

  it('a surplus on the Kobold is lost, not moved to the Ogre', () => {
    const trial = scriptedTrial(scenario, units, [6, 4, 1, 1]);
    expect(trial.metric('kobold.woundsTaken')).toBe(1);
    expect(trial.metric('kobold.vanquished')).toBe(1);
    expect(trial.metric('ogre.woundsTaken')).toBe(1);
    expect(trial.metric('ogre.vanquished')).toBe(0);
    expect(trial.metric('A.woundsDealt')).toBe(2);
    expect(trial.remaining).toBe(0);
  });
});

describe('Dynamic Formations, "Breaking a Formation": 5 Slathaai Psionic split 3 + 2', () => {
  const units = [
    model('slathaai', { def: 4, might: 2, will: 4, weapons: [weapon('ranged', 2)] }),
    model('ogre', { def: 4, might: 4, will: 3 }),
  ];
  const scenario = attackScenario(
    'slathaai',
    [
      { id: 'left', unit: 'slathaai', models: 3, formation: true, target: 'ogre-1' },
      { id: 'right', unit: 'slathaai', models: 2, target: 'ogre-2' },
    ],
    [
      { id: 'ogre-1', unit: 'ogre', models: 1 },
      { id: 'ogre-2', unit: 'ogre', models: 1 },
    ],
  );

  it('the formation of 3 (6 pooled dice) vanquishes Ogre 1; the pair, attacking one by one, only wounds Ogre 2', () => {
    const formationDice = [6, 6, 1, 2, 3, 1]; // 4 Wounds
    const pairDice = [4, 1, 5, 2]; // 1 Wound each
    const trial = scriptedTrial(scenario, units, [...formationDice, ...pairDice]);
    expect(trial.metric('ogre-1.vanquished')).toBe(1);
    expect(trial.metric('ogre-1.woundsTaken')).toBe(4);
    expect(trial.metric('ogre-2.woundsTaken')).toBe(2);
    expect(trial.metric('ogre-2.vanquished')).toBe(0);
    expect(trial.metric('left.formationBroken')).toBe(0);
    expect(trial.remaining).toBe(0);
  });
});

describe('Combined Formation: 6 Orc Barbarians from two cards', () => {
  const units = [
    model('orc-barbarian', { def: 4, might: 2, will: 4, weapons: [{ name: 'Throwing Axes', type: 'ranged', atk: 2 }] }),
    model('troll', { def: 4, might: 30, will: 3 }),
  ];
  const orcs = (exhausted: boolean) => [
    { id: 'orc-formation', unit: 'orc-barbarian', models: 4, formation: true, cards: [3, 1], exhausted, target: 'troll' },
    { id: 'orc-singles', unit: 'orc-barbarian', models: 2, target: 'troll' },
  ];
  const troll = [{ id: 'troll', unit: 'troll', models: 1 }];

  it('the formation of 4 and the 2 singles all act in the same activation', () => {
    const scenario = attackScenario('orcs', orcs(false), troll);
    const formationDice = [4, 4, 4, 4, 4, 4, 4, 4]; // 8 Wounds
    const singlesDice = [6, 1, 1, 5]; // 2 + 1 Wounds
    const trial = scriptedTrial(scenario, units, [...formationDice, ...singlesDice]);
    expect(trial.metric('troll.woundsTaken')).toBe(11);
    expect(trial.remaining).toBe(0);
  });

  it('an exhausted combined formation does not act; the singles still do', () => {
    const trial = scriptedTrial(attackScenario('orcs-exhausted', orcs(true), troll), units, [6, 1, 1, 5]);
    expect(trial.metric('troll.woundsTaken')).toBe(3);
    expect(trial.remaining).toBe(0);
  });

  it('in an engagement the exhausted formation skips round 1 only', () => {
    const scenario = scenarioSchema.parse({
      ruleset: 'heroic',
      name: 'orcs-exhausted-engagement',
      mode: 'engagement',
      rounds: 2,
      sides: [
        { name: SIDE_NAMES[0], groups: orcs(true) },
        { name: SIDE_NAMES[1], groups: [{ id: 'troll', unit: 'troll', models: 1, target: 'orc-formation' }] },
      ],
    });
    const round1 = [...[6, 1, 1, 5], 1]; // singles (3 Wounds), then the troll misses
    const round2 = [...[4, 4, 4, 4, 4, 4, 4, 4], ...[1, 1, 1, 1], 1]; // formation (8), singles (0), troll misses
    const trial = scriptedTrial(scenario, units, [...round1, ...round2]);
    expect(trial.metric('troll.woundsTaken')).toBe(11);
    expect(trial.metric('rounds')).toBe(2);
    expect(trial.remaining).toBe(0);
  });
});

describe('single-target pipeline edge cases', () => {
  const units = [
    model('fire-mage', { def: 3, might: 3, will: 5, weapons: [weapon('ranged', 2, ['Fire'])] }),
    model('fire-bolt', { def: 3, might: 3, will: 5, weapons: [weapon('ranged', 1, ['Fire'])] }),
    model('brute', { def: 3, might: 3, will: 5, weapons: [weapon('melee', 3)] }),
    model('weak-shielded', { def: 4, shield: true, might: 5, will: 3, weak: ['Fire'] }),
    model('resistant', { def: 4, might: 5, will: 3, resist: ['Fire'] }),
    model('immune', { def: 4, might: 5, will: 3, immune: ['Fire'] }),
    model('troll', { def: 4, might: 3, will: 3 }),
  ];
  const single = (attacker: string, target: string, options: OptionsInput = {}, woundsTaken = 0) =>
    attackScenario(
      `${attacker}-vs-${target}`,
      [{ id: 'attacker', unit: attacker, models: 1, target: 'target' }],
      [{ id: 'target', unit: target, models: 1, woundsTaken }],
      options,
    );

  it('0 rolled Wounds trigger neither Weakness nor a Shield roll', () => {
    const trial = scriptedTrial(single('fire-mage', 'weak-shielded'), units, [1, 3]);
    expect(trial.metric('target.woundsTaken')).toBe(0);
    expect(trial.remaining).toBe(0);
  });

  it('weakness then shield (default): 1 Wound → 2 → a saved Shield roll → 1', () => {
    const trial = scriptedTrial(single('fire-mage', 'weak-shielded'), units, [4, 1, 5]);
    expect(trial.metric('target.woundsTaken')).toBe(1);
    expect(trial.remaining).toBe(0);
  });

  it('shield then weakness: 1 Wound → a saved Shield roll → 0, and Weakness no longer triggers', () => {
    const options = { order: 'shield-then-weakness' as const };
    expect(scriptedTrial(single('fire-bolt', 'weak-shielded', options), units, [4, 5]).metric('target.woundsTaken')).toBe(0);
    const failedSave = scriptedTrial(single('fire-bolt', 'weak-shielded', options), units, [4, 4]);
    expect(failedSave.metric('target.woundsTaken')).toBe(2);
    expect(failedSave.remaining).toBe(0);
  });

  it('Resistance takes 1 Wound off per Attack Action, not per die', () => {
    expect(scriptedTrial(single('fire-mage', 'resistant'), units, [4, 1]).metric('target.woundsTaken')).toBe(0);
    expect(scriptedTrial(single('fire-mage', 'resistant'), units, [6, 4]).metric('target.woundsTaken')).toBe(2);
  });

  it('Invulnerability: even two criticals inflict nothing', () => {
    expect(scriptedTrial(single('fire-mage', 'immune'), units, [6, 6]).metric('target.woundsTaken')).toBe(0);
  });

  it('Wounds beyond the remaining MIGHT are lost', () => {
    const trial = scriptedTrial(single('brute', 'troll', {}, 1), units, [6, 6, 6]);
    expect(trial.metric('A.woundsDealt')).toBe(2);
    expect(trial.metric('target.vanquished')).toBe(1);
    expect(trial.remaining).toBe(0);
  });
});

describe('formation pipeline edge cases', () => {
  const units = [
    model('brute', { def: 3, might: 3, will: 6, weapons: [weapon('melee', 3)] }),
    model('torcher', { def: 3, might: 1, will: 3, weapons: [weapon('ranged', 1, ['Fire'])] }),
    model('shieldman', { def: 4, shield: true, might: 1, will: 3 }),
    model('big-shieldman', { def: 4, shield: true, might: 2, will: 3 }),
    model('ice-wight', { def: 4, might: 1, will: 3, resist: ['Frost'] }),
    model('frost-brute', { def: 3, might: 3, will: 6, weapons: [weapon('melee', 3, ['Frost'])] }),
    model('treant', { def: 4, might: 12, will: 3, weak: ['Fire'] }),
  ];
  const versus = (attacker: string, target: string, options: OptionsInput = {}) =>
    attackScenario(
      `${attacker}-vs-${target}`,
      [{ id: 'attacker', unit: attacker, models: 1, target: 'wall' }],
      [{ id: 'wall', unit: target, models: 3, formation: true }],
      options,
    );

  it('every-model Shield: one die per living model, each 5+ cancels one Wound', () => {
    const trial = scriptedTrial(versus('brute', 'shieldman'), units, [4, 4, 4, 5, 1, 1]);
    expect(trial.metric('wall.woundsTaken')).toBe(2);
    expect(trial.metric('wall.modelsLost')).toBe(2);
    expect(trial.metric('wall.formationBroken')).toBe(1);
    expect(trial.remaining).toBe(0);
  });

  it('no Shield dice when the attack rolls no Wound', () => {
    const trial = scriptedTrial(versus('brute', 'shieldman'), units, [1, 2, 3]);
    expect(trial.metric('wall.woundsTaken')).toBe(0);
    expect(trial.remaining).toBe(0);
  });

  it('allocated-models Shield: a die when each model is first allocated a Wound', () => {
    // 4 Wounds: model 1 saves its first (5), takes 2 and falls; model 2 fails (1) and takes the last.
    const trial = scriptedTrial(versus('brute', 'big-shieldman', { shieldRolls: 'allocated-models' }), units, [4, 4, 6, 5, 1]);
    expect(trial.metric('wall.woundsTaken')).toBe(3);
    expect(trial.metric('wall.modelsLost')).toBe(1);
    expect(trial.metric('wall.formationBroken')).toBe(1);
    expect(trial.remaining).toBe(0);
  });

  it('Resistance: each model ignores the first Wound allocated to it', () => {
    const trial = scriptedTrial(versus('frost-brute', 'ice-wight'), units, [6, 4, 4]);
    expect(trial.metric('wall.woundsTaken')).toBe(2);
    expect(trial.metric('wall.modelsLost')).toBe(2);
    expect(trial.remaining).toBe(0);
  });

  it('Weakness vs a formation attack: +1 per attacking figure', () => {
    const scenario = attackScenario(
      'torchers',
      [{ id: 'torchers', unit: 'torcher', models: 3, formation: true, target: 'treant' }],
      [{ id: 'treant', unit: 'treant', models: 1 }],
    );
    const trial = scriptedTrial(scenario, units, [4, 1, 1]);
    expect(trial.metric('treant.woundsTaken')).toBe(4);
    expect(trial.remaining).toBe(0);
  });
});
