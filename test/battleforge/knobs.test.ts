import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  compileBattleforge,
  type PowerProfile,
  rulesSchema,
  type Rules,
  type ScenarioInput,
  scenarioSchema,
  type UnitProfile,
  type WeaponProfile,
} from '../../engine/battleforge/index.js';
import type { DrawMethod, Kernel } from '../../engine/kernel.js';
import { EXACT_BUDGET, type ExactDistributions, exactDistributions } from '../../sim/exact.js';
import { compileSpec, kernelSpecOf } from '../../sim/kernel-spec.js';
import { runTrials } from '../../sim/run.js';
import { loadScenarioChanged } from '../../input/scenario-file.js';
import { mean } from '../helpers/distribution.js';
import { expectMatchesExact } from '../helpers/exact-check.js';
import { trialsToCatch } from '../helpers/power.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * Every rule knob of Battle Forge (`rules:`, schema.ts rulesSchema), each on a small scenario with a
 * value other than the text's: (a) the exact answer moves the way the rule says (more Accuracy,
 * more hits…) against the same scenario at the default, and (b) Monte Carlo by tables (`mc`) and by
 * dice (`mc-dice`) each agree with the exact enumeration value by value and on the mean within
 * 4 standard errors (helpers/exact-check.ts). Every case is short enough to enumerate exactly: a
 * single attack (`mode: attack`), or a one-round game of units of a few models, so no knob falls
 * back on a two-sample comparison. Seeds are fixed (20261122 + case), never tuned. Power: each Monte
 * Carlo run catches a 2-point error in any outcome's probability with probability ≥ 0.99 at 4 SE
 * (helpers/power.ts).
 * Test profiles are invented ("test/…").
 */
const SEED = 20261122;
const TRIALS = trialsToCatch({ shift: 0.02 });

const bow: WeaponProfile = { name: 'Bow', attacks: 1, copies: 1, ap: 0, melee: false, short: 12, long: 24 };
const pistol: WeaponProfile = { name: 'Pistol', attacks: 1, copies: 1, ap: 0, melee: false, short: 6, long: 6 };
const spear: WeaponProfile = { name: 'Spear', attacks: 1, copies: 1, ap: 0, melee: true, short: 0, long: 0 };
interface Stats {
  readonly movement?: number;
  readonly accuracy?: number;
  readonly strength?: number;
  readonly save?: number;
  readonly initiative?: number;
  readonly courage?: number;
  readonly wounds?: number;
}
function unit(id: string, count: number, stats: Stats, weapons: WeaponProfile[], powerSlots = 0): UnitProfile {
  const model = {
    name: id,
    count,
    hasCharacteristics: true,
    movement: stats.movement ?? 6,
    accuracy: stats.accuracy ?? 5,
    strength: stats.strength ?? 5,
    save: stats.save ?? 5,
    initiative: stats.initiative ?? 5,
    courage: stats.courage ?? 9,
    wounds: stats.wounds ?? 1,
    weapons,
  };
  return { reference: `test/${id}`, name: id, models: [model], ...(powerSlots > 0 ? { powerSlots } : {}) };
}
const profiles = new Map(
  [
    unit('archers', 3, {}, [bow, spear]),
    unit('knights', 3, { save: 9 }, [spear]),
    unit('ogres', 2, { save: 4, wounds: 3 }, [spear]),
    unit('shaky', 3, { courage: 3 }, [spear]),
    unit('nervous', 4, { courage: 5 }, [spear]),
    unit('slow', 1, { initiative: 1, courage: 2 }, [spear]),
    unit('sluggish', 2, { initiative: 2 }, [spear]),
    unit('pistoleer', 2, {}, [pistol]),
    unit('bidder', 1, { courage: 6 }, [spear]),
    unit('mage', 1, { courage: 9 }, [pistol], 1),
  ].map((profile) => [profile.reference, profile]),
);
const powers = new Map<string, PowerProfile>([['test/bolt', { name: 'Bolt', cast: 6, range: 40, hits: 2, ap: 0, shock: 0 }]]);

