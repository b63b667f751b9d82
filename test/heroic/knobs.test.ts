import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileHeroic, rulesSchema, type Scenario, type Unit } from '../../engine/heroic/index.js';
import { validateHeroic } from '../../engine/heroic/validate.js';
import type { DrawMethod } from '../../engine/kernel.js';
import { EXACT_BUDGET, exactDistributions } from '../../sim/exact.js';
import { compileSpec, kernelSpecOf } from '../../sim/kernel-spec.js';
import { runTrials } from '../../sim/run.js';
import { loadScenarioChanged } from '../../input/scenario-file.js';
import { type Distribution, mean } from '../helpers/distribution.js';
import { type Enumerated, enumerate, expectFitsExact, expectSameProbabilities } from '../helpers/enumeration.js';
import { expectMatchesExact } from '../helpers/exact-check.js';
import { trialsToCatch } from '../helpers/power.js';
import { REPOSITORY } from '../helpers/repository.js';
import { attackScenario, engagementScenario, type GroupInput, model, type OptionsInput, type RulesInput, weapon } from './scenarios.js';

/**
 * The rule constants as knobs (`rules:` in a scenario, engine/heroic/README.md "Rule constants").
 * For every knob, a small scenario with a non-default value:
 *   (a) exact enumeration moves from the printed value's answer, in the direction the rule says;
 *   (b) exact enumeration (method tables), Monte Carlo by tables (`mc`) and by dice (`mc-dice`)
 *       agree: each Monte Carlo histogram of the knob's metric value by value within 4 SE of its
 *       own standard error and on the mean (helpers/exact-check.ts), every metric by χ² (α = 1e-6).
 * (b) is what fails when one method reads a constant the others do not (a 5+ hard-coded in the
 * outcome tables while the dice read the knob). Every case enumerates within --method exact's
 * budget, regeneration's two-round engagement included, so no knob needs a two-sample comparison.
 * Power: 25,015 trials per method catch a 2-percentage-point error in any outcome's probability
 * with probability ≥ 0.99 (helpers/power.ts). Seed fixed before any result was seen.
 */
const SEED = 20261122;
const TRIALS = trialsToCatch({ shift: 0.02 });
const ALPHA = 1e-6;
const METHODS = ['tables', 'dice'] as const satisfies readonly DrawMethod[];

// Inline profiles (test/heroic/scenarios.ts): only what each case needs.
const UNITS: Unit[] = [
  model('striker', { def: 4, might: 20, will: 3, weapons: [weapon('melee', 1)] }),
  model('brute', { def: 4, might: 20, will: 3, weapons: [weapon('melee', 3)] }),
  model('burner', { def: 4, might: 20, will: 3, weapons: [weapon('melee', 1, ['Fire'])] }),
  model('freezer', { def: 4, might: 20, will: 3, weapons: [weapon('melee', 2, ['Frost'])] }),
  model('spearman', { def: 4, might: 2, will: 4, weapons: [weapon('melee', 2)] }),
  model('champion', { def: 4, might: 20, will: 3, heroic: true, weapons: [weapon('melee', 2)] }),
  model('ogre', { def: 3, shield: true, might: 4, will: 4 }),
  model('shield-wall', { def: 4, shield: true, might: 2, will: 4 }),
  model('troll', { def: 3, might: 8, will: 4 }),
  model('draugr', { def: 4, might: 6, will: 4, weak: ['Fire'], resist: ['Frost'] }),
  model('ice-guard', { def: 4, might: 2, will: 4, resist: ['Frost'] }),
  model('recruit', { def: 4, might: 1, will: 4 }),
  model('regenerator', { def: 3, might: 5, will: 4, regenerates: true, weapons: [weapon('melee', 1)] }),
];

const group = (id: string, unit: string, models: number, extra: Partial<GroupInput> = {}): GroupInput => ({ id, unit, models, ...extra });
const formation = (id: string, unit: string, models: number, extra: Partial<GroupInput> = {}): GroupInput =>
  group(id, unit, models, { formation: true, ...extra });

