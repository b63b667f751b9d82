import { afterAll, describe, expect, it } from 'vitest';
import { runSharded } from '../../sim/sharded-run.js';
import { otherLoad, ShardPool, workersForLoad } from '../../sim/shard-pool.js';
import { SHARD_TRIALS } from '../../sim/run.js';
import { cellBytes, engagementFixture } from '../helpers/sharded.js';

/**
 * A pool fitted to the machine's load (`crucible run` and the analyses without --workers, issue 35):
 * fewer workers where other processes keep the cores busy, said in a note, and the same numbers.
 */

const pools: ShardPool[] = [];
afterAll(async () => Promise.all(pools.map((pool) => pool.close(true))));

describe('a pool fitted to the load', () => {
  it('leaves to other processes each core they keep busy more than half the time, and keeps at least one worker', () => {
    const cases: readonly (readonly [requested: number, cores: number, busy: number, workers: number])[] = [
      [2, 2, 0, 2],
      [2, 2, 0.4, 2],
      [2, 2, 0.6, 1],
      [2, 2, 1, 1],
      [2, 2, 5.5, 1],
      [8, 8, 2.2, 6],
      [4, 8, 3, 4],
      [1, 2, 0, 1],
    ];
    for (const [requested, cores, busy, workers] of cases)
      expect(workersForLoad(requested, cores, busy), `${requested} of ${cores} cores, ${busy} busy`).toBe(workers);
  });

  it('measures the cores other processes keep busy: a number from 0 up, and what it read', async () => {
    const load = await otherLoad(2);
    expect(load.busyCores).toBeGreaterThanOrEqual(0);
    expect(Number.isFinite(load.busyCores)).toBe(true);
    expect(load.measured).toMatch(/busy|load average/);
  });

  it('on a busy machine runs one worker, says so and why, and gives the numbers a pool of two gives', async () => {
    const { spec, kernel } = await engagementFixture();
    const notes: string[] = [];
    const busy = new ShardPool(2, {
      fitToLoad: {
        note: (text) => notes.push(text),
        cores: 2,
        measure: async () => ({ busyCores: 1.7, measured: 'other processes keep 1.7 of 2 cores busy' }),
      },
    });
    const two = new ShardPool(2);
    pools.push(busy, two);
    const plan = { spec, metrics: kernel.metrics, seed: 5, trials: 3 * SHARD_TRIALS };
    const [fitted, full] = [await runSharded(busy, plan), await runSharded(two, plan)];
    expect(busy.workers).toBe(1);
    expect(busy.threads).toHaveLength(1);
    expect(notes).toEqual([
      'note: other processes keep 1.7 of 2 cores busy: running 1 worker, not 2 (the numbers do not depend on it; --workers 2 runs 2)\n',
    ]);
    expect(two.workers).toBe(2);
    expect(cellBytes(fitted.tally.cells).equals(cellBytes(full.tally.cells))).toBe(true);
  });

  it('on a quiet machine runs every worker asked for, with no note', async () => {
    const notes: string[] = [];
    const quiet = new ShardPool(2, {
      fitToLoad: { note: (text) => notes.push(text), cores: 2, measure: async () => ({ busyCores: 0.1, measured: '' }) },
    });
    pools.push(quiet);
    const { spec, kernel } = await engagementFixture();
    await runSharded(quiet, { spec, metrics: kernel.metrics, seed: 5, trials: 2 * SHARD_TRIALS });
    expect(quiet.workers).toBe(2);
    expect(notes).toEqual([]);
  });
});
