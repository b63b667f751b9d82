import { describe, expect, it } from 'vitest';
import { ScriptedDice, streamDice } from '../../engine/dice/index.js';
import { type Army, compileEpic, type Scenario, type ScenarioInput, scenarioSchema } from '../../engine/epic/index.js';
import { validateEpic } from '../../engine/epic/validate.js';
import { runWithDice } from '../../sim/run.js';
import { Tally } from '../../statistics/tally.js';
import { enumerate, expectSameProbabilities } from '../helpers/enumeration.js';
import { binomialTailAtLeast, binomialTailAtMost } from '../helpers/exact-check.js';
import { chiSquareCritical, chiSquareFit } from '../helpers/chi-square.js';
import { type Distribution, mean, total, variance } from '../helpers/distribution.js';
import { exactEpic, rallyChance } from './oracle.js';
import { trialsToCatch } from '../helpers/power.js';

/**
 * Epic rallies, engine against the exact Markov oracle (test/epic/oracle.ts, written from the rule
 * text, rulings §26–28 and the README's step order, not from the engine) and against hand-worked
 * answers: single Rally tests (Monte Carlo within 4 SE), the marker arithmetic and the FAQ with
 * scripted dice, and multi-turn chains (Pearson χ² over each metric's whole distribution at
 * α = 1e-6, means within 4 SE). Case k draws from streamDice(SEED, k); the seed was fixed before any
 * result was seen: never tune it. Test armies are invented (source "test").
 */
const SEED = 20261122;
const ALPHA = 1e-6;
const Z = 4;

const army = (id: string, strategyRating: number, initiative: number): Army => ({
  id,
  name: id,
  strategyRating,
  initiative,
  source: 'test',
});
const armies = new Map<string, Army>(
  [army('imperial-guard', 2, 2), army('traitor-guard', 2, 2), army('space-marines', 5, 1), army('orks', 3, 3)].map((a) => [a.id, a]),
);

type PlayerInput = ScenarioInput['players'][number];
type FormationInput = PlayerInput['formations'][number];
function scenario(players: PlayerInput[], turns: number, options: ScenarioInput['options'] = {}): Scenario {
  const parsed = scenarioSchema.parse({ ruleset: 'epic', name: 'test', turns, options, players });
  expect(validateEpic(parsed, armies)).toEqual([]);
  return parsed;
}
const guard = (formations: FormationInput[]): PlayerInput => ({ name: 'Guard', army: 'imperial-guard', formations });

/**
 * Scripted D6 faces, and every packed pool a probability is drawn from (engine/dice/chance.ts) reads
 * 23328 = 6⁶/2: the probability holds exactly when p > ½, whether the pools are compared eagerly or
 * lazily (the first pool deciding unless it ties with ⌊p·6⁶⌋, as the engine does).
 */
class HalfChanceDice extends ScriptedDice {
  override d6Packed(): number {
    return 23328;
  }
}

/** One trial on scripted dice, every face used; the row by metric name. */
function scripted(s: Scenario, faces: number[] | ScriptedDice): Record<string, number> {
  // Method dice: the roll-off's faces are scripted (compileEpic's default is tables).
  const kernel = compileEpic(s, armies, 'dice');
  const row = new Int32Array(kernel.metrics.length);
  const dice = Array.isArray(faces) ? new ScriptedDice(faces) : faces;
  kernel.trial(dice, row);
  expect(dice.remaining, 'scripted faces left unused').toBe(0);
  return Object.fromEntries(kernel.metrics.map((metric, m) => [metric.name, row[m] as number]));
}

function monteCarlo(s: Scenario, stream: number, trials: number): Tally {
  const kernel = compileEpic(s, armies, 'dice');
  const tally = new Tally(kernel.metrics);
  runWithDice(kernel, streamDice(SEED, stream), trials, tally);
  return tally;
}