interface KnobCase {
  readonly knob: keyof RulesInput;
  readonly value: number;
  /** The scenario with the given rules (the knob's case at `value`, or at the printed value with {}). */
  readonly scenario: (rules: RulesInput) => Scenario;
  /** The metric the knob moves, and which way the rule says. */
  readonly metric: string;
  readonly direction: 'up' | 'down';
  readonly why: string;
}

const oneAttack =
  (name: string, attackers: GroupInput[], defenders: GroupInput[], options: OptionsInput = {}) =>
  (rules: RulesInput) =>
    attackScenario(name, attackers, defenders, options, rules);

const CASES: readonly KnobCase[] = [
  {
    knob: 'shieldSave',
    value: 4,
    scenario: oneAttack('one die at a shielded Ogre', [group('a', 'striker', 1)], [group('ogre', 'ogre', 1)]),
    metric: 'ogre.woundsTaken',
    direction: 'down',
    why: 'a Shield saving on 4+ saves more often than on 5+',
  },
  {
    knob: 'shieldSave',
    value: 4,
    // Every-model Shield dice: three dice drawn as one Binomial in the attack's table.
    scenario: oneAttack('a formation at a shielded formation', [formation('a', 'spearman', 3)], [formation('wall', 'shield-wall', 3)]),
    metric: 'wall.woundsTaken',
    direction: 'down',
    why: 'three Shield dice on 4+ cancel more than on 5+',
  },
  {
    knob: 'shieldSave',
    value: 3,
    // Option allocated-models: a model's own Shield die as it is first allocated Wounds.
    scenario: oneAttack(
      'a formation at a shielded formation, allocated Shields',
      [formation('a', 'spearman', 3)],
      [formation('wall', 'shield-wall', 3)],
      {
        shieldRolls: 'allocated-models',
      },
    ),
    metric: 'wall.woundsTaken',
    direction: 'down',
    why: 'each allocated model saves on 3+ instead of 5+',
  },
  {
    knob: 'shieldWounds',
    value: 2,
    scenario: oneAttack('three dice at a shielded Ogre', [group('a', 'brute', 1)], [group('ogre', 'ogre', 1)]),
    metric: 'ogre.woundsTaken',
    direction: 'down',
    why: 'a successful Shield die ignores 2 Wounds instead of 1',
  },
  {
    knob: 'criticalFace',
    value: 5,
    scenario: oneAttack('three dice at a Troll', [group('a', 'brute', 1)], [group('troll', 'troll', 1)]),
    metric: 'troll.woundsTaken',
    direction: 'up',
    why: 'fives are Critical Hits too: 2 Wounds each',
  },
  {
    knob: 'criticalBonus',
    value: 2,
    scenario: oneAttack('three dice at a Troll', [group('a', 'brute', 1)], [group('troll', 'troll', 1)]),
    metric: 'troll.woundsTaken',
    direction: 'up',
    why: 'a six scores 3 Wounds instead of 2',
  },
  {
    knob: 'weaknessBonus',
    value: 2,
    // A formation of 3 (per-figure Weakness): +2 per figure, +6 in all, inside the attack's table.
    scenario: oneAttack('three Fire strikers in formation at a Draugr', [formation('a', 'burner', 3)], [group('draugr', 'draugr', 1)]),
    metric: 'draugr.woundsTaken',
    direction: 'up',
    why: 'each figure adds 2 Wounds to a Fire attack that scored',
  },
  {
    knob: 'resistanceReduction',
    value: 2,
    scenario: oneAttack('two Frost dice at a Draugr', [group('a', 'freezer', 1)], [group('draugr', 'draugr', 1)]),
    metric: 'draugr.woundsTaken',
    direction: 'down',
    why: 'Resistance ignores 2 Frost Wounds per Attack Action',
  },
  {
    knob: 'resistanceReduction',
    value: 2,
    // Against a formation Resistance applies per model allocated Wounds (allocation, not the table).
    scenario: oneAttack(
      'three Frost duellists in formation at a resistant formation',
      [formation('a', 'freezer', 3)],
      [formation('guard', 'ice-guard', 3)],
    ),
    metric: 'guard.woundsTaken',
    direction: 'down',
    why: 'each model allocated Wounds ignores 2 of them',
  },
  {
    knob: 'regenerationHeal',
    value: 2,
    // Two rounds: the regenerator heals at the start of its own activation, between the two attacks.
    scenario: (rules) =>
      engagementScenario(
        'three dice twice at a regenerating brute',
        2,
        [group('a', 'brute', 1)],
        [group('regenerator', 'regenerator', 1)],
        {},
        rules,
      ),
    metric: 'regenerator.vanquished',
    direction: 'down',
    why: 'healing 2 Wounds per activation keeps it standing more often',
  },
  {
    knob: 'formationMinimum',
    value: 4,
    // The attacker is no formation: one of 3 would itself be too small at 4.
    scenario: oneAttack('three dice at a formation of 4 recruits', [group('a', 'brute', 1)], [formation('recruits', 'recruit', 4)]),
    metric: 'recruits.formationBroken',
    direction: 'up',
    why: 'the formation breaks at its first loss instead of its second',
  },
  {
    knob: 'chargeTorment',
    value: 2,
    // A Heroic WILL 3 model charging a formation of 3 tests WILL (rulings §7): fails on 4–6.
    scenario: oneAttack(
      'a champion charges a formation',
      [group('champion', 'champion', 1, { charging: true })],
      [formation('wall', 'shield-wall', 3)],
    ),
    metric: 'A.torment',
    direction: 'up',
    why: 'a failed charge test gives 2 Torment instead of 1',
  },
];

