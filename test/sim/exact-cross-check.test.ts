import { loadBuiltInRuleSystems } from '../../engine/registry.js';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DrawMethod } from '../../engine/kernel.js';
import { AUTO_BUDGET, type ExactDistributions, exactDistributions } from '../../sim/exact.js';
import { compileSpec, kernelSpecOf } from '../../sim/kernel-spec.js';
import { runTrials } from '../../sim/run.js';
import { type LoadedScenario, loadScenarioFile } from '../../input/scenario-file.js';
import { enumerate, expectFitsExact } from '../helpers/enumeration.js';
import { trialsToCatch } from '../helpers/power.js';
import { expectSameDistribution } from '../helpers/two-sample.js';
import { REPOSITORY } from '../helpers/repository.js';

/** The built-ins' descriptors, in the registry's order. */
const RULE_SYSTEMS = await loadBuiltInRuleSystems();

/**
 * The cross-check suite of issue 9: every bundled scenario whose trial is a single action is
 * evaluated exactly (sim/exact.ts) and run by Monte Carlo both ways — rolling every die and drawing
 * from tables — and each metric's whole distribution must pass a χ² test against the exact one
 * (α = 1e-6) with its mean within 4 standard errors of the exact mean. Scenarios that are chains
 * (no exact answer) are run both ways against each other (two-sample χ² and means). Fixed seed
 * 20261122, never tuned. Power: either comparison catches a 2-percentage-point error in any
 * outcome's probability with probability ≥ 0.99 (helpers/power.ts): 25,015 trials against an exact
 * answer, 50,030 a side when two samples are compared.
 */
const SEED = 20261122;
const ALPHA = 1e-6;
const TRIALS = trialsToCatch({ shift: 0.02 });
const TWO_SAMPLE_TRIALS = trialsToCatch({ shift: 0.02, referenceRatio: 1 });
const repository = REPOSITORY;

/** The bundled scenarios that are single actions: every one must have an exact answer. */
const SINGLE_ACTIONS = [
  'heroic/draugr-fire-and-frost',
  'heroic/fire-cannon-skeletons',
  'heroic/goblin-charges-formation-exceeds-will',
  'heroic/goblin-charges-formation',
  'heroic/slathaai-split-formation',
  'heroic/sylvan-knights-formation',
  'heroic/sylvan-knights-singly',
  'heroic/thunderbeak-breath-allocated-shields',
  'heroic/thunderbeak-breath-blackrazors',
  'heroic/uldar-splits-dice',
  'epic/broken-guard-company-rallies',
  'warmaster/knights-charge-supported-orcs-first-round',
];

const bundled = RULE_SYSTEMS.map((system) => system.id).flatMap((ruleset) =>
  readdirSync(path.join(repository, 'data', ruleset, 'scenarios'))
    .filter((name) => name.endsWith('.yaml'))
    .map((name) => `${ruleset}/${name.replace(/\.yaml$/, '')}`),
);
const load = (name: string): Promise<LoadedScenario> =>
  loadScenarioFile(path.join(repository, 'data', `${name.split('/')[0]}/scenarios/${name.split('/')[1]}.yaml`));

describe('which bundled scenarios have an exact answer', () => {
  it(`exactly the single actions enumerate within auto's budget (${AUTO_BUDGET.paths} paths, ${AUTO_BUDGET.draws} draws); every chain falls back to Monte Carlo`, async () => {
    const exact: string[] = [];
    for (const name of bundled) {
      const kernel = compileSpec(kernelSpecOf(await load(name), 'tables'));
      if (exactDistributions(kernel, AUTO_BUDGET) !== undefined) exact.push(name);
    }
    expect(exact.sort()).toEqual([...SINGLE_ACTIONS].sort());
  });
});

describe('single actions: exact enumeration against Monte Carlo, dice and tables', () => {
  it.each(SINGLE_ACTIONS)('%s', async (name) => {
    const loaded = await load(name);
    const exact = exactDistributions(compileSpec(kernelSpecOf(loaded, 'tables')), AUTO_BUDGET) as ExactDistributions;
    expect(exact.errorBound).toBeLessThan(1e-9);
    exact.probabilities.forEach((p) => expect(Math.abs(p.reduce((sum, q) => sum + q, 0) - 1)).toBeLessThan(1e-9));
    let informative = 0;
    (['dice', 'tables'] as const satisfies readonly DrawMethod[]).forEach((method, m) => {
      const kernel = compileSpec(kernelSpecOf(loaded, method));
      const tally = runTrials(kernel, { seed: SEED + m, trials: TRIALS });
      kernel.metrics.forEach((metric, index) => {
        const distribution = exact.probabilities[index] as Float64Array;
        if (distribution.filter((p) => p > 0.01).length >= 2) informative++;
        expectFitsExact(`${name} (${method}) ${metric.name}`, tally.histogram(metric.name), distribution, TRIALS, ALPHA);
      });
    });
    // Not vacuous: some metric of every scenario has at least two likely values.
    expect(informative).toBeGreaterThan(0);
  });
});

describe('a whole chain with an exact answer: the Warmaster bench engagement to its end', () => {
  it(`warmaster/cavalry-charge-infantry-open within --method exact's budget: every metric, Monte Carlo rolling dice against it`, async () => {
    const loaded = await load('warmaster/cavalry-charge-infantry-open');
    const exact = enumerate(compileSpec(kernelSpecOf(loaded, 'tables')));
    const kernel = compileSpec(kernelSpecOf(loaded, 'dice'));
    const tally = runTrials(kernel, { seed: SEED, trials: TRIALS });
    for (const metric of kernel.metrics)
      expectFitsExact(metric.name, tally.histogram(metric.name), exact.probabilities(metric.name), TRIALS, ALPHA);
    // Pursuits happen (a chain, not one round): P(pursuits ≥ 1) is far from 0.
    expect(1 - (exact.probabilities('pursuits')[0] as number)).toBeGreaterThan(0.3);
  });
});

describe('chains: tables and dice agree in distribution (two-sample χ² and means)', () => {
  it.each(['heroic/knights-vs-regenerating-ogre', 'battleforge/men-at-arms-vs-orc-warriors', 'epic/marines-vs-orks-under-fire'])(
    '%s',
    async (name) => {
      const loaded = await load(name);
      const [dice, tables] = (['dice', 'tables'] as const).map((method, m) => {
        const kernel = compileSpec(kernelSpecOf(loaded, method));
        return { kernel, tally: runTrials(kernel, { seed: SEED + m, trials: TWO_SAMPLE_TRIALS }) };
      });
      for (const metric of dice?.kernel.metrics ?? []) {
        expectSameDistribution(
          `${name} ${metric.name}`,
          Array.from(dice?.tally.histogram(metric.name) ?? []),
          Array.from(tables?.tally.histogram(metric.name) ?? []),
          ALPHA,
          metric.kind === 'category',
        );
      }
    },
  );
});