/** A frequency against its exact probability: within 4 SE, or (few expected) inside both 4σ binomial tails. */
function expectFrequency(label: string, count: number, n: number, p: number): void {
  if (p < 1e-12 || p > 1 - 1e-12) {
    expect(count, label).toBe(Math.round(p) * n);
    return;
  }
  const se = Math.sqrt((p * (1 - p)) / n);
  const plausible =
    Math.abs(count / n - p) <= Z * se ||
    (Math.min(n * p, n * (1 - p)) < 25 && binomialTailAtLeast(count, n, p) > 3.167e-5 && binomialTailAtMost(count, n, p) > 3.167e-5);
  expect(plausible, `${label}: p̂ = ${count / n}, exact ${p}, SE ${se}`).toBe(true);
}

/** A metric's whole histogram against its exact distribution: χ² at ALPHA and the mean within 4 SE. */
function expectDistribution(tally: Tally, name: string, exact: Distribution): void {
  const n = tally.trials;
  const histogram = tally.histogram(name);
  expect(Math.abs(total(exact) - 1), `${name}: exact mass`).toBeLessThan(1e-12);
  expect(exact.length - 1, `${name}: exact values beyond the metric's max`).toBeLessThanOrEqual(histogram.length - 1);
  for (let v = 0; v < histogram.length; v++) if ((exact[v] ?? 0) === 0) expect(histogram[v], `${name} = ${v} is impossible`).toBe(0);
  const { statistic, df } = chiSquareFit(histogram, exact, n);
  if (df >= 1) expect(statistic, `${name}: χ² with ${df} df`).toBeLessThan(chiSquareCritical(ALPHA, df));
  let sum = 0;
  for (let v = 0; v < histogram.length; v++) sum += v * (histogram[v] as number);
  const se = Math.sqrt(variance(exact) / n);
  expect(Math.abs(sum / n - mean(exact)), `${name}: mean ${sum / n} vs exact ${mean(exact)} (SE ${se})`).toBeLessThanOrEqual(
    Z * se + 1e-12,
  );
}

