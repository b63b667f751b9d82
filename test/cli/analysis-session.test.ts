import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analysisSession } from '../../cli/analysis-session.js';
import type { Io } from '../../cli/commands/io.js';
import { loadScenarioFile } from '../../input/scenario-file.js';
import { InterruptedError } from '../../sim/interrupted.js';
import { runForOutcome } from '../../sim/run-scenario.js';
import { ShardPool } from '../../sim/shard-pool.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * The analyses' executor (cli/analysis-session.ts) keeps what the pool offers them: seated runs in
 * batches (sim/shard-pool.ts runOutcome), stopped by the first signal like its shards. Without it a
 * matchup from the CLI ran each seating as a run of its own, with its kernel facts asked first.
 */

const SCENARIO = path.join(REPOSITORY, 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml');
const KNIGHTS = { winMetric: 'winner', side: 'Sylvan Knights', other: 'Regenerating Ogre' };
const pool = new ShardPool(1);
afterAll(async () => {
  await pool.close(true);
});

function session(fault?: { shard: number; kind: 'stall'; failures: number }) {
  let interrupt: (signal: NodeJS.Signals) => void = () => {};
  const io: Io = {
    stdout: () => {},
    stderr: () => {},
    onInterrupt: (listener) => {
      interrupt = listener;
      return () => {};
    },
  };
  const made = analysisSession(io, { command: 'matchups', file: 'roster.yaml', unit: 'runs', quiet: true, fault });
  return { made, interrupt: (signal: NodeJS.Signals) => interrupt(signal) };
}

describe("the analyses' executor", () => {
  it('passes seated runs on to the pool, and the first signal stops those running', async () => {
    const { made, interrupt } = session();
    const executor = made.executor(pool);
    expect(executor.runOutcome).toBeDefined();
    expect(executor.outcomesInFlight).toBe(pool.outcomesInFlight);
    const loaded = await loadScenarioFile(SCENARIO);
    const counts = await runForOutcome(loaded, { seed: 1, trials: 500, target: KNIGHTS, executor });
    expect(counts.trials).toBe(500);
    const running = runForOutcome(loaded, { seed: 2, trials: 60_000, target: KNIGHTS, executor });
    interrupt('SIGINT');
    await expect(running).rejects.toBeInstanceOf(InterruptedError);
    made.end();
  });

  it('under a test fault, seated runs go as shards, where the fault acts', () => {
    const { made } = session({ shard: 0, kind: 'stall', failures: 1 });
    expect(made.executor(pool).runOutcome).toBeUndefined();
    made.end();
  });
});