type SideInput = ScenarioInput['sides'][number];
type UnitInput = SideInput['units'][number];
/** Side reactions that never react: only the knob's rule moves the dice. */
const NO_REACTIONS = { toShooting: 'none', toFighting: 'none', toCharge: 'none' } as const;
const side = (name: string, plan: SideInput['plan'], units: UnitInput[], more: Partial<SideInput> = {}): SideInput => ({
  name,
  plan,
  reactions: NO_REACTIONS,
  units,
  ...more,
});
const one = (id: string, ref: string, more: Partial<UnitInput> = {}): UnitInput => ({ id, unit: `test/${ref}`, ...more });

/** `mode: attack`: `a` (side A's first unit) shoots `b`, or fights it at distance 0. */
const attack = (distance: number, a: UnitInput, b: UnitInput, more: UnitInput[] = []): ScenarioInput => ({
  ruleset: 'battleforge',
  name: 'knob',
  mode: 'attack',
  distance,
  sides: [side('A', 'shoot-and-hold', [a]), side('B', 'hold-for-overwatch', [b, ...more])],
});
/** A one-round game. */
const game = (distance: number, a: SideInput, b: SideInput): ScenarioInput => ({
  ruleset: 'battleforge',
  name: 'knob',
  mode: 'game',
  rounds: 1,
  distance,
  sides: [a, b],
});

interface KnobCase {
  readonly knob: keyof Rules;
  readonly value: number;
  readonly scenario: ScenarioInput;
  readonly metric: string;
  /** How the metric's exact mean moves from the default to `value`, as the rule says it should. */
  readonly moves: 'up' | 'down';
  readonly why: string;
}

