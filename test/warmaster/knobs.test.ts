import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { streamDice } from '../../engine/dice/index.js';
import type { DrawMethod, Kernel } from '../../engine/kernel.js';
import { compileWarmaster } from '../../engine/warmaster/index.js';
import { PRINTED_RULES, type Rules, rulesSchema, type Scenario, type ScenarioInput } from '../../engine/warmaster/schema.js';
import { compileSpec, kernelSpecOf } from '../../sim/kernel-spec.js';
import { runTrials } from '../../sim/run.js';
import { type LoadedScenario, loadScenarioChanged } from '../../input/scenario-file.js';
import { type Enumerated, enumerate, expectFitsExact, expectSameProbabilities } from '../helpers/enumeration.js';
import { expectMatchesExact } from '../helpers/exact-check.js';
import { rangeProblems, runRows } from '../helpers/kernel-checks.js';
import { trialsToCatch } from '../helpers/power.js';
import { REPOSITORY } from '../helpers/repository.js';
import { exactRound1, type OracleRules, TEXT_RULES } from './oracle.js';
import { armyUnits, warmasterScenario } from './scenarios.js';

/**
 * Every constant of the rule text is a knob of `rules:` (engine/warmaster/schema.ts). For each, a
 * small engagement with the knob set away from the text's value:
 *   (a) the exact answer moves the way the rule says (a metric's mean, or one outcome's chance);
 *       where the knob acts in round 1, the exact enumeration of the round (maxRounds 1) equals the
 *       independent round-1 oracle (oracle.ts, written from the text) at the knob's value to 1e-12;
 *   (b) `exact` enumeration, Monte Carlo by tables (`mc`) and by dice (`mc-dice`) agree: every
 *       metric's histogram fits the exact distribution (χ² at α = 1e-6, mean within 4 SE of the
 *       run's own SE), and the knob's metric value by value within 4 SE (helpers/exact-check.ts).
 * The knobs that act after round 1 (pursuit, regeneration, rounds per turn, advances) are played
 * over short chains of small units, still enumerated whole. Trials: a 2-point error in any outcome
 * is caught with power 0.99 (helpers/power.ts); fixed seed 20261122 (+1 for dice), never tuned.
 */
const SEED = 20261122;
const ALPHA = 1e-6;
const TRIALS = trialsToCatch({ shift: 0.02 });

type Sides = ScenarioInput['sides'];
type Knob = keyof Rules;

interface KnobCase {
  readonly knob: Knob;
  readonly value: number;
  readonly why: string;
  readonly sides: Sides;
  /** Scenario fields besides the sides (default: one round, `maxRounds: 1`). */
  readonly fields?: Omit<ScenarioInput, 'ruleset' | 'name' | 'sides'>;
  readonly metric: string;
  /** What the rule moves: the metric's mean (default) or the chance of one of its values. */
  readonly outcome?: number;
  /** +1: the knob's value raises it; −1: lowers it. */
  readonly direction: 1 | -1;
  /** A further place a knob is read (shooting), checked against the oracle only: the knob's first case runs the methods. */
  readonly oracleOnly?: true;
}

const ONE_ROUND = { maxRounds: 1 } as const;
/** Empire Knights (cavalry A3, Armour 4+) charge the front of Orc Warriors (infantry A4, H3, 6+) in the open. */
const KNIGHTS_CHARGE: Sides = [
  { name: 'Empire', units: [{ id: 'knights', unit: 'empire/knights', charging: true, contact: { front: 3 } }] },
  { name: 'Orcs', units: [{ id: 'orcs', unit: 'orcs/orc-warriors', contact: { front: 3 } }] },
];
/** As data/warmaster/scenarios/knights-charge-supported-orcs-first-round.yaml: the Orcs supported by a second unit. */
const KNIGHTS_CHARGE_SUPPORTED: Sides = [
  {
    name: 'Empire',
    policy: 'pursue',
    units: [{ id: 'knights', unit: 'empire/knights', charging: true, contact: { target: 'orcs', front: 3 } }],
  },
  {
    name: 'Orcs',
    policy: 'pursue',
    units: [
      { id: 'orcs', unit: 'orcs/orc-warriors', contact: { target: 'knights', front: 3 } },
      { id: 'orc-support', unit: 'orcs/orc-warriors', supports: 3, supporting: 'orcs' },
    ],
  },
];
/** The same with two stands a side over two rounds: the Knights pursue (Orcs may not pursue cavalry). */
const KNIGHTS_PURSUE: Sides = [
  { name: 'Empire', units: [{ id: 'knights', unit: 'empire/knights', stands: 2, charging: true, contact: { front: 2 } }] },
  { name: 'Orcs', units: [{ id: 'orcs', unit: 'orcs/orc-warriors', stands: 2, contact: { front: 2 } }] },
];
const charger = (army: string, unit: string, extra: Partial<Sides[number]['units'][number]> = {}): Sides[number] => ({
  name: 'Attackers',
  units: [{ id: 'attackers', unit: `${army}/${unit}`, charging: true, contact: { front: 3 }, ...extra }],
});
const defender = (army: string, unit: string, extra: Partial<Sides[number]['units'][number]> = {}): Sides[number] => ({
  name: 'Defenders',
  units: [{ id: 'defenders', unit: `${army}/${unit}`, contact: { front: 3 }, ...extra }],
});