describe('a single Rally test (rulings §26)', () => {
  // Passing faces out of 6 by hand, Initiative 1..6: D6 (−2 Broken) (−1 enemy within 30 cm) ≥ Initiative.
  const hand: Record<string, readonly number[]> = {
    'steady-clear': [6, 5, 4, 3, 2, 1],
    'steady-near': [5, 4, 3, 2, 1, 0],
    'broken-clear': [4, 3, 2, 1, 0, 0],
    'broken-near': [3, 2, 1, 0, 0, 0],
  };
  interface Single {
    readonly id: string;
    readonly p: number;
    readonly formation: FormationInput;
  }
  const start = (broken: boolean): Partial<FormationInput> => (broken ? { units: 4, broken: true } : { units: 4, markers: 1 });
  const singles: Single[] = [];
  for (let initiative = 1; initiative <= 6; initiative++) {
    for (const broken of [false, true]) {
      const state = broken ? 'broken' : 'steady';
      for (const near of [false, true]) {
        const id = `i${initiative}-${state}-${near ? 'near' : 'clear'}`;
        const faces = hand[`${state}-${near ? 'near' : 'clear'}`]?.[initiative - 1] ?? NaN;
        singles.push({ id, p: faces / 6, formation: { id, units: 4, initiative, enemyWithin30: near, ...start(broken) } });
      }
      // Off the table, enemy or not: never the −1 (FAQ).
      const id = `i${initiative}-${state}-off-table`;
      const faces = hand[`${state}-clear`]?.[initiative - 1] ?? NaN;
      singles.push({ id, p: faces / 6, formation: { id, units: 4, initiative, enemyWithin30: true, offTable: true, ...start(broken) } });
    }
  }
  singles.push(
    {
      id: 'steady-i3-enemy-30pc',
      p: 0.3 * (3 / 6) + 0.7 * (4 / 6),
      formation: { id: 'steady-i3-enemy-30pc', units: 4, markers: 2, initiative: 3, enemyWithin30: 0.3 },
    },
    {
      id: 'broken-i2-enemy-60pc',
      p: 0.6 * (2 / 6) + 0.4 * (3 / 6),
      formation: { id: 'broken-i2-enemy-60pc', units: 4, broken: true, enemyWithin30: 0.6 },
    },
    {
      id: 'broken-i2-off-25pc-enemy-60pc',
      p: 0.25 * (3 / 6) + 0.75 * (0.6 * (2 / 6) + 0.4 * (3 / 6)),
      formation: { id: 'broken-i2-off-25pc-enemy-60pc', units: 4, broken: true, enemyWithin30: 0.6, offTable: 0.25 },
    },
    {
      id: 'steady-i4-off-50pc',
      p: 0.5 * (3 / 6) + 0.5 * (2 / 6),
      formation: { id: 'steady-i4-off-50pc', units: 4, markers: 1, initiative: 4, offTable: 0.5 },
    },
  );
  const s = scenario([guard(singles.map(({ formation }) => formation))], 1);
  const exact = exactEpic(s, armies);
  // 25,015 trials catch a 2-point error in any formation's chance with probability ≥ 0.99 (helpers/power.ts).
  const TRIALS = trialsToCatch({ shift: 0.02 });

  it('the oracle gives the hand-worked chances', () => {
    for (const { id, p } of singles) expect(exact.get(`${id}.rallies`)?.[1] ?? 0, id).toBeCloseTo(p, 14);
    expect(rallyChance(2, true, 1, 0)).toBeCloseTo(2 / 6, 15); // the text's Guard company: 5 or 6
  });

  it('exact enumeration (sim/exact.ts) of each formation alone equals the hand-worked chance to 1e-12', () => {
    for (const { id, p, formation } of singles) {
      const rallies = enumerate(compileEpic(scenario([guard([formation])], 1), armies, 'tables'), id).probabilities(`${id}.rallies`);
      expect(Math.abs((rallies[1] ?? 0) - p), id).toBeLessThan(1e-12);
    }
  });

  it(`the engine passes each formation's test as often (${singles.length} formations, ${TRIALS} trials)`, () => {
    const tally = monteCarlo(s, 0, TRIALS);
    for (const { id, p } of singles) expectFrequency(id, tally.histogram(`${id}.rallies`)[1] ?? 0, TRIALS, p);
    expectDistribution(tally, 'turn1.rallied', exact.get('turn1.rallied') ?? new Float64Array());
  });
});

describe('Blast marker arithmetic (rulings §27), scripted dice', () => {
  const one = (formation: Omit<FormationInput, 'id'>) => scenario([guard([{ id: 'company', ...formation }])], 1);
  const brokenSeven = one({ units: 7, broken: true, enemyWithin30: true, withdrawalCost: 2 });

  it("the text's example: a Broken 7-unit company rallies (5 − 2 − 1 ≥ 2+) with 7 − ⌈7/2⌉ = 3 markers", () => {
    expect(scripted(brokenSeven, [5])).toMatchObject({
      'company.brokenAtEnd': 0,
      'company.markers': 3,
      'company.rallies': 1,
      'turn1.rallied': 1,
      'company.unitsLost': 0,
    });
  });
  it('a single marker is removed (⌈1/2⌉ = 1)', () => {
    expect(scripted(one({ units: 4, markers: 1 }), [6])).toMatchObject({ 'company.markers': 0, 'company.rallies': 1 });
  });
  it('5 markers → 2 (⌈5/2⌉ = 3 removed)', () => {
    expect(scripted(one({ units: 6, markers: 5 }), [6])).toMatchObject({ 'company.markers': 2, 'company.rallies': 1 });
  });
  it('a failed unbroken test keeps its markers (2 − 1 < 2+)', () => {
    expect(scripted(one({ units: 6, markers: 3 }), [2])).toMatchObject({
      'company.markers': 3,
      'company.rallies': 0,
      'turn1.rallied': 0,
      'company.brokenAtEnd': 0,
    });
  });
  it('a failed Broken test withdraws: withdrawalCost units lost (4 − 3 < 2+)', () => {
    expect(scripted(brokenSeven, [4])).toMatchObject({
      'company.brokenAtEnd': 1,
      'company.unitsLost': 2,
      'company.markers': 0,
      'company.rallies': 0,
    });
  });
  it('an unbroken formation without markers takes no test (no die)', () => {
    expect(scripted(one({ units: 4 }), [])).toMatchObject({ 'company.rallies': 0, 'turn1.rallied': 0 });
  });
});

