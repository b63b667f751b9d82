import { type ChildProcess, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { SHARD_TRIALS } from '../sim/run.js';
import { ShardPool } from '../sim/shard-pool.js';
import { runSharded } from '../sim/sharded-run.js';
import { median } from './measure.js';
import { engagementPlan } from './parallel.js';

/**
 * Issue 35 item 4, under load: the pool `crucible run` starts without --workers (fitted to the load,
 * sim/shard-pool.ts) against a pool of one worker, while other processes keep every core busy —
 * one spinning `node` process per core, started by this bench (so the load is there whatever the
 * machine was doing), each in a session of its own, as another program's work is: Linux's
 * scheduler (with autogroup, as here and on desktop distributions) shares the CPU between sessions
 * first, so more workers win a session no more CPU from the others (bench/README.md). Also a pool of
 * 2 not fitted, beside them: what the fallback avoids. Each pool is started and warmed up first; the
 * timed runs alternate, `repetitions` rounds of `shards` shards of the engagement scenario; medians.
 */

export interface LoadFallbackResult {
  readonly busyProcesses: number;
  readonly shards: number;
  readonly repetitions: number;
  /** Workers the fitted pool started, and the note it gave. */
  readonly fittedWorkers: number;
  readonly note: string;
  /** Trials/s, medians: the fitted pool, one worker, two workers (not fitted). */
  readonly fitted: number;
  readonly one: number;
  readonly two: number;
}

/**
 * A spinner's program: it spins, and every 2²⁴ rounds (about 10 ms) checks that its parent is still
 * the bench that started it. Ctrl-C or SIGTERM ends the bench without its 'exit' handlers, and a
 * spinner, in a session of its own, gets no signal: reparented, it ends itself.
 */
const SPIN = 'const parent = process.ppid; for (let i = 1; (i & 0xffffff) !== 0 || process.ppid === parent; i = (i + 1) | 0);';

/** Starts `count` processes that spin until killed or orphaned, each in a session of its own; killed too if this process exits first. */
function spinners(count: number): ChildProcess[] {
  const started = Array.from({ length: count }, () => spawn(process.execPath, ['-e', SPIN], { stdio: 'ignore', detached: true }));
  process.once('exit', () => {
    for (const spinner of started) spinner.kill('SIGKILL');
  });
  return started;
}

async function rate(pool: ShardPool, shards: number): Promise<number> {
  const start = performance.now();
  const outcome = await runSharded(pool, engagementPlan(shards * SHARD_TRIALS));
  return outcome.tally.trials / ((performance.now() - start) / 1000);
}

export async function measureLoadFallback(
  settings: { readonly shards: number; readonly repetitions: number },
  log: (line: string) => void,
): Promise<LoadFallbackResult> {
  const cores = availableParallelism();
  const busy = spinners(cores);
  const notes: string[] = [];
  const fitted = new ShardPool(2, { fitToLoad: { note: (text) => notes.push(text.trim()) } });
  const one = new ShardPool(1);
  const two = new ShardPool(2);
  const pools = [fitted, one, two];
  const rates = pools.map((): number[] => []);
  try {
    // Let the spinners run before the fitted pool looks at the machine (it measures over 40 ms as it starts).
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const pool of pools) await runSharded(pool, engagementPlan(pool.workers * 4 * SHARD_TRIALS));
    for (let repetition = 0; repetition < settings.repetitions; repetition++) {
      for (const [index, pool] of pools.entries()) rates[index]?.push(await rate(pool, settings.shards));
      log(`  measured the pools under load, repetition ${repetition + 1}/${settings.repetitions}`);
    }
  } finally {
    for (const spinner of busy) spinner.kill('SIGKILL');
    await Promise.all(pools.map((pool) => pool.close(true)));
  }
  return {
    busyProcesses: busy.length,
    shards: settings.shards,
    repetitions: settings.repetitions,
    fittedWorkers: fitted.workers,
    note: notes.join(' ') || '(no note: every worker asked for)',
    fitted: median(rates[0] ?? []),
    one: median(rates[1] ?? []),
    two: median(rates[2] ?? []),
  };
}