const CASES: readonly KnobCase[] = [
  { knob: 'hitOnOpen', value: 3, why: 'Knights hit the Orcs on 3+', sides: KNIGHTS_CHARGE, metric: 'B.standsLost', direction: 1 },
  {
    knob: 'hitOnDefended',
    value: 4,
    why: 'charging Orcs hit defended Halberdiers on 4+',
    sides: [charger('orcs', 'orc-warriors'), defender('empire', 'halberdiers', { position: 'defended' })],
    metric: 'B.standsLost',
    direction: 1,
  },
  {
    knob: 'hitOnFortified',
    value: 5,
    why: 'Black Orcs hit fortified Dwarf Warriors on 5+',
    sides: [charger('orcs', 'black-orcs'), defender('dwarfs', 'warriors', { position: 'fortified' })],
    metric: 'B.standsLost',
    direction: 1,
  },
  {
    knob: 'chargeBonus',
    value: 2,
    why: 'charge +2 for everyone: the Knights roll 15 dice, not 12',
    sides: KNIGHTS_CHARGE_SUPPORTED,
    metric: 'B.standsLost',
    direction: 1,
  },
  {
    knob: 'monsterChariotChargeBonus',
    value: 2,
    why: 'Wolf Chariots charge at +3 in all, not +2',
    sides: [charger('orcs', 'wolf-chariots'), defender('empire', 'halberdiers')],
    metric: 'B.standsLost',
    direction: 1,
  },
  {
    knob: 'terrorPenalty',
    value: 2,
    why: 'Halberdiers charging a terrifying Ethereal Host fight at −2',
    sides: [charger('empire', 'halberdiers'), defender('vampire-counts', 'ethereal-host')],
    metric: 'B.standsLost',
    direction: -1,
  },
  {
    knob: 'flankRearPenalty',
    value: 2,
    why: 'Orcs touched in the flank fight at −2',
    sides: [charger('empire', 'halberdiers'), defender('orcs', 'orc-warriors', { contact: { flank: 3 } })],
    metric: 'A.standsLost',
    direction: -1,
  },
  {
    knob: 'confusedPenalty',
    value: 2,
    why: 'confused Orcs fight at −2',
    sides: [charger('empire', 'halberdiers'), defender('orcs', 'orc-warriors', { confused: true })],
    metric: 'A.standsLost',
    direction: -1,
  },
  {
    knob: 'lastDitchDice',
    value: 3,
    why: "confused Waywatchers at 0 in a Giant's flank roll 3 last-ditch dice against its 1 hit left",
    sides: [
      { name: 'Orcs', units: [{ id: 'giant', unit: 'orcs/giant', hits: 7, charging: true, contact: { front: 1 } }] },
      { name: 'Wood Elves', units: [{ id: 'waywatchers', unit: 'wood-elves/waywatchers', confused: true, contact: { flank: 1 } }] },
    ],
    metric: 'A.standsLost',
    direction: 1,
  },
  {
    knob: 'armourOneWorseFaces',
    value: 2,
    why: 'armour-piercing Halberdiers leave the Boar Riders (5+) no save',
    sides: [charger('orcs', 'boar-riders'), defender('empire', 'halberdiers', { armourPiercing: true })],
    metric: 'A.standsLost',
    direction: 1,
  },
  {
    knob: 'hitOnOpen',
    value: 3,
    why: 'Dwarf Handgunners shoot at the charging Knights on 3+',
    sides: [charger('empire', 'knights'), defender('dwarfs', 'handgunners', { shootsAtChargers: true })],
    metric: 'A.standsLost',
    direction: 1,
    oracleOnly: true,
  },
  {
    knob: 'supportBonus',
    value: 3,
    why: 'two supporting Halberdier stands add 6 to the result, not 2',
    sides: [charger('orcs', 'orc-warriors'), defender('empire', 'halberdiers', { contact: { front: 1 }, supports: 2 })],
    metric: 'round1',
    outcome: 2,
    direction: 1,
  },
  {
    knob: 'retreatCmPerHit',
    value: 2,
    why: 'the loser retreats 2 cm per hit of difference',
    sides: KNIGHTS_CHARGE,
    metric: 'retreat',
    direction: 1,
  },
  { knob: 'minimumRetreat', value: 4, why: 'no retreat shorter than 4 cm', sides: KNIGHTS_CHARGE, metric: 'retreat', direction: 1 },
  {
    knob: 'oneStandBonusAttacks',
    value: 3,
    why: "one stand of Braganza's Besiegers strikes with +3",
    sides: [charger('regiments-of-renown', 'braganzas-besiegers'), defender('orcs', 'orc-warriors')],
    metric: 'B.standsLost',
    direction: 1,
  },
  {
    knob: 'firstRoundFrontBonusAttacks',
    value: 2,
    why: 'Cold One Knights fight at +2 to the front in round 1',
    sides: [charger('dark-elves', 'cold-one-knights'), defender('orcs', 'orc-warriors')],
    metric: 'B.standsLost',
    direction: 1,
  },
  {
    knob: 'vsMonstersBonusAttacks',
    value: 2,
    why: 'Troll Slayers fight a Giant at +2',
    sides: [charger('dwarfs', 'troll-slayers'), defender('orcs', 'giant', { contact: { front: 1 } })],
    metric: 'B.standsLost',
    direction: 1,
  },
  {
    knob: 'chargeBonusD6Dice',
    value: 2,
    why: 'a charging Doom Wheel adds 2D6 Attacks, not D6',
    sides: [charger('skaven', 'doom-wheel', { contact: { front: 1 } }), defender('empire', 'halberdiers')],
    metric: 'B.standsLost',
    direction: 1,
  },
  {
    knob: 'fallBackDice',
    value: 1,
    why: 'a drawn round falls back D6 cm, not 3D6',
    sides: [
      { name: 'Skeletons', units: [{ id: 'skeletons', unit: 'vampire-counts/skeletons', stands: 1, contact: { front: 1 } }] },
      { name: 'Goblins', units: [{ id: 'goblins', unit: 'orcs/goblins', stands: 1, contact: { front: 1 } }] },
    ],
    metric: 'A.fallBack',
    direction: -1,
  },
  {
    knob: 'pursuitBonus',
    value: 3,
    why: 'pursuing Knights strike at +3 in round 2',
    sides: KNIGHTS_PURSUE,
    fields: { maxRounds: 2 },
    metric: 'B.standsLost',
    direction: 1,
  },
  {
    knob: 'pursuitStepCm',
    value: 1,
    why: '+1 for every full 1 cm the Orcs retreated, not 3 cm',
    sides: KNIGHTS_PURSUE,
    fields: { maxRounds: 2 },
    metric: 'B.standsLost',
    direction: 1,
  },
  {
    knob: 'pursuitStepBonus',
    value: 3,
    why: '+3 for every full 3 cm the Orcs retreated',
    sides: KNIGHTS_PURSUE,
    fields: { maxRounds: 2 },
    metric: 'B.standsLost',
    direction: 1,
  },
  {
    knob: 'regenerationHits',
    value: 2,
    why: 'Trolls regenerate 2 carried hits a round: fewer stands lost over two rounds',
    sides: [
      KNIGHTS_PURSUE[0] as Sides[number],
      { name: 'Orcs', units: [{ id: 'trolls', unit: 'orcs/trolls', stands: 2, contact: { front: 2 } }] },
    ],
    fields: { maxRounds: 2 },
    metric: 'B.standsLost',
    direction: -1,
  },
  {
    knob: 'roundsPerTurn',
    value: 1,
    why: 'one round a turn: a pursuit carries the combat into the next turn at once',
    sides: KNIGHTS_PURSUE,
    fields: { maxTurns: 2 },
    metric: 'turns',
    direction: 1,
  },
  {
    knob: 'advancesPerPhase',
    value: 2,
    why: 'Knights that wipe out a wounded Goblin stand may advance twice in the phase',
    sides: [
      { name: 'Empire', units: [{ id: 'knights', unit: 'empire/knights', stands: 1, charging: true, contact: { front: 1 } }] },
      {
        name: 'Orcs',
        units: [
          { id: 'goblins', unit: 'orcs/goblins', stands: 1, hits: 2, contact: { front: 1 } },
          { id: 'reserve-1', unit: 'orcs/goblins', stands: 1, hits: 2, reserve: { chance: 1 } },
          { id: 'reserve-2', unit: 'orcs/goblins', stands: 1, hits: 2, reserve: { chance: 1 } },
        ],
      },
    ],
    fields: { maxTurns: 1 },
    metric: 'advances',
    direction: 1,
  },
];

