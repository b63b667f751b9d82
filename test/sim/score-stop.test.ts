import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { outcomeFromCounts } from '../../statistics/outcome.js';
import { runScenario } from '../../sim/run-scenario.js';
import { InProcessExecutor } from '../../sim/in-process-executor.js';
import { loadScenarioFile } from '../../input/scenario-file.js';
import { SCORE_STOP_EVERY, scoreStopMet } from '../../statistics/score-stop.js';
import { ShardPool } from '../../sim/shard-pool.js';
import { SHARD_TRIALS } from '../../sim/run.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * A run stopped once a side's expected score is precise enough (statistics/score-stop.ts): it stops when,
 * and only when, the score's reported interval is within ±halfWidth; what it ran is the first n
 * trials of the seed's stream, on any executor; an even score runs to the cap.
 */

const SCENARIO = path.join(REPOSITORY, 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml');
const KNIGHTS = { winMetric: 'winner', side: 'Sylvan Knights', other: 'Regenerating Ogre' };
/** The winner metric comes first, its labels none, Regenerating Ogre, Sylvan Knights: the knights' win and loss cells. */
const KNIGHTS_CELLS = { winCell: 2, lossCell: 1 };
const pool = new ShardPool(2);
afterAll(async () => {
  await pool.close(true);
});

describe('the score stop rule', () => {
  it('holds exactly when the outcome the report prints has its score interval within ±halfWidth', () => {
    const halfWidth = 0.02;
    for (const [wins, draws, losses] of [
      [64, 0, 0],
      [300, 0, 0],
      [900, 50, 50],
      [1200, 300, 900],
      [2300, 100, 2400],
      [40, 4000, 60],
      [5000, 0, 0],
    ] as const) {
      const trials = wins + draws + losses;
      const cells = Float64Array.of(draws, wins, losses);
      const { score } = outcomeFromCounts(wins, draws, losses);
      const within = score.interval.high - score.value <= halfWidth && score.value - score.interval.low <= halfWidth;
      expect(scoreStopMet(cells, trials, { winCell: 1, lossCell: 2, halfWidth }), `${wins}/${draws}/${losses}`).toBe(within);
    }
    // 64 wins in 64 trials is not yet a score of 1 ± 0.02: Wilson's interval still reaches below 0.95.
    expect(scoreStopMet(Float64Array.of(0, 64, 0), 64, { winCell: 1, lossCell: 2, halfWidth: 0.02 })).toBe(false);
  });

  it('stops a lopsided run early, at a multiple of its check, with the first trials of the stream, on the main thread and on workers', async () => {
    const loaded = await loadScenarioFile(SCENARIO);
    const cap = 40_000;
    const stopped = await runScenario(loaded, {
      trials: cap,
      seed: 7,
      executor: new InProcessExecutor(),
      scoreStop: { ...KNIGHTS, halfWidth: 0.02 },
    });
    expect(stopped.trials).toBeLessThan(cap);
    expect(stopped.trials % SCORE_STOP_EVERY).toBe(0);
    expect(stopped.metrics[0]?.labels).toEqual(['none', 'Regenerating Ogre', 'Sylvan Knights']);
    const winner = stopped.summary.find((metric) => metric.name === 'winner');
    const count = (label: string): number => winner?.distribution.find((entry) => entry.label === label)?.count ?? Number.NaN;
    const { score } = outcomeFromCounts(
      count(KNIGHTS.side),
      stopped.trials - count(KNIGHTS.side) - count(KNIGHTS.other),
      count(KNIGHTS.other),
    );
    expect(Math.max(score.interval.high - score.value, score.value - score.interval.low)).toBeLessThanOrEqual(0.02);
    // Not one check later than needed: SCORE_STOP_EVERY trials fewer still missed the precision.
    const earlier = await runScenario(loaded, { trials: stopped.trials - SCORE_STOP_EVERY, seed: 7, executor: new InProcessExecutor() });
    expect(scoreStopMet(earlier.tally.cells, earlier.trials, { ...KNIGHTS_CELLS, halfWidth: 0.02 })).toBe(false);
    // The same trials as a fixed run of that length, and the same stop on a worker pool.
    const fixed = await runScenario(loaded, { trials: stopped.trials, seed: 7, executor: new InProcessExecutor() });
    expect(Array.from(stopped.tally.cells)).toEqual(Array.from(fixed.tally.cells));
    const onWorkers = await runScenario(loaded, { trials: cap, seed: 7, executor: pool, scoreStop: { ...KNIGHTS, halfWidth: 0.02 } });
    expect(onWorkers.trials).toBe(stopped.trials);
    expect(Array.from(onWorkers.tally.cells)).toEqual(Array.from(stopped.tally.cells));
  });

  it('runs to its cap when the precision is out of reach, and stops a run of several shards at a shard end', async () => {
    const loaded = await loadScenarioFile(SCENARIO);
    const capped = await runScenario(loaded, {
      trials: 5_000,
      seed: 3,
      executor: new InProcessExecutor(),
      scoreStop: { ...KNIGHTS, halfWidth: 0.001 },
    });
    expect(capped.trials).toBe(5_000);
    const long = await runScenario(loaded, {
      trials: 8 * SHARD_TRIALS,
      seed: 3,
      executor: pool,
      scoreStop: { ...KNIGHTS, halfWidth: 0.003 },
    });
    expect(long.trials % SHARD_TRIALS).toBe(0);
    expect(long.trials).toBeLessThan(8 * SHARD_TRIALS);
    expect(scoreStopMet(long.tally.cells, long.trials, { ...KNIGHTS_CELLS, halfWidth: 0.003 })).toBe(true);
  });
});