/** Every metric's exact distribution: one trial enumerated (method tables, as --method exact). */
const exactOf = (scenario: Scenario): Enumerated => enumerate(compileHeroic(scenario, UNITS, 'tables'), scenario.name);

describe('every rule knob changes the result the way its rule says, and exact, mc and mc-dice agree on it', () => {
  it.each(CASES.map((c) => [`${c.knob}: ${c.value}`, c.scenario({}).name, c] as const))('%s (%s)', (_label, _name, c) => {
    const printed = c.scenario({});
    const changed = c.scenario({ [c.knob]: c.value });
    expect(changed.rules[c.knob], 'the knob reached the parsed scenario').toBe(c.value);
    expect(changed.rules[c.knob], 'the case changes the knob from its printed value').not.toBe(printed.rules[c.knob]);
    expect(validateHeroic(changed, UNITS)).toEqual([]);

    // (a) the exact answer moves, in the rule's direction.
    const before = mean(exactOf(printed).probabilities(c.metric));
    const enumerated = exactOf(changed);
    const exact = enumerated.probabilities(c.metric);
    const moved = mean(exact) - before;
    expect(c.direction === 'up' ? moved : -moved, `${c.metric}: mean ${before} → ${mean(exact)} (${c.why})`).toBeGreaterThan(0.01);

    // (b) mc and mc-dice against exact.
    METHODS.forEach((method, m) => {
      const kernel = compileHeroic(changed, UNITS, method);
      const tally = runTrials(kernel, { seed: SEED + m, trials: TRIALS });
      expectMatchesExact(tally, c.metric, exact);
      for (const metric of kernel.metrics) {
        expectFitsExact(`${method} ${metric.name}`, tally.histogram(metric.name), enumerated.probabilities(metric.name), TRIALS, ALPHA);
      }
    });
  });

  it('covers every knob of the rules block', () => {
    const covered = new Set(CASES.map((c) => c.knob));
    expect(Object.keys(rulesSchema.shape).filter((knob) => !covered.has(knob as keyof RulesInput))).toEqual([]);
  });
});

/**
 * The designer's question, "what if Shields saved on 4+?", worked by hand: one ATK die against a
 * single shielded model of DEF 3 (MIGHT 4, so no cap), 6 × 6 equally likely (ATK face, Shield face)
 * pairs. The ATK die scores 0 below DEF, 1 from DEF, 2 on a six (Attack vs Deflection Check); a
 * Shield face ≥ f ignores 1 of them, rolled only when there is one to ignore (Shield Roll).
 */
function oneDieAgainstShield(def: number, shieldFace: number): Distribution {
  const p = new Float64Array(3);
  for (let atk = 1; atk <= 6; atk++) {
    const rolled = atk === 6 ? 2 : atk >= def ? 1 : 0;
    for (let shield = 1; shield <= 6; shield++) {
      const saved = rolled > 0 && shield >= shieldFace ? 1 : 0;
      p[rolled - saved] = (p[rolled - saved] as number) + 1 / 36;
    }
  }
  return p;
}