/** The knobs the round-1 oracle reads. */
const ORACLE_KNOBS = new Set<string>(Object.keys(TEXT_RULES));

const scenarioOf = (entry: KnobCase, rules: Partial<Rules>): Scenario =>
  warmasterScenario({ ...(entry.fields ?? ONE_ROUND), sides: entry.sides, rules });
const kernelOf = (scenario: Scenario, method: DrawMethod): Kernel => compileWarmaster(scenario, armyUnits(), method);
const mean = (distribution: ArrayLike<number>): number => Array.from(distribution).reduce((sum, p, v) => sum + p * v, 0);

/** The text's exact answer for an engagement, enumerated once for the cases that share it. */
const textAnswers = new Map<string, Enumerated>();
function byTheText(scenario: Scenario, label: string): Enumerated {
  const key = JSON.stringify(scenario);
  const found = textAnswers.get(key) ?? enumerate(kernelOf(scenario, 'tables'), label);
  textAnswers.set(key, found);
  return found;
}

/** Round 1 exactly as the oracle has it, on the metrics `round1` (1: A won, 2: B won, 3: draw) and `retreat`. */
function expectOracle(label: string, exact: Enumerated, scenario: Scenario, rules: OracleRules): void {
  const oracle = exactRound1(scenario, armyUnits(), rules);
  expectSameProbabilities(`${label} round1`, exact.probabilities('round1'), [0, oracle.aWins, oracle.bWins, oracle.draw], 1e-12);
  expectSameProbabilities(`${label} retreat`, exact.probabilities('retreat'), oracle.retreat, 1e-12);
}

