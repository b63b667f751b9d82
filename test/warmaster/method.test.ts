import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { streamDice } from '../../engine/dice/index.js';
import { compileWarmaster } from '../../engine/warmaster/index.js';
import { StrikeTables } from '../../engine/warmaster/strike-tables.js';
import { compileSpec, kernelSpecOf } from '../../sim/kernel-spec.js';
import { runTrials } from '../../sim/run.js';
import { loadScenarioChanged } from '../../input/scenario-file.js';
import { chiSquareCritical, chiSquareFit } from '../helpers/chi-square.js';
import { binomial } from '../helpers/distribution.js';
import { expectSameDistribution } from '../helpers/two-sample.js';
import { armyUnits, warmasterScenario } from './scenarios.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * Method `tables` draws each strike's hits after saves from Binomial(n, q) instead of rolling the
 * dice: the strike tables against the exact binomial, and whole engagements in both methods against
 * each other (two-sample χ² at α = 1e-6, means within 4 SE; fixed seed 20261122).
 */

const ALPHA = 1e-6;
const SEED = 20261122;
const repository = REPOSITORY;

describe('StrikeTables', () => {
  it.each([
    [12, 4, 6],
    [12, 4, 4],
    [9, 5, 7],
    [30, 6, 5],
  ])('%i dice hitting on %i+ against saves on %i+ follow Binomial(n, P(hit)·P(no save)) (χ², 200 000 draws)', (n, hitOn, save) => {
    const tables = new StrikeTables();
    const dice = streamDice(SEED, n * 100 + hitOn * 10 + save);
    const draws = 200_000;
    const counts = new Float64Array(n + 1);
    for (let i = 0; i < draws; i++) {
      const k = tables.sample(dice, n, hitOn, save);
      counts[k] = (counts[k] ?? 0) + 1;
    }
    const q = ((7 - hitOn) / 6) * (save >= 7 ? 1 : (save - 1) / 6);
    const { statistic, df } = chiSquareFit(counts, binomial(n, q), draws);
    expect(statistic).toBeLessThan(chiSquareCritical(ALPHA, df));
  });
});

describe('engagements drawn from strike tables agree with dice rolled one by one', () => {
  const METRICS = ['winner', 'round1', 'rounds', 'retreat', 'A.standsLost', 'B.standsLost'];
  const compare = (dice: ReturnType<typeof compileWarmaster>, tables: ReturnType<typeof compileWarmaster>) => {
    const trials = 100_000;
    const a = runTrials(dice, { seed: SEED, trials });
    const b = runTrials(tables, { seed: SEED + 1, trials });
    for (const metric of METRICS) {
      const x = Array.from(a.histogram(metric));
      const y = Array.from(b.histogram(metric));
      expectSameDistribution(metric, x, y, ALPHA);
    }
  };

  it('the bench engagement: Knights charge Orc Warriors, pursuing', () => {
    const input = {
      sides: [
        { name: 'Empire', units: [{ id: 'knights', unit: 'empire/knights', charging: true, contact: { front: 3 } }] },
        { name: 'Orcs', units: [{ id: 'orcs', unit: 'orcs/orc-warriors', contact: { front: 3 } }] },
      ],
    };
    compare(
      compileWarmaster(warmasterScenario(input), armyUnits(), 'dice'),
      compileWarmaster(warmasterScenario(input), armyUnits(), 'tables'),
    );
  });

  it.each(['supported-line', 'infantry-attack-defended-infantry', 'pursuit-into-second-unit'])('the bundled %s scenario', async (name) => {
    const file = path.join(repository, 'data/warmaster/scenarios', `${name}.yaml`);
    const loaded = await loadScenarioChanged(file, {});
    const dice = compileSpec(kernelSpecOf(loaded, 'dice'));
    const tables = compileSpec(kernelSpecOf(loaded, 'tables'));
    compare(dice, tables);
  });
});
