import { type Command, InvalidArgumentError, Option } from 'commander';
import { InProcessExecutor } from '../../sim/in-process-executor.js';
import { ShardPool } from '../../sim/shard-pool.js';
import { queueUrlProblem } from '../../queue/queue-url.js';
import { sharedSecret } from '../../sim/shared-secret.js';
import type { ShardExecutor } from '../../sim/shard-task.js';
import type { Io } from './io.js';
import { parseSeed, parseWorkers, usefulWorkers } from './options.js';
import { pluginOption, type Trusting } from './plugins.js';
import { needing, QUEUE_PACKAGES, REPORT_PACKAGES } from '../optional-packages.js';
import type { AnalysisDocument } from '../../reports/analysis-pages.js';
import { outOptions } from './table-out.js';

/** What the analysis commands (compare, sweep, matchups, balance) share: options, the worker pool, progress. */

export interface Common extends Trusting {
  readonly seed?: number;
  readonly trials?: number;
  readonly workers?: number;
  /** `--queue redis://…`: shards on crucible worker processes through Redis (queue/queue-executor.ts). */
  readonly queue?: string;
  readonly out?: string;
  readonly bom?: boolean;
  readonly json?: boolean;
}

/** The options every analysis command takes: seed, workers (unless it runs on one thread), --out (and --bom) and --plugin. */
export function common(command: Command, { workers = true } = {}): Command {
  pluginOption(command);
  command.addOption(new Option('-s, --seed <seed>', "seed (default: the scenario's)").argParser(parseSeed));
  // compare pairs its two variants trial by trial on this thread: it takes no worker threads.
  if (workers) {
    command.addOption(new Option('-w, --workers <count>', 'worker threads (default: one per core)').argParser(parseWorkers));
    command.addOption(
      new Option(
        '--queue <url>',
        'run the shards on crucible worker processes through Redis (redis://host:6379); the same numbers',
      ).conflicts('workers'),
    );
  }
  return outOptions(command);
}

/** `--queue` as crucible workers through Redis, `--workers` as a pool (clamped to the cores, `note` saying so), or the main thread for 0. */
export async function withPool<T>(
  options: Pick<Common, 'workers' | 'queue'>,
  note: (text: string) => void,
  work: (pool: ShardExecutor) => Promise<T>,
): Promise<T> {
  // -w 0: the main thread, as for run.
  if (options.workers === 0) return work(new InProcessExecutor());
  let secret: string | undefined;
  if (options.queue !== undefined) {
    const problem = queueUrlProblem(options.queue);
    if (problem !== undefined) throw new InvalidArgumentError(`--queue: ${problem}`);
    try {
      // The fleet's secret, as for run --queue: jobs signed, results checked (docs/beyond-one-machine.md).
      secret = sharedSecret(process.env);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
  }
  const queue = options.queue;
  const pool =
    queue === undefined
      ? // Without --workers: one per core, fewer where other processes keep cores busy.
        new ShardPool(usefulWorkers(options.workers, note), options.workers === undefined ? { fitToLoad: { note } } : {})
      : await needing(QUEUE_PACKAGES, async () => (await import('../../queue/queue-executor.js')).QueueExecutor.open(queue, note, secret));
  try {
    return await work(pool);
  } finally {
    await pool.close(false);
  }
}

/** "12/400 pairings, 0:34 left" on the terminal stream, rewritten in place. */
export function progressLine(io: Io, what: string): (done: number, total: number) => void {
  const started = Date.now();
  const stream = io.progressStream;
  return (done, total) => {
    if (stream === undefined) return;
    const elapsed = (Date.now() - started) / 1000;
    // An open-ended search (a price list) knows no total: the runs so far and the time taken.
    if (!(total > 0)) {
      stream.write(`\r${done} ${what}, ${Math.floor(elapsed / 60)}:${String(Math.round(elapsed) % 60).padStart(2, '0')} so far   `);
      return;
    }
    const left = done > 0 ? Math.round((elapsed / done) * (total - done)) : 0;
    stream.write(
      `\r${done}/${total} ${what}, ${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')} left   ${done === total ? '\n' : ''}`,
    );
  };
}

/** `--report DIR`: the command's JSON document as an HTML page (reports/analysis-pages.ts, loaded only when asked: it pulls in vega). */
export async function writeReport(
  document: AnalysisDocument,
  directory: string,
  measure?: 'score' | 'win' | 'draw' | 'loss',
): Promise<string> {
  return needing(REPORT_PACKAGES, async () => {
    const { writeAnalysisReport } = await import('../../reports/analysis-pages.js');
    return writeAnalysisReport(document, directory, measure === undefined ? {} : { measure });
  });
}
