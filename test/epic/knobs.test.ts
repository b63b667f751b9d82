import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { streamDice } from '../../engine/dice/index.js';
import type { DrawMethod } from '../../engine/kernel.js';
import { rulesSchema } from '../../engine/epic/schema.js';
import { compileSpec, kernelSpecOf } from '../../sim/kernel-spec.js';
import { runTrials } from '../../sim/run.js';
import { type LoadedScenario, loadScenarioChanged } from '../../input/scenario-file.js';
import { enumerate, expectFitsExact } from '../helpers/enumeration.js';
import { expectMatchesExact } from '../helpers/exact-check.js';
import { rangeProblems, runRows } from '../helpers/kernel-checks.js';
import { trialsToCatch } from '../helpers/power.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * Every constant of the rule text is a knob of `rules:` (engine/epic/schema.ts). For each, a bundled
 * scenario with the knob set away from the text's value, through the field-path patcher as
 * `crucible sweep --set rules.<knob>=…` reaches it:
 *   (a) exact enumeration moves the knob's metric the way the rule says, to the hand-worked value;
 *   (b) `exact`, `mc` (tables) and `mc-dice` (dice) agree: every metric's histogram fits the exact
 *       distribution (χ² at α = 1e-6, mean within 4 SE of the run's own SE), and the knob's metric
 *       value by value within 4 SE (helpers/exact-check.ts).
 * The hand-worked chances: the Broken Guard company (7 units, Initiative 2+, enemy within 30 cm)
 * rallies when die + Broken modifier + enemy modifier ≥ 2. Trials: a 2-point error in any outcome
 * is caught with power 0.99 (helpers/power.ts); fixed seed 20261122 (+1 for dice), never tuned.
 */
const SEED = 20261122;
const ALPHA = 1e-6;
const TRIALS = trialsToCatch({ shift: 0.02 });

const scenarioFile = (name: string): string => path.join(REPOSITORY, 'data/epic/scenarios', `${name}.yaml`);
const COMPANY = 'broken-guard-company-rallies';
/** One End phase of the Marines and Orks with equal Strategy Ratings: a roll-off opens it (dice: rolled with the knob's die). */
const TIED = 'marines-vs-orks-under-fire';
const TIED_FIELDS: readonly (readonly [string, unknown])[] = [
  ['turns', 1],
  ['players[1].army', 'space-marines'],
];
/** The company unbroken, taking 3, 7 or 14 Blast markers in its one Action phase. */
const UNBROKEN_FIELDS: readonly (readonly [string, unknown])[] = [
  ['players[0].formations[0].broken', false],
  [
    'players[0].formations[0].markersPerTurn',
    [
      { value: 3, p: 0.5 },
      { value: 7, p: 0.25 },
      { value: 14, p: 0.25 },
    ],
  ],
];

interface KnobCase {
  readonly knob: keyof typeof rulesSchema.shape;
  readonly value: number;
  readonly file: string;
  readonly fields?: readonly (readonly [string, unknown])[];
  /** The metric the knob moves, its exact distribution at the text's value and at the knob's (hand-worked). */
  readonly metric: string;
  readonly atDefault: readonly number[];
  readonly atKnob: readonly number[];
  readonly why: string;
}

const CASES: readonly KnobCase[] = [
  {
    knob: 'dieSides',
    value: 8,
    file: COMPANY,
    metric: 'company.rallies',
    atDefault: [4 / 6, 2 / 6],
    atKnob: [4 / 8, 4 / 8],
    why: 'a D8 rallies on 5+ − 3: 4 faces of 8, not 2 of 6',
  },
  {
    knob: 'brokenModifier',
    value: -1,
    file: COMPANY,
    metric: 'company.rallies',
    atDefault: [4 / 6, 2 / 6],
    atKnob: [3 / 6, 3 / 6],
    why: '−1 Broken: D6 − 2 ≥ 2 on 4+',
  },
  {
    knob: 'enemyWithin30Modifier',
    value: -2,
    file: COMPANY,
    metric: 'company.rallies',
    atDefault: [4 / 6, 2 / 6],
    atKnob: [5 / 6, 1 / 6],
    why: '−2 enemy: D6 − 4 ≥ 2 only on a 6',
  },
  {
    knob: 'markersPerUnitOnRally',
    value: 2,
    file: COMPANY,
    metric: 'company.markers',
    atDefault: [4 / 6, 0, 0, 2 / 6],
    atKnob: [4 / 6, 0, 0, 0, 0, 0, 0, 2 / 6],
    why: 'rallied: 14 markers, 7 removed → 7 (the text: 7, 4 removed → 3)',
  },
  {
    knob: 'rallyRemovalDivisor',
    value: 3,
    file: COMPANY,
    metric: 'company.markers',
    atDefault: [4 / 6, 0, 0, 2 / 6],
    atKnob: [4 / 6, 0, 0, 0, 2 / 6],
    why: 'rallied: 7 markers, ⌈7/3⌉ = 3 removed → 4',
  },
  {
    knob: 'breakMarkersPerUnit',
    value: 2,
    file: COMPANY,
    fields: UNBROKEN_FIELDS,
    metric: 'company.breaks',
    atDefault: [0.5, 0.5],
    atKnob: [0.75, 0.25],
    why: '7 units break at 14 markers, not at 7',
  },
];

const load = (file: string, fields: readonly (readonly [string, unknown])[]): Promise<LoadedScenario> =>
  loadScenarioChanged(scenarioFile(file), { fields });
const kernelOf = (loaded: LoadedScenario, method: DrawMethod) => compileSpec(kernelSpecOf(loaded, method));
const mean = (distribution: ArrayLike<number>): number => Array.from(distribution).reduce((sum, p, v) => sum + p * v, 0);

/** (b): exact, mc and mc-dice agree on every metric of `loaded`; the knob's metric value by value. */
function expectMethodsAgree(label: string, loaded: LoadedScenario, metric: string): void {
  const exact = enumerate(kernelOf(loaded, 'tables'), label);
  (['tables', 'dice'] as const).forEach((method, m) => {
    const kernel = kernelOf(loaded, method);
    const tally = runTrials(kernel, { seed: SEED + m, trials: TRIALS });
    for (const spec of kernel.metrics)
      expectFitsExact(`${label} (${method}) ${spec.name}`, tally.histogram(spec.name), exact.probabilities(spec.name), TRIALS, ALPHA);
    expectMatchesExact(tally, metric, exact.probabilities(metric));
  });
}

describe('every rule constant is a knob', () => {
  it('the cases cover every field of rules:, each set away from its default', () => {
    const defaults = rulesSchema.parse({});
    expect(CASES.map((entry) => entry.knob).sort()).toEqual(Object.keys(rulesSchema.shape).sort());
    for (const entry of CASES) expect(entry.value, entry.knob).not.toBe(defaults[entry.knob]);
  });

  it.each(CASES.map((entry) => [`rules.${entry.knob} = ${entry.value}: ${entry.why}`, entry] as const))(
    '%s; exact, mc and mc-dice agree',
    async (_title, entry) => {
      const fields = entry.fields ?? [];
      const [text, knobbed] = await Promise.all([
        load(entry.file, fields),
        load(entry.file, [...fields, [`rules.${entry.knob}`, entry.value]]),
      ]);
      // (a) The text's value and the knob's, each exactly as worked by hand, and which way it moved.
      const before = enumerate(kernelOf(text, 'tables')).probabilities(entry.metric);
      const after = enumerate(kernelOf(knobbed, 'tables')).probabilities(entry.metric);
      for (let v = 0; v < Math.max(before.length, entry.atDefault.length); v++)
        expect(before[v] ?? 0, `${entry.metric} = ${v} by the text`).toBeCloseTo(entry.atDefault[v] ?? 0, 12);
      for (let v = 0; v < Math.max(after.length, entry.atKnob.length); v++)
        expect(after[v] ?? 0, `${entry.metric} = ${v} with the knob`).toBeCloseTo(entry.atKnob[v] ?? 0, 12);
      expect(Math.sign(mean(after) - mean(before))).toBe(Math.sign(mean(entry.atKnob) - mean(entry.atDefault)));
      expect(mean(after)).not.toBeCloseTo(mean(before), 6);
      // (b)
      expectMethodsAgree(`rules.${entry.knob} = ${entry.value}`, knobbed, entry.metric);
    },
  );

  it('rules.dieSides = 8 with equal Strategy Ratings: the roll-off rolls D8 pairs (mc-dice) and still agrees with exact and mc; more formations rally', async () => {
    const [text, knobbed] = await Promise.all([load(TIED, TIED_FIELDS), load(TIED, [...TIED_FIELDS, ['rules.dieSides', 8]])]);
    const rallied = (loaded: LoadedScenario) => mean(enumerate(kernelOf(loaded, 'tables')).probabilities('turn1.rallied'));
    // A bigger die passes every threshold above 1 more often (9 − t)/8 ≥ (7 − t)/6.
    expect(rallied(knobbed)).toBeGreaterThan(rallied(text) + 0.05);
    expectMethodsAgree('tied, rules.dieSides = 8', knobbed, 'turn1.rallied');
  });
});

describe('knob values the engine must carry', () => {
  it("markers stay within their metric's max with many markers per unit, a small fraction removed and markers kept on breaking (2,000 trials of 6 turns)", async () => {
    const loaded = await load('guard-company-under-fire', [
      ['turns', 6],
      ['options.markersOnBreak', 'kept'],
      ['rules.markersPerUnitOnRally', 3],
      ['rules.rallyRemovalDivisor', 10],
      ['rules.brokenModifier', 2],
    ]);
    for (const method of ['tables', 'dice'] as const) {
      const kernel = kernelOf(loaded, method);
      const rows = runRows(kernel, streamDice(SEED), 2000);
      expect(rangeProblems(kernel.metrics, rows)).toEqual([]);
      // Not vacuous: markers pile up far beyond the text's bound (start + units + turns × most = 25).
      const m = kernel.metrics.findIndex((spec) => spec.name === 'company.markers');
      const most = rows.reduce((top, value, cell) => (cell % kernel.metrics.length === m ? Math.max(top, value) : top), 0);
      expect(most).toBeGreaterThan(25);
    }
  });

  it('out-of-range and unknown knobs are bad fields; the starting-state check reads breakMarkersPerUnit', async () => {
    await expect(load(COMPANY, [['rules.dieSides', 1]])).rejects.toThrow(/rules\.dieSides/);
    await expect(load(COMPANY, [['rules.rallyRemovalDivisor', 0]])).rejects.toThrow(/rules\.rallyRemovalDivisor/);
    await expect(load(COMPANY, [['rules.blastMarkerModifier', -1]])).rejects.toThrow(/rules\.blastMarkerModifier/);
    const unbroken = [
      ['players[0].formations[0].broken', false],
      ['players[0].formations[0].markers', 7],
    ] as const;
    await expect(load(COMPANY, unbroken)).rejects.toThrow(/would already have broken it \(it breaks at 7\)/);
    await expect(load(COMPANY, [...unbroken, ['rules.breakMarkersPerUnit', 2]])).resolves.toBeDefined();
  });
});