const CASES: readonly KnobCase[] = [
  // Dice And Modifiers (rulings §19): archers with 4 Shock hit on Accuracy 1; knights' Save 9 + Hard 2 saves on all but 10.
  {
    knob: 'autoPassFace',
    value: 3,
    scenario: attack(10, one('a', 'archers', { shock: 4 }), one('b', 'archers')),
    metric: 'b.woundsLost',
    moves: 'up',
    why: '1–3 always hit',
  },
  {
    knob: 'autoFailFace',
    value: 8,
    scenario: attack(10, one('a', 'archers'), one('b', 'knights', { cover: 'hard' })),
    metric: 'b.woundsLost',
    moves: 'up',
    why: '8–10 always fail the save',
  },
  // Long Range, Focus, Evade, Intervening Terrain.
  {
    knob: 'longRangePenalty',
    value: 3,
    scenario: attack(18, one('a', 'archers'), one('b', 'archers')),
    metric: 'b.woundsLost',
    moves: 'down',
    why: 'Accuracy 2 at long range',
  },
  {
    knob: 'focusBonus',
    value: 3,
    scenario: attack(10, one('a', 'archers', { focus: true }), one('b', 'archers')),
    metric: 'b.woundsLost',
    moves: 'up',
    why: 'Accuracy 8 with Focus',
  },
  {
    knob: 'evadePenalty',
    value: 3,
    scenario: attack(10, one('a', 'archers'), one('b', 'archers', { evade: true })),
    metric: 'b.woundsLost',
    moves: 'down',
    why: 'Accuracy 2 against Evade',
  },
  {
    knob: 'terrainPenalty',
    value: 3,
    scenario: attack(0, one('a', 'archers'), one('b', 'archers', { terrain: true })),
    metric: 'b.woundsLost',
    moves: 'down',
    why: 'Strength 2 across terrain',
  },
  // Cover, and Point Blank Range.
  {
    knob: 'softCover',
    value: 4,
    scenario: attack(10, one('a', 'archers'), one('b', 'archers', { cover: 'soft' })),
    metric: 'b.woundsLost',
    moves: 'down',
    why: 'Save 9 in Soft cover',
  },
  {
    knob: 'hardCover',
    value: 0,
    scenario: attack(10, one('a', 'archers'), one('b', 'archers', { cover: 'hard' })),
    metric: 'b.woundsLost',
    moves: 'up',
    why: 'Hard cover worth nothing',
  },
  {
    knob: 'fortifiedCover',
    value: 1,
    scenario: attack(10, one('a', 'archers'), one('b', 'archers', { cover: 'fortified' })),
    metric: 'b.woundsLost',
    moves: 'up',
    why: 'Save 6, not 8',
  },
  {
    knob: 'negativeCover',
    value: -3,
    scenario: attack(10, one('a', 'archers'), one('b', 'archers', { cover: 'negative' })),
    metric: 'b.woundsLost',
    moves: 'up',
    why: 'Save 2, not 4',
  },
  {
    knob: 'pointBlankRange',
    value: 0,
    scenario: attack(3, one('a', 'archers'), one('b', 'archers', { cover: 'hard' })),
    metric: 'b.woundsLost',
    moves: 'down',
    why: 'cover counts at 3"',
  },
  // Effects of Shock (rulings §21).
  {
    knob: 'accuracyPerShock',
    value: 2,
    scenario: attack(10, one('a', 'archers', { shock: 1 }), one('b', 'archers')),
    metric: 'b.woundsLost',
    moves: 'down',
    why: 'Accuracy 3 with 1 Shock',
  },
  {
    knob: 'strengthPerShock',
    value: 2,
    scenario: attack(0, one('a', 'archers', { shock: 1 }), one('b', 'archers')),
    metric: 'b.woundsLost',
    moves: 'down',
    why: 'Strength 3 with 1 Shock',
  },
  {
    // A Courage 3 unit at 2 Shock breaks on a hit; falling back from melee it tests Initiative 5 − 3 Shock (× 2: an automatic-pass 1).
    knob: 'initiativePerShock',
    value: 2,
    scenario: attack(0, one('a', 'archers'), one('b', 'shaky', { shock: 2 })),
    metric: 'b.woundsLost',
    moves: 'up',
    why: 'fails to fall back: free attacks',
  },
  {
    // A Shock-2 charger (Courage 2: keeps it) 6" away: reach 4 + a Rush, or 6 without the penalty.
    knob: 'movementPerShock',
    value: 0,
    scenario: game(
      6,
      side('A', 'charge-and-fight', [one('a', 'slow', { shock: 2 })]),
      side('B', 'hold-for-overwatch', [one('b', 'archers')]),
    ),
    metric: 'b.woundsLost',
    moves: 'up',
    why: 'reaches without a Rush',
  },
  // Gaining Shock (rulings §21).
  {
    knob: 'shockWhenHit',
    value: 3,
    scenario: attack(10, one('a', 'archers'), one('b', 'archers')),
    metric: 'b.shock',
    moves: 'up',
    why: '3 Shock per attack that hits',
  },
  {
    knob: 'shockFromDestroyed',
    value: 3,
    scenario: attack(10, one('a', 'archers'), one('b', 'archers', { models: 1 }), [one('near', 'archers', { position: 2 })]),
    metric: 'near.shock',
    moves: 'up',
    why: '3 Shock when the unit 2" away is destroyed',
  },
  {
    knob: 'destroyedShockRange',
    value: 6,
    scenario: attack(10, one('a', 'archers'), one('b', 'archers', { models: 1 }), [one('near', 'archers', { position: 5 })]),
    metric: 'near.shock',
    moves: 'up',
    why: 'a unit 5" away counts as near',
  },
  {
    // B, Initiative 2, tries to Dodge the Shoot (before activating, or on Hold after).
    knob: 'failedReactionShock',
    value: 3,
    scenario: game(
      10,
      side('A', 'shoot-and-hold', [one('a', 'archers')]),
      side('B', 'hold-for-overwatch', [one('b', 'sluggish')], {
        reactions: { ...NO_REACTIONS, toShooting: 'dodge', beforeActivating: true },
      }),
    ),
    metric: 'b.shock',
    moves: 'up',
    why: '3 Shock for a failed reaction',
  },
  {
    knob: 'failedRushShock',
    value: 3,
    scenario: game(8, side('A', 'charge-and-fight', [one('a', 'slow')]), side('B', 'hold-for-overwatch', [one('b', 'archers')])),
    metric: 'a.shock',
    moves: 'up',
    why: '3 Shock for a failed Rush',
  },
  // Powers: the mage casts Bolt (cast 6) at B; a 10 miscasts; B's own mage 30" away stops it only within range.
  {
    knob: 'miscastShock',
    value: 4,
    scenario: game(
      20,
      side('A', 'hold-for-overwatch', [one('a', 'mage', { powers: ['bolt'] })]),
      side('B', 'hold-for-overwatch', [one('b', 'archers')]),
    ),
    metric: 'a.shock',
    moves: 'up',
    why: '4 Shock on a miscast',
  },
  {
    knob: 'stopPowerRange',
    value: 36,
    scenario: game(
      30,
      side('A', 'hold-for-overwatch', [one('a', 'mage', { powers: ['bolt'] })]),
      side('B', 'hold-for-overwatch', [one('b', 'archers', { position: 10 }), one('stopper', 'mage')]),
    ),
    metric: 'b.woundsLost',
    moves: 'down',
    why: 'a stopper 30" away may stop the Bolt',
  },
  // Rushing: after a move from 16", 10" away with Movement 6: a Rush adds 3" (too short to charge) or 6".
  {
    knob: 'rushPercent',
    value: 100,
    scenario: game(16, side('A', 'charge-and-fight', [one('a', 'archers')]), side('B', 'hold-for-overwatch', [one('b', 'archers')])),
    metric: 'b.woundsLost',
    moves: 'up',
    why: 'a Rush of 6" reaches',
  },
  // Break Tests (rulings §22): losing 1 of 4 models is more than 20%.
  {
    knob: 'heavyLossPercent',
    value: 20,
    scenario: attack(10, one('a', 'archers'), one('b', 'nervous')),
    metric: 'b.broke',
    moves: 'up',
    why: 'a break test after any loss',
  },
  // Shock Limit (rulings §25): a bid of 3 on a Courage 6 unit is forfeited below half (2 assigned), not below all of it.
  {
    knob: 'bidLimitPercent',
    value: 100,
    scenario: game(
      100,
      side('A', 'hold-for-overwatch', [one('a', 'bidder')], { bid: 3 }),
      side('B', 'hold-for-overwatch', [one('b', 'bidder')]),
    ),
    metric: 'a.shock',
    moves: 'up',
    why: 'all 3 bid Shock assigned',
  },
  // Actions Phase: a third action charges after two moves from 20".
  {
    knob: 'actionsPerActivation',
    value: 3,
    scenario: game(20, side('A', 'charge-and-fight', [one('a', 'archers')]), side('B', 'hold-for-overwatch', [one('b', 'archers')])),
    metric: 'b.woundsLost',
    moves: 'up',
    why: 'a third action: the charge',
  },
  // Movement: the pistoleers move to shoot; stopping 4" short they shoot beyond point blank, into Hard cover.
  {
    knob: 'closestApproach',
    value: 4,
    scenario: game(
      9,
      side('A', 'move-and-shoot', [one('a', 'pistoleer')]),
      side('B', 'hold-for-overwatch', [one('b', 'archers', { cover: 'hard' })]),
    ),
    metric: 'b.woundsLost',
    moves: 'down',
    why: 'shot from 4", not 3"',
  },
  // Save Rolls: an unsaved hit on a Wounds(3) ogre takes 2.
  {
    knob: 'woundsPerHit',
    value: 2,
    scenario: attack(10, one('a', 'archers'), one('b', 'ogres')),
    metric: 'b.woundsLost',
    moves: 'up',
    why: '2 Wounds per unsaved hit',
  },
];