describe('the FAQ, scripted dice', () => {
  it('a Broken formation that failed to rally cannot activate the next turn, and tests again only in the End phase', () => {
    // 6 units, 6 markers a turn: breaks in turn 1's Action phase (withdraws: 5), fails (1: withdraws, 4);
    // turn 2 it is Broken: loses 1 (3), takes no markers, no die until the End phase: 6 − 3 ≥ 2, 3 markers → 1;
    // turn 3 unbroken: 1 + 6 ≥ 3 breaks again (withdraws: 2), rallies on a 6: 2 markers → 1.
    const s = scenario([guard([{ id: 'c', units: 6, markersPerTurn: 6, unitsLostWhileBroken: 1, withdrawalCost: 1 }])], 3);
    expect(scripted(s, [1, 6, 6])).toEqual({
      'turn1.rallied': 0,
      'turn2.rallied': 1,
      'turn3.rallied': 1,
      'c.brokenAtEnd': 0,
      'c.markers': 1,
      'c.turnsBroken': 1,
      'c.unitsLost': 4,
      'c.destroyed': 0,
      'c.rallies': 2,
      'c.breaks': 2,
    });
    // Starting Broken and failing twice: two turns spent Broken, one die per End phase only.
    const broken = scenario([guard([{ id: 'c', units: 5, broken: true }])], 2);
    expect(scripted(broken, [2, 3])).toMatchObject({ 'c.turnsBroken': 2, 'c.brokenAtEnd': 1, 'c.rallies': 0 });
  });

  it('a formation that broke and withdrew in the Action phase withdraws again when it fails in the End phase', () => {
    const s = scenario([guard([{ id: 'c', units: 6, markersPerTurn: 6, withdrawalCost: 2 }])], 1);
    expect(scripted(s, [1])).toMatchObject({ 'c.breaks': 1, 'c.brokenAtEnd': 1, 'c.unitsLost': 4, 'c.markers': 0, 'c.turnsBroken': 0 });
  });

  it('formations off the table rally, without the −1 for enemy within 30 cm', () => {
    const at = (offTable: boolean | number, enemyWithin30: boolean | number) =>
      scenario([guard([{ id: 'c', units: 4, broken: true, offTable, enemyWithin30 }])], 1);
    expect(scripted(at(true, true), [4])).toMatchObject({ 'c.rallies': 1, 'c.brokenAtEnd': 0, 'c.markers': 2 }); // 4 − 2 ≥ 2+
    expect(scripted(at(false, true), [4])).toMatchObject({ 'c.rallies': 0, 'c.brokenAtEnd': 1 }); // 4 − 2 − 1 < 2+
    // Drawn (HalfChanceDice: p > ½ holds): off the table, the enemy (held if drawn) does not count.
    expect(scripted(at(0.75, 0.9), new HalfChanceDice([4]))).toMatchObject({ 'c.rallies': 1 });
    expect(scripted(at(0.25, 0.9), new HalfChanceDice([4]))).toMatchObject({ 'c.rallies': 0 });
  });
});

