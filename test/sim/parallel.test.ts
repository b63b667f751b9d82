import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { halfWidths } from '../../statistics/precision.js';
import { InProcessExecutor } from '../../sim/in-process-executor.js';
import { runTrials, SHARD_TRIALS } from '../../sim/run.js';
import { runSharded, ShardFailedError } from '../../sim/sharded-run.js';
import { shardCount, trialsInShard } from '../../sim/shards.js';
import { Tally } from '../../statistics/tally.js';
import { StreamDice, streamGenerator } from '../../engine/dice/index.js';
import { runWithDice } from '../../sim/run.js';
import { cellBytes, engagementFixture, type ShardedFixture, poolCache } from '../helpers/sharded.js';

/**
 * The pooled runner against the single-thread `runTrials`: byte-identical tallies for any number
 * of workers, a worker that dies or throws changes nothing, and the --precision stop rule stops at
 * the same shard whoever runs it. Seeds are fixed; nothing here depends on timing.
 */

/** Five full shards and a short one, so the last shard's size is exercised too. */
const TRIALS = 5 * SHARD_TRIALS + 12_345;
const SEED = 20_240_611;

let fixture: ShardedFixture;
let reference: Tally;
const { pool, closeAll: closePools } = poolCache();

beforeAll(async () => {
  fixture = await engagementFixture();
  reference = runTrials(fixture.kernel, { seed: SEED, trials: TRIALS });
});

afterAll(async () => {
  await closePools();
});

const plan = () => ({ spec: fixture.spec, metrics: fixture.kernel.metrics, seed: SEED, trials: TRIALS });

describe('sharded runs equal runTrials, byte for byte', () => {
  it('on the main thread', async () => {
    const outcome = await runSharded(new InProcessExecutor(), plan());
    expect(outcome.tally.trials).toBe(TRIALS);
    expect(cellBytes(outcome.tally.cells).equals(cellBytes(reference.cells))).toBe(true);
  });

  // 3: more threads than this machine's cores, and shards that do not divide evenly among them.
  it.each([1, 2, 3])('on %i worker(s)', async (workers) => {
    const outcome = await runSharded(pool(workers), plan());
    expect(outcome).toMatchObject({ interrupted: false, stopRuleMet: false });
    expect(outcome.tally.trials).toBe(TRIALS);
    expect(cellBytes(outcome.tally.cells).equals(cellBytes(reference.cells))).toBe(true);
  });
});

describe('faults', () => {
  it('a worker that dies halfway through a shard: the shard is rerun, nothing lost or counted twice', async () => {
    const outcome = await runSharded(pool(2), plan(), { fault: { shard: 3, kind: 'exit', failures: 1 } });
    expect(outcome.tally.trials).toBe(TRIALS);
    expect(cellBytes(outcome.tally.cells).equals(cellBytes(reference.cells))).toBe(true);
  });

  it('a worker that throws once: same result', async () => {
    const outcome = await runSharded(pool(2), plan(), { fault: { shard: 0, kind: 'throw', failures: 1 } });
    expect(cellBytes(outcome.tally.cells).equals(cellBytes(reference.cells))).toBe(true);
  });

  it('a worker terminated from outside mid-run: same result', async () => {
    const executor = pool(2);
    let killed = false;
    const outcome = await runSharded(executor, plan(), {
      onProgress: () => {
        // After the first shard, both workers hold a shard: end one of them as a crash would.
        if (!killed) {
          killed = true;
          void executor.threads[0]?.terminate();
        }
      },
    });
    expect(killed).toBe(true);
    expect(cellBytes(outcome.tally.cells).equals(cellBytes(reference.cells))).toBe(true);
  });

  it('a shard that fails twice stops the run, naming the shard and its first trial', async () => {
    const run = runSharded(pool(2), plan(), { fault: { shard: 2, kind: 'throw', failures: 2 } });
    await expect(run).rejects.toBeInstanceOf(ShardFailedError);
    await expect(run).rejects.toMatchObject({ shard: 2, firstTrial: 2 * SHARD_TRIALS, attempts: 2 });
    await expect(run).rejects.toThrow(/injected test fault/);
  });

  it('a worker that dies twice in the same shard is blamed on that shard, not on the shard queued behind it', async () => {
    await expect(runSharded(pool(2), plan(), { fault: { shard: 3, kind: 'exit', failures: 2 } })).rejects.toMatchObject({
      shard: 3,
      attempts: 2,
    });
  });

  it('on the main thread too, a failed shard is retried once', async () => {
    const once = await runSharded(new InProcessExecutor(), plan(), { fault: { shard: 1, kind: 'throw', failures: 1 } });
    expect(cellBytes(once.tally.cells).equals(cellBytes(reference.cells))).toBe(true);
    await expect(runSharded(new InProcessExecutor(), plan(), { fault: { shard: 1, kind: 'exit', failures: 2 } })).rejects.toMatchObject({
      shard: 1,
    });
  });
});

describe('--precision: the stop rule sees shards in order', () => {
  /** ±0.18 pp needs 1.96² · p(1 − p) / ε² ≈ 280k trials at p(1 − p) ≈ 0.24 (this scenario's widest): about 5 shards. */
  const EPSILON = 0.0018;
  const MAX_TRIALS = 40 * SHARD_TRIALS;
  const stopWhen = (tally: Tally): boolean => halfWidths(tally).widest <= EPSILON;

  /** The answer worked out by hand: merge shard after shard on this thread, stop at the first that satisfies the rule. */
  function expectedStop(): Tally {
    const tally = new Tally(fixture.kernel.metrics);
    for (let shard = 0; shard < shardCount(MAX_TRIALS); shard++) {
      const shardTally = new Tally(fixture.kernel.metrics);
      runWithDice(fixture.kernel, new StreamDice(streamGenerator(SEED, shard)), trialsInShard(MAX_TRIALS, shard), shardTally);
      tally.merge(shardTally);
      if (stopWhen(tally)) return tally;
    }
    throw new Error('the rule never held: pick a larger EPSILON');
  }

  it('stops at the same shard, with the same tally, on the main thread and on 1 or 2 workers', async () => {
    const expected = expectedStop();
    // A real test of ordering only if the rule needs several shards.
    expect(expected.trials).toBeGreaterThanOrEqual(3 * SHARD_TRIALS);
    const stopPlan = { ...plan(), trials: MAX_TRIALS };
    for (const executor of [new InProcessExecutor(), pool(1), pool(2)]) {
      const outcome = await runSharded(executor, stopPlan, { stopWhen });
      expect(outcome.stopRuleMet).toBe(true);
      expect(outcome.tally.trials).toBe(expected.trials);
      expect(cellBytes(outcome.tally.cells).equals(cellBytes(expected.cells))).toBe(true);
    }
  });

  it('runs out at the cap when the rule never holds', async () => {
    const outcome = await runSharded(new InProcessExecutor(), { ...plan(), trials: 2 * SHARD_TRIALS }, { stopWhen: () => false });
    expect(outcome).toMatchObject({ stopRuleMet: false, interrupted: false });
    expect(outcome.tally.trials).toBe(2 * SHARD_TRIALS);
  });
});