/** (b): exact, mc and mc-dice agree on every metric of `scenario`; the knob's metric value by value. */
function expectMethodsAgree(label: string, scenario: Scenario, exact: Enumerated, metric: string): void {
  (['tables', 'dice'] as const).forEach((method, m) => {
    const kernel = kernelOf(scenario, method);
    const tally = runTrials(kernel, { seed: SEED + m, trials: TRIALS });
    for (const spec of kernel.metrics)
      expectFitsExact(`${label} (${method}) ${spec.name}`, tally.histogram(spec.name), exact.probabilities(spec.name), TRIALS, ALPHA);
    expectMatchesExact(tally, metric, exact.probabilities(metric));
  });
}

describe('every rule constant is a knob', () => {
  it('the cases cover every field of rules:, each set away from its default', () => {
    expect([...new Set(CASES.map((entry) => entry.knob))].sort()).toEqual(Object.keys(rulesSchema.shape).sort());
    for (const entry of CASES) expect(entry.value, entry.knob).not.toBe(PRINTED_RULES[entry.knob]);
    // The oracle's numbers are the text's, as the schema's defaults print them.
    for (const [knob, value] of Object.entries(TEXT_RULES)) expect(PRINTED_RULES[knob as Knob], knob).toBe(value);
  });

  it.each(CASES.map((entry) => [`rules.${entry.knob} = ${entry.value}: ${entry.why}`, entry] as const))(
    '%s; exact, mc and mc-dice agree',
    (label, entry) => {
      const text = scenarioOf(entry, {});
      const knobbed = scenarioOf(entry, { [entry.knob]: entry.value });
      const before = byTheText(text, label);
      const after = enumerate(kernelOf(knobbed, 'tables'), label);
      // (a) Which way it moved, and by more than rounding.
      const measure = (exact: Enumerated) =>
        entry.outcome === undefined ? mean(exact.probabilities(entry.metric)) : (exact.probabilities(entry.metric)[entry.outcome] ?? 0);
      expect(Math.sign(measure(after) - measure(before)), `${entry.metric}: ${measure(before)} → ${measure(after)}`).toBe(entry.direction);
      expect(Math.abs(measure(after) - measure(before))).toBeGreaterThan(1e-3);
      if (entry.fields === undefined && ORACLE_KNOBS.has(entry.knob)) {
        expectOracle('the text', before, text, TEXT_RULES);
        expectOracle(`rules.${entry.knob} = ${entry.value}`, after, knobbed, { ...TEXT_RULES, [entry.knob]: entry.value });
      }
      // (b)
      if (entry.oracleOnly === true) return;
      expectMethodsAgree(`rules.${entry.knob} = ${entry.value}`, knobbed, after, entry.metric);
    },
  );
});