describe('Shields on 4+: the same answer by hand, by --method exact, mc and mc-dice', () => {
  const shieldCase = CASES[0] as KnobCase;

  it('the hand convolution: 7/12, 4/12, 1/12 at 4+ (1/2, 7/18, 1/9 at the printed 5+)', () => {
    expectSameProbabilities('by hand, 4+', oneDieAgainstShield(3, 4), [7 / 12, 4 / 12, 1 / 12], 1e-14);
    expectSameProbabilities('by hand, 5+', oneDieAgainstShield(3, 5), [1 / 2, 7 / 18, 1 / 9], 1e-14);
  });

  it.each([1, 2, 3, 4, 5, 6, 7])('exact enumeration equals the hand convolution for a Shield on %i+', (face) => {
    const exact = exactOf(shieldCase.scenario({ shieldSave: face })).probabilities('ogre.woundsTaken');
    expectSameProbabilities(`exact, ${face}+`, exact, oneDieAgainstShield(3, face), 1e-12);
  });

  it('mc and mc-dice match the hand convolution at 4+', () => {
    const scenario = shieldCase.scenario({ shieldSave: 4 });
    METHODS.forEach((method, m) => {
      const tally = runTrials(compileHeroic(scenario, UNITS, method), { seed: SEED + m, trials: TRIALS });
      expectMatchesExact(tally, 'ogre.woundsTaken', oneDieAgainstShield(3, 4));
    });
  });

  it('through a scenario file and `--set rules.shieldSave=4` (the sweep path): exact, mc and mc-dice agree, and differ from 5+', async () => {
    const file = path.join(REPOSITORY, 'data', 'heroic', 'scenarios', 'sylvan-knights-formation.yaml');
    const [printed, changed] = await Promise.all([
      loadScenarioChanged(file, {}),
      loadScenarioChanged(file, { fields: [['rules.shieldSave', 4]] }),
    ]);
    const exactOfLoaded = (loaded: typeof printed) => {
      const kernel = compileSpec(kernelSpecOf(loaded, 'tables'));
      const exact = exactDistributions(kernel, EXACT_BUDGET);
      if (exact === undefined) throw new Error('does not enumerate');
      return (metric: string) => exact.probabilities[kernel.metrics.findIndex((spec) => spec.name === metric)] as Float64Array;
    };
    const before = exactOfLoaded(printed);
    const after = exactOfLoaded(changed);
    expect(mean(after('ogre.woundsTaken'))).toBeLessThan(mean(before('ogre.woundsTaken')) - 0.01);
    METHODS.forEach((method, m) => {
      const kernel = compileSpec(kernelSpecOf(changed, method));
      const tally = runTrials(kernel, { seed: SEED + m, trials: TRIALS });
      for (const metric of kernel.metrics)
        expectFitsExact(`${method} ${metric.name}`, tally.histogram(metric.name), after(metric.name), TRIALS, ALPHA);
    });
  });
});

describe('knob values are checked', () => {
  it('a knob out of range, or misspelt, is a schema error naming it', () => {
    const issues = (rules: unknown) => rulesSchema.safeParse(rules).error?.issues.map((issue) => issue.path.join('.')) ?? [];
    expect(issues({ shieldSave: 8 })).toEqual(['shieldSave']);
    expect(issues({ criticalFace: 0 })).toEqual(['criticalFace']);
    expect(issues({ formationMinimum: 1 })).toEqual(['formationMinimum']);
    expect(issues({ shieldsave: 4 }).length).toBe(1);
    expect(issues({})).toEqual([]);
  });

  it('rules.formationMinimum raises the size a declared formation needs (rulings §8)', () => {
    const scenario = attackScenario(
      'three in formation',
      [formation('a', 'spearman', 3)],
      [group('troll', 'troll', 1)],
      {},
      { formationMinimum: 4 },
    );
    expect(validateHeroic(scenario, UNITS)).toEqual([
      {
        path: ['sides', 0, 'groups', 0, 'formation'],
        message: 'a formation needs at least 4 models (rulings §8, rules.formationMinimum); this group has 3',
      },
    ]);
  });
});