describe('rally order (rulings §28), scripted dice', () => {
  const broken = (id: string): FormationInput => ({ id, units: 3, broken: true, initiative: 1 }); // passes on 4+ (D6 − 3 ≥ 1)
  it('the higher Strategy Rating rallies first, then the players alternate', () => {
    const s = scenario([guard([broken('g1')]), { name: 'Marines', army: 'space-marines', formations: [broken('m1'), broken('m2')] }], 1);
    expect(scripted(s, [6, 5, 1])).toMatchObject({ 'm1.rallies': 1, 'g1.rallies': 1, 'm2.rallies': 0 }); // m1, g1, m2
  });
  it('equal Strategy Ratings: a roll-off, re-rolled while equal (first die: the first player)', () => {
    const s = scenario([guard([broken('g1')]), { name: 'Traitors', army: 'traitor-guard', formations: [broken('t1')] }], 1);
    expect(scripted(s, [3, 3, 2, 5, 6, 1])).toMatchObject({ 't1.rallies': 1, 'g1.rallies': 0 });
    expect(scripted(s, [4, 1, 6, 1])).toMatchObject({ 'g1.rallies': 1, 't1.rallies': 0 });
    const first = scenario([guard([broken('g1')]), { name: 'Traitors', army: 'traitor-guard', formations: [broken('t1')] }], 1, {
      firstInRallyTie: 'first-player',
    });
    expect(scripted(first, [6, 1])).toMatchObject({ 'g1.rallies': 1, 't1.rallies': 0 });
  });
});

