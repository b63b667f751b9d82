import { StreamDice } from '../engine/dice/index.js';
import type { Kernel } from '../engine/kernel.js';
import { compileKernelSpec, type SerializedKernelSpec } from './kernel-spec.js';
import { runWithDice } from './run.js';
import type { FaultInjection, KernelFacts, OutcomeResult, OutcomeTask, ShardResult, ShardTask } from './shard-task.js';
import { StreamCursor } from './stream-cursor.js';
import { SCORE_STOP_EVERY, type ScoreStop, scoreStopMet } from '../statistics/score-stop.js';
import { Tally } from '../statistics/tally.js';
import { targetCells } from '../statistics/outcome.js';

/**
 * Where shards are run, whoever runs them — a worker thread (sim/shard-worker.ts, which the
 * queue's workers use too), the main thread (sim/in-process-executor.ts), a Web Worker
 * (web/compute/shard-worker.ts): the kernels compiled on this thread, by a key naming their spec
 * (a shard's spec digest, a seated run's spec JSON), and the position in the seed's streams. So a
 * shard costs a map lookup and a few jumps before its trials start, and the facts a run asks for first (`facts`) come from the kernel its shards then use.
 */

/** Kernels kept per thread: the analyses run several scenarios on one pool at once (a matchup's lanes), and each would recompile if only the last were kept. */
const KERNELS_KEPT = 8;

/** How long a `stall` fault holds its shard: far longer than a test takes to send a signal. */
export const STALL_MILLISECONDS = 3000;

export interface ShardRunnerOptions {
  /** Allocates a shard tally's cells (shared memory in a worker thread, see there); default a plain array. */
  readonly storage?: (size: number) => Float64Array;
  /** How this thread ends itself for an `exit` fault (a worker thread can, as a crash would); without it, the fault throws. */
  readonly exit?: () => never;
}

export class ShardRunner {
  /** Compiled (or compiling) kernels by the key naming their spec (`kernel`), least recently used first. */
  private readonly kernels = new Map<string, Promise<Kernel>>();
  private readonly cursor = new StreamCursor();

  constructor(private readonly options: ShardRunnerOptions = {}) {}

  /** The kernel of a spec, compiled once per thread (tasks of one spec arriving together share the compilation); `specDigest` may be any key that names the spec. */
  kernel(specJson: string, specDigest: string): Promise<Kernel> {
    let kernel = this.kernels.get(specDigest);
    if (kernel === undefined) {
      const compiling = compileKernelSpec(specJson);
      // A spec that fails to compile is not kept: its next task tries again and fails on its own.
      compiling.catch(() => {
        if (this.kernels.get(specDigest) === compiling) this.kernels.delete(specDigest);
      });
      kernel = compiling;
    }
    this.kernels.delete(specDigest);
    this.kernels.set(specDigest, kernel);
    if (this.kernels.size > KERNELS_KEPT) this.kernels.delete(this.kernels.keys().next().value as string);
    return kernel;
  }

  async facts(spec: SerializedKernelSpec): Promise<KernelFacts> {
    const { engineVersion, metrics } = await this.kernel(spec.json, spec.digest);
    return { engineVersion, metrics };
  }

  async run(task: ShardTask): Promise<ShardResult> {
    const kernel = await this.kernel(task.specJson, task.specDigest);
    const fault = faultFor(task);
    if (fault?.kind === 'stall') await new Promise((resolve) => setTimeout(resolve, STALL_MILLISECONDS));
    else if (fault?.kind === 'exit' && this.options.exit !== undefined) {
      // Die halfway through the shard, as a crash would: the half-done tally is simply lost.
      runShard(kernel, this.cursor, task.seed, task.shard, Math.floor(task.trials / 2));
      this.options.exit();
    } else if (fault !== undefined) throw new Error(`injected test fault (${fault.kind}) in shard ${task.shard}, attempt ${task.attempt}`);
    return runShard(kernel, this.cursor, task.seed, task.shard, task.trials, this.options.storage, task.stop);
  }

  /** A whole one-shard run, counted for its target side: the same trials as shard 0 of a run of `task.trials` (runSharded's stop inside the shard included). */
  async runOutcome(task: OutcomeTask): Promise<OutcomeResult> {
    const kernel = await this.kernel(task.specJson, task.specJson);
    let cells: { readonly winCell: number; readonly lossCell: number };
    try {
      cells = targetCells(kernel.metrics, task.target, '');
    } catch {
      return { metrics: kernel.metrics };
    }
    const { halfWidth } = task.target;
    const shard = runShard(
      kernel,
      this.cursor,
      task.seed,
      0,
      task.trials,
      undefined,
      halfWidth === undefined ? undefined : { ...cells, halfWidth },
    );
    return {
      wins: shard.cells[cells.winCell] ?? 0,
      losses: shard.cells[cells.lossCell] ?? 0,
      trials: shard.trials,
      loopMilliseconds: shard.loopMilliseconds,
    };
  }

  /** Several, one after the other (a batch from sim/shard-pool.ts). */
  async runOutcomes(tasks: readonly OutcomeTask[]): Promise<OutcomeResult[]> {
    const results: OutcomeResult[] = [];
    for (const task of tasks) results.push(await this.runOutcome(task));
    return results;
  }
}

/** The fault `task` should suffer now, if any. */
function faultFor(task: ShardTask): FaultInjection | undefined {
  const fault = task.fault;
  return fault !== undefined && fault.shard === task.shard && task.attempt <= fault.failures ? fault : undefined;
}

/**
 * Run shard `shard` of `seed` on this thread. Same trials, same stream as `runTrials`'s shard k.
 * `storage` allocates the tally's cells (shared memory in a worker, see Tally). With `stop`, the
 * trials run in blocks of SCORE_STOP_EVERY until the rule is met: the first n trials of the shard.
 */
export function runShard(
  kernel: Kernel,
  cursor: StreamCursor,
  seed: number,
  shard: number,
  trials: number,
  storage?: (size: number) => Float64Array,
  stop?: ScoreStop,
): ShardResult {
  const dice = new StreamDice(cursor.generatorAt(seed, shard));
  const tally = new Tally(kernel.metrics, storage);
  const started = performance.now();
  if (stop === undefined) runWithDice(kernel, dice, trials, tally);
  else {
    while (tally.trials < trials && !scoreStopMet(tally.cells, tally.trials, stop))
      runWithDice(kernel, dice, Math.min(SCORE_STOP_EVERY, trials - tally.trials), tally);
  }
  return { cells: tally.cells, trials: tally.trials, loopMilliseconds: performance.now() - started };
}