const parse = (input: ScenarioInput, rules: Partial<Rules> = {}) => scenarioSchema.parse({ ...input, rules });
const kernelOf = (input: ScenarioInput, rules: Partial<Rules>, method: DrawMethod): Kernel =>
  compileBattleforge(parse(input, rules), profiles, powers, method);
function exactOf(input: ScenarioInput, rules: Partial<Rules>): ExactDistributions {
  const exact = exactDistributions(kernelOf(input, rules, 'tables'), EXACT_BUDGET);
  if (exact === undefined) throw new Error('too many paths to enumerate');
  return exact;
}
const distributionOf = (kernel: Kernel, exact: ExactDistributions, metric: string): Float64Array => {
  const index = kernel.metrics.findIndex((spec) => spec.name === metric);
  if (index < 0) throw new Error(`no metric ${metric}`);
  return exact.probabilities[index] as Float64Array;
};

describe('Battle Forge rule knobs: each moves its result the way the rule says, and exact = mc = mc-dice', () => {
  it('every knob of rulesSchema has a case', () => {
    expect(CASES.map((knobCase) => knobCase.knob).sort()).toEqual(Object.keys(rulesSchema.shape).sort());
  });

  const titled = CASES.map(
    (knobCase, index) =>
      [`${knobCase.knob} = ${knobCase.value}: ${knobCase.metric} ${knobCase.moves} (${knobCase.why})`, { ...knobCase, index }] as const,
  );
  it.each(titled)('%s', (_title, { knob, value, scenario, metric, moves, index }) => {
    const rules = { [knob]: value } as Partial<Rules>;
    const changed = exactOf(scenario, rules);
    const reference = kernelOf(scenario, {}, 'tables');
    const before = mean(distributionOf(reference, exactOf(scenario, {}), metric));
    const after = mean(distributionOf(reference, changed, metric));
    // (a) the direction, on exact answers (no sampling error to allow for).
    if (moves === 'up') expect(after, `${metric}: ${before} at the default`).toBeGreaterThan(before + 1e-9);
    else expect(after, `${metric}: ${before} at the default`).toBeLessThan(before - 1e-9);
    // (b) both Monte Carlo methods against the exact distribution.
    (['tables', 'dice'] as const).forEach((method, m) => {
      const kernel = kernelOf(scenario, rules, method);
      const tally = runTrials(kernel, { seed: SEED + 2 * index + m, trials: TRIALS });
      expectMatchesExact(tally, metric, distributionOf(kernel, changed, metric));
    });
  });
});