describe('a knob from a scenario file, as `crucible sweep --set rules.<knob>=…` reaches it', () => {
  const file = path.join(REPOSITORY, 'data/warmaster/scenarios/knights-charge-supported-orcs-first-round.yaml');
  const load = (fields: readonly (readonly [string, unknown])[]): Promise<LoadedScenario> => loadScenarioChanged(file, { fields });
  const compiled = (loaded: LoadedScenario, method: DrawMethod) => compileSpec(kernelSpecOf(loaded, method));

  it('rules.chargeBonus = 2 (charge +2 for everyone) in the bundled first-round file: exactly the engagement of the chargeBonus case above, whose methods agree; the Orcs lose more stands than by the text', async () => {
    const [text, knobbed] = await Promise.all([load([]), load([['rules.chargeBonus', 2]])]);
    const before = enumerate(compiled(text, 'tables'));
    const after = enumerate(compiled(knobbed, 'tables'));
    expect(mean(after.probabilities('B.standsLost'))).toBeGreaterThan(mean(before.probabilities('B.standsLost')) + 0.05);
    const entry = CASES.find((candidate) => candidate.knob === 'chargeBonus') as KnobCase;
    const inMemory = enumerate(kernelOf(scenarioOf(entry, { chargeBonus: 2 }), 'tables'));
    for (const spec of compiled(knobbed, 'tables').metrics)
      expectSameProbabilities(spec.name, after.probabilities(spec.name), inMemory.probabilities(spec.name), 1e-12);
  });

  it('out-of-range and unknown knobs are bad fields', async () => {
    await expect(load([['rules.hitOnOpen', 7]])).rejects.toThrow(/rules\.hitOnOpen/);
    await expect(load([['rules.fallBackDice', 0]])).rejects.toThrow(/rules\.fallBackDice/);
    await expect(load([['rules.chargeBonus', 1.5]])).rejects.toThrow(/rules\.chargeBonus/);
    await expect(load([['rules.chargeBonusPerStand', 2]])).rejects.toThrow(/rules/);
  });
});

describe('knob values the engine must carry', () => {
  it('every metric stays within its max with long retreats, big supports, many fall-back dice and short turns (2,000 trials a method)', () => {
    const scenario = warmasterScenario({
      maxTurns: 3,
      rules: {
        retreatCmPerHit: 20,
        minimumRetreat: 100,
        supportBonus: 10,
        fallBackDice: 10,
        roundsPerTurn: 1,
        pursuitBonus: 10,
        advancesPerPhase: 3,
      },
      sides: [
        {
          name: 'Empire',
          policy: 'fall-back',
          units: [{ id: 'halberdiers', unit: 'empire/halberdiers', charging: true, contact: { front: 1 }, supports: 2 }],
        },
        {
          name: 'Orcs',
          units: [
            { id: 'orcs', unit: 'orcs/orc-warriors', contact: { front: 2 }, supports: 1 },
            { id: 'reserve', unit: 'orcs/goblins', reserve: { chance: 0.5 } },
          ],
        },
      ],
    });
    for (const method of ['tables', 'dice'] as const) {
      const kernel = kernelOf(scenario, method);
      const rows = runRows(kernel, streamDice(SEED), 2000);
      expect(rangeProblems(kernel.metrics, rows)).toEqual([]);
      // Not vacuous: retreats and fall backs beyond the text's bounds (its longest retreat here is 20 cm, its fall back 18).
      const most = (name: string) => {
        const m = kernel.metrics.findIndex((spec) => spec.name === name);
        return rows.reduce((top, value, cell) => (cell % kernel.metrics.length === m ? Math.max(top, value) : top), 0);
      };
      expect(most('retreat')).toBeGreaterThanOrEqual(100);
      expect(Math.max(most('A.fallBack'), most('B.fallBack'))).toBeGreaterThan(18);
    }
  });
});