describe('multi-turn chains: engine vs the Markov oracle', () => {
  // As above: a 2-point error in any outcome's probability is caught with probability ≥ 0.99.
  const TRIALS = trialsToCatch({ shift: 0.02 });
  const guardCompany = (id: string, extra: Partial<FormationInput> = {}): FormationInput => ({
    id,
    units: 7,
    broken: true,
    enemyWithin30: 0.8,
    markersPerTurn: [
      { value: 1, p: 0.3 },
      { value: 2, p: 0.4 },
      { value: 3, p: 0.3 },
    ],
    unitsLostPerTurn: [
      { value: 0, p: 0.6 },
      { value: 1, p: 0.4 },
    ],
    unitsLostWhileBroken: [
      { value: 0, p: 0.5 },
      { value: 1, p: 0.5 },
    ],
    withdrawalCost: [
      { value: 0, p: 0.5 },
      { value: 1, p: 0.5 },
    ],
    ...extra,
  });
  const marines: PlayerInput = {
    name: 'Marines',
    army: 'space-marines',
    formations: [
      {
        id: 'tactical',
        units: 6,
        enemyWithin30: 0.5,
        markersPerTurn: [
          { value: 1, p: 0.25 },
          { value: 2, p: 0.5 },
          { value: 3, p: 0.25 },
        ],
        unitsLostPerTurn: [
          { value: 0, p: 0.5 },
          { value: 1, p: 0.5 },
        ],
        unitsLostWhileBroken: [
          { value: 0, p: 0.5 },
          { value: 1, p: 0.5 },
        ],
        withdrawalCost: 1,
      },
    ],
  };
  const orks: PlayerInput = {
    name: 'Orks',
    army: 'orks',
    formations: [
      {
        id: 'warband',
        units: 12,
        markersPerTurn: [
          { value: 2, p: 0.25 },
          { value: 3, p: 0.5 },
          { value: 4, p: 0.25 },
        ],
        unitsLostPerTurn: [
          { value: 0, p: 0.25 },
          { value: 1, p: 0.5 },
          { value: 2, p: 0.25 },
        ],
        unitsLostWhileBroken: [
          { value: 1, p: 0.5 },
          { value: 2, p: 0.5 },
        ],
        withdrawalCost: [
          { value: 1, p: 0.5 },
          { value: 2, p: 0.5 },
        ],
      },
    ],
  };
  const traitors = (extra: Partial<FormationInput>): PlayerInput => ({
    name: 'Traitors',
    army: 'traitor-guard',
    formations: [
      {
        id: 'cult',
        units: 4,
        markers: 2,
        initiative: 3,
        offTable: 0.3,
        markersPerTurn: [
          { value: 0, p: 0.5 },
          { value: 2, p: 0.5 },
        ],
        withdrawalCost: 1,
        ...extra,
      },
      {
        id: 'mob',
        units: 3,
        broken: true,
        enemyWithin30: false,
        markersPerTurn: 1,
        unitsLostWhileBroken: [
          { value: 0, p: 0.75 },
          { value: 1, p: 0.25 },
        ],
      },
    ],
  });
  const chains: { readonly label: string; readonly s: Scenario; readonly breaksAgain?: string }[] = [
    {
      label: 'inflow and losses as distributions: the Broken Guard company, 4 turns',
      s: scenario([guard([guardCompany('company')])], 4),
      breaksAgain: 'company',
    },
    {
      label: 'markersOnBreak: kept (a rallied formation can re-break with no new markers), 5 turns',
      s: scenario([guard([guardCompany('company', { broken: false, units: 5, markers: 2 })])], 5, { markersOnBreak: 'kept' }),
      breaksAgain: 'company',
    },
    {
      label: 'two players, Strategy Ratings 5 and 3: Marines and Orks under fire, 4 turns',
      s: scenario([marines, orks], 4),
      breaksAgain: 'tactical',
    },
    {
      label: 'two players, equal Strategy Ratings (roll-off), two formations each, off table sometimes, 3 turns',
      s: scenario(
        [
          guard([
            guardCompany('company'),
            {
              id: 'squad',
              units: 2,
              markers: 1,
              enemyWithin30: 0.5,
              markersPerTurn: [
                { value: 0, p: 0.5 },
                { value: 1, p: 0.5 },
              ],
            },
          ]),
          traitors({}),
        ],
        3,
      ),
    },
    {
      label: 'equal Strategy Ratings, firstInRallyTie: first-player, kept markers, 3 turns',
      s: scenario([guard([guardCompany('company')]), traitors({ enemyWithin30: 0.4 })], 3, {
        markersOnBreak: 'kept',
        firstInRallyTie: 'first-player',
      }),
    },
  ];

  // Shorter chains, small enough to enumerate path by path (the ones above are not).
  const shortChains: { readonly label: string; readonly s: Scenario }[] = [
    { label: 'the Broken Guard company, 2 turns', s: scenario([guard([guardCompany('company')])], 2) },
    { label: 'equal Strategy Ratings (the roll-off), 1 turn', s: scenario([guard([guardCompany('company')]), traitors({})], 1) },
    { label: 'Marines and Orks, 1 turn', s: scenario([marines, orks], 1) },
  ];
  it.each(shortChains.map((chain) => [chain.label, chain] as const))(
    'exact enumeration equals the Markov oracle (to 1e-9): %s',
    (label, { s }) => {
      const exact = enumerate(compileEpic(s, armies, 'tables'), label);
      for (const [name, distribution] of exactEpic(s, armies))
        expectSameProbabilities(`${label}: ${name}`, exact.probabilities(name), distribution, 1e-9);
    },
  );

  chains.forEach(({ label, s, breaksAgain }, k) => {
    it(label, () => {
      const exact = exactEpic(s, armies);
      if (breaksAgain !== undefined) {
        // Breaking twice means breaking, rallying and breaking again during the run.
        expect(
          exact
            .get(`${breaksAgain}.breaks`)
            ?.slice(2)
            .reduce((a, p) => a + p, 0),
        ).toBeGreaterThan(0.01);
      }
      const tally = monteCarlo(s, 1 + k, TRIALS);
      expect(new Set(tally.metrics.map((m) => m.name))).toEqual(new Set(exact.keys()));
      for (const [name, distribution] of exact) expectDistribution(tally, name, distribution);
    });
  });
});