describe('a knob in a scenario file reaches the kernel (crucible run --set rules.<knob>=…)', () => {
  it('bowmen-hold-vs-orc-charge as one volley: Soft cover worth +3 saves more, in exact and Monte Carlo alike', async () => {
    const file = path.join(REPOSITORY, 'data/battleforge/scenarios/bowmen-hold-vs-orc-charge.yaml');
    // One volley of the Bowmen (side A) at the Orc Warriors, put in Soft cover.
    const fields = (softCover: number) =>
      [
        ['mode', 'attack'],
        ['sides[1].units[0].cover', 'soft'],
        ['rules.softCover', softCover],
      ] as const;
    const [atDefault, changed] = await Promise.all([
      loadScenarioChanged(file, { fields: fields(1) }),
      loadScenarioChanged(file, { fields: fields(4) }),
    ]);
    const exact = (loaded: typeof changed) =>
      exactDistributions(compileSpec(kernelSpecOf(loaded, 'tables')), EXACT_BUDGET) as ExactDistributions;
    const kernel = compileSpec(kernelSpecOf(changed, 'tables'));
    const metric = 'orc-warriors.woundsLost';
    const changedExact = distributionOf(kernel, exact(changed), metric);
    expect(mean(changedExact)).toBeLessThan(mean(distributionOf(kernel, exact(atDefault), metric)) - 0.1);
    expectMatchesExact(runTrials(compileSpec(kernelSpecOf(changed, 'dice')), { seed: SEED, trials: TRIALS }), metric, changedExact);
  });
});
