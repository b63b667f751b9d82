import { describe, expect, it } from 'vitest';
import { exactScenario } from '../../sim/run-scenario.js';
import { sweepDocument, sweepDocumentSchema, sweepTable } from '../../documents/sweep-document.js';
import { labelAxes, type SweepAxis, sweep, sweptMetrics } from '../../analysis/sweep.js';
import { InputError } from '../../input/errors.js';
import { loadScenarioChanged } from '../../input/scenario-file.js';
import { CHECK_Z } from '../helpers/power.js';

/**
 * Sweeps answer as `crucible run` does: a single action exactly under `auto` (oracle: the exact
 * evaluation of the same changed scenario, and Monte Carlo within CHECK_Z standard errors of it),
 * Monte Carlo when trials are asked for; the document says which, with no trial counts at an exact
 * point; its table names columns in words and keeps full precision.
 */

const SEED = 20261122;
const ATTACK = 'data/heroic/scenarios/sylvan-knights-formation.yaml';
const SHIELD: SweepAxis = { path: 'rules.shieldSave', values: [4, 6] };

describe('sweep', () => {
  it('auto: a single attack is answered exactly at every point, the exact evaluation of the changed scenario', async () => {
    const points = await sweep(ATTACK, [SHIELD], { method: 'auto' });
    expect(points.map((point) => point.method)).toEqual(['exact', 'exact']);
    for (const point of points) {
      const oracle = exactScenario(await loadScenarioChanged(ATTACK, { fields: [['rules.shieldSave', point.values[0]]] }));
      expect(point.result.summary).toEqual(oracle?.summary);
    }
  });

  it('with --trials, Monte Carlo; it agrees with the exact points within CHECK_Z standard errors', async () => {
    const trials = 20_000;
    const [exact, sampled] = await Promise.all([sweep(ATTACK, [SHIELD]), sweep(ATTACK, [SHIELD], { trials, seed: SEED })]);
    expect(sampled?.map((point) => point.method)).toEqual(['mc', 'mc']);
    exact.forEach((point, i) => {
      const p = point.result.summary.find((summary) => summary.name === 'ogre.vanquished')?.distribution[1]?.probability ?? Number.NaN;
      const q =
        sampled?.[i]?.result.summary.find((summary) => summary.name === 'ogre.vanquished')?.distribution[1]?.probability ?? Number.NaN;
      expect(Math.abs(q - p)).toBeLessThanOrEqual(CHECK_Z * Math.sqrt((p * (1 - p)) / trials));
    });
  });

  it('the document: exact points carry null trials, counts and intervals; categories no mean; it reads back through its schema', async () => {
    const axes = await labelAxes(ATTACK, [SHIELD]);
    const points = await sweep(ATTACK, [SHIELD]);
    const document = sweepDocument({ file: ATTACK, axes, points, metrics: sweptMetrics(ATTACK, points, undefined), method: 'auto' });
    expect(sweepDocumentSchema.parse(JSON.parse(JSON.stringify(document)))).toEqual(document);
    expect(document.axes[0]?.field).toMatchObject({ path: 'rules.shieldSave', label: 'Shield save', title: 'shield save' });
    for (const point of document.points) {
      expect(point).toMatchObject({ method: 'exact', trials: null, seed: null });
      for (const result of point.results) {
        for (const entry of result.distribution) expect(entry).toMatchObject({ count: null, interval: null });
        if (result.kind === 'count') expect(result.meanInterval).toBeNull();
        else expect(result).not.toHaveProperty('mean');
      }
    }
    const winner = document.points[0]?.results.find((result) => result.metric === 'winner');
    expect(winner?.distribution.map((entry) => entry.label)).toEqual(['none', 'Sylvan Knights', 'Ogre']);
  });

  it('the table: the field in words as a column, outcomes in words, full-precision numbers, empty intervals at exact points', async () => {
    const axes = await labelAxes(ATTACK, [SHIELD]);
    const points = await sweep(ATTACK, [SHIELD], { trials: 2000, seed: SEED });
    const document = sweepDocument({ file: ATTACK, axes, points, metrics: ['winner', 'ogre.woundsTaken'], method: 'auto' });
    const rows = sweepTable(document).objects() as Record<string, unknown>[];
    expect(Object.keys(rows[0] ?? {})).toEqual([
      'Shield save',
      'metric',
      'outcome',
      'label',
      'measure',
      'estimate',
      'low',
      'high',
      'trials',
      'method',
    ]);
    const knights = rows.find((row) => row['Shield save'] === 4 && row.label === 'Sylvan Knights');
    const summary = points[0]?.result.summary
      .find((candidate) => candidate.name === 'winner')
      ?.distribution.find((entry) => entry.label === 'Sylvan Knights');
    expect(knights).toMatchObject({
      metric: 'winner',
      measure: 'probability',
      estimate: summary?.probability,
      low: summary?.interval.low,
      high: summary?.interval.high,
      trials: 2000,
      method: 'mc',
    });
    expect(rows.find((row) => row.metric === 'ogre.woundsTaken')).toMatchObject({ measure: 'mean', label: null });
    const exactRows = sweepTable(
      sweepDocument({ file: ATTACK, axes, points: await sweep(ATTACK, [SHIELD]), metrics: ['winner'], method: 'auto' }),
    ).objects() as Record<string, unknown>[];
    for (const row of exactRows) expect(row).toMatchObject({ low: null, high: null, trials: null, method: 'exact' });
  });

  // (Exact on a long chain is refused too, but only after the enumeration's budget runs out: seconds.)
  it('bad requests are InputErrors before anything runs: an unknown metric, exact with trials', async () => {
    const chain = 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml';
    const models: SweepAxis = { path: 'sides[0].groups[0].models', values: [1, 2] };
    const errorOf = (promise: Promise<unknown>): Promise<unknown> =>
      promise.then(
        () => undefined,
        (caught: unknown) => caught,
      );
    const unknown = await errorOf(sweep(chain, [models], { trials: 1e9, metrics: ['winner', 'nope'] }));
    expect(unknown).toBeInstanceOf(InputError);
    expect((unknown as InputError).message).toMatch(
      new RegExp(`^${chain}: --metric: no metric "nope" in this sweep; its metrics are winner, rounds, `),
    );
    // Every bad point at once, each naming the values that made it.
    const bad = await errorOf(sweep(chain, [{ path: 'sides[1].groups[0].models', values: [1, 2, 3] }], { trials: 1e9 }));
    expect((bad as InputError).problems.map((problem) => problem.message)).toEqual(
      [1, 2].map(
        (models) => `a formation needs at least 3 models (rulings §8); this group has ${models} (at sides[1].groups[0].models = ${models})`,
      ),
    );
    const exactTrials = await errorOf(sweep(ATTACK, [SHIELD], { method: 'exact', trials: 100 }));
    expect((exactTrials as InputError).message).toBe(
      `${ATTACK}: --method: exact enumerates every outcome: --trials and --precision are for Monte Carlo (--method mc)`,
    );
  });
});
