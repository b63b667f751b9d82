import path from 'node:path';
import { compareVariants } from '../analysis/compare.js';
import { matchups } from '../analysis/matchups.js';
import { loadRoster } from '../input/roster.js';
import { ShardPool } from '../sim/shard-pool.js';

/**
 * The analysis targets of issue 7, measured: a 20 × 20 heroic matchup matrix at ±1 percentage point
 * (data/heroic/rosters/twenty.yaml, one pool of 2 workers), and what common random numbers save on a
 * bundled tactic comparison (knights-vs-regenerating-ogre, variant least-damaged: the factor of
 * trials an unpaired comparison would need for the Ogre's win rate).
 */
export interface AnalysisBench {
  readonly matrixSeconds: number;
  readonly matrixPairings: number;
  readonly matrixTrials: number;
  readonly pairedFactor: number;
  readonly pairedOutcome: string;
}

const repository = path.join(import.meta.dirname, '..');

export async function measureAnalysis(workers: number, quick: boolean): Promise<AnalysisBench> {
  const roster = await loadRoster(path.join(repository, 'data/heroic/rosters/twenty.yaml'));
  const pool = new ShardPool(workers);
  const started = performance.now();
  let result: Awaited<ReturnType<typeof matchups>>;
  try {
    result = await matchups(roster, {
      executor: pool,
      precision: 0.01,
      seed: 1,
      ...(quick ? { only: roster.roster.entries.slice(0, 8).map((entry) => entry.id) } : {}),
    });
  } finally {
    await pool.close(false);
  }
  const matrixSeconds = (performance.now() - started) / 1000;
  const comparison = await compareVariants(
    path.join(repository, 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml'),
    undefined,
    'least-damaged',
    { trials: quick ? 20_000 : 100_000 },
  );
  const outcome = 'winner=Regenerating Ogre';
  const channel = comparison.outcomes.find((entry) => entry.metric === 'winner' && entry.label === 'Regenerating Ogre');
  return {
    matrixSeconds,
    matrixPairings: result.cells.length,
    // Each ordered pair is one run (its two seatings are two cells' halves).
    matrixTrials: result.entries.length ** 2 * result.trialsPerSeat,
    pairedFactor: channel?.unpairedTrialsFactor ?? Number.NaN,
    pairedOutcome: outcome,
  };
}
