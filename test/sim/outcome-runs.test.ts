import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../input/errors.js';
import { type LoadedScenario, loadScenarioFile } from '../../input/scenario-file.js';
import { InProcessExecutor } from '../../sim/in-process-executor.js';
import { type OutcomeCounts, type OutcomeRunOptions, runForOutcome, runScenario } from '../../sim/run-scenario.js';
import { SHARD_TRIALS } from '../../sim/run.js';
import { ShardPool } from '../../sim/shard-pool.js';
import type { ShardExecutor } from '../../sim/shard-task.js';
import { scoreStopOf } from '../../statistics/outcome.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * Seated games as OutcomeTasks (sim/run-scenario.ts `runForOutcome`): batched on a pool, run on the
 * main thread, or (longer than a shard) as a runScenario, a run's wins and losses are those of
 * runScenario's tally with the same seed, trials and score stop — whatever the batches, a worker
 * that dies under a batch included. Seeds are fixed; nothing here depends on timing.
 */

const SCENARIO = path.join(REPOSITORY, 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml');
const KNIGHTS = { winMetric: 'winner', side: 'Sylvan Knights', other: 'Regenerating Ogre' };

let loaded: LoadedScenario;
const pool = new ShardPool(2);
beforeAll(async () => {
  loaded = await loadScenarioFile(SCENARIO);
});
afterAll(async () => {
  await pool.close(true);
});

/** What runScenario's tally says, on the main thread. */
async function reference(options: Omit<OutcomeRunOptions, 'executor'>): Promise<OutcomeCounts> {
  const { halfWidth } = options.target;
  const result = await runScenario(loaded, {
    seed: options.seed,
    trials: options.trials,
    ...(halfWidth === undefined ? {} : { scoreStop: { ...KNIGHTS, halfWidth } }),
  });
  const { winCell, lossCell } = scoreStopOf(result.metrics, { ...KNIGHTS, halfWidth: 0 }, loaded.file);
  return { wins: result.tally.cells[winCell] ?? 0, losses: result.tally.cells[lossCell] ?? 0, trials: result.trials };
}

/** Forty runs at once: several batches, of several runs each. */
const runs = Array.from({ length: 40 }, (_, i) => ({
  seed: 1000 + i,
  trials: [1, 63, 500, 4802][i % 4] as number,
  target: { ...KNIGHTS, ...(i % 3 === 0 ? { halfWidth: 0.03 } : {}) },
}));

describe('runForOutcome counts what runScenario would', () => {
  it.each([
    ['the main thread', () => new InProcessExecutor()],
    ['2 workers, in batches', () => pool],
  ] as const)('on %s', async (_where, executor: () => ShardExecutor) => {
    const expected = await Promise.all(runs.map((run) => reference(run)));
    const counted = await Promise.all(runs.map((run) => runForOutcome(loaded, { ...run, executor: executor() })));
    expect(counted).toEqual(expected);
    // The score stop stopped some early, as runScenario's did.
    expect(counted.some((counts, i) => counts.trials < (runs[i]?.trials ?? 0))).toBe(true);
  });

  it('a run longer than a shard, and on an executor without OutcomeTasks, is a runScenario', async () => {
    const long = { seed: 7, trials: SHARD_TRIALS + 1000, target: KNIGHTS };
    const bare: ShardExecutor = {
      workers: 0,
      run: (task) => new InProcessExecutor().run(task),
      kernelFacts: (spec) => new InProcessExecutor().kernelFacts(spec),
      close: async () => {},
    };
    const expected = await reference(long);
    expect(await runForOutcome(loaded, { ...long, executor: pool })).toEqual(expected);
    expect(await runForOutcome(loaded, { ...runs[3], executor: bare } as OutcomeRunOptions)).toEqual(
      await reference(runs[3] as OutcomeRunOptions),
    );
  });

  it('runs of a few trials stay on the main thread: a pool that only gets those never starts', async () => {
    const fresh = new ShardPool(2);
    try {
      const few = runs.filter((run) => run.trials === 1);
      const counted = await Promise.all(few.map((run) => runForOutcome(loaded, { ...run, executor: fresh })));
      expect(counted).toEqual(await Promise.all(few.map((run) => reference(run))));
      expect(fresh.threads).toHaveLength(0);
    } finally {
      await fresh.close(true);
    }
  });

  it('a worker terminated under a batch: its runs are run again, alone, with the same counts', async () => {
    const expected = await Promise.all(runs.map((run) => reference(run)));
    const counting = Promise.all(runs.map((run) => runForOutcome(loaded, { ...run, executor: pool })));
    // The first batches are out once this turn's runs are queued and sent.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    void pool.threads[0]?.terminate();
    expect(await counting).toEqual(expected);
  });

  it('a side the win metric does not name: the InputError runScenario gives, from where the kernel is', async () => {
    const wrong = { seed: 1, trials: 100, target: { ...KNIGHTS, side: 'Sylvan Knight' } };
    for (const executor of [pool, new InProcessExecutor()]) {
      const failed = await runForOutcome(loaded, { ...wrong, executor }).catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(InputError);
      expect((failed as InputError).message).toBe(`${SCENARIO}: winMetric: winner has no label "Sylvan Knight" (a side's name)`);
    }
  });
});
