import { type Command, InvalidArgumentError, Option } from 'commander';
import { InProcessExecutor } from '../../sim/in-process-executor.js';
import { queueUrlProblem } from '../../queue/queue-url.js';
import { sharedSecret } from '../../sim/shared-secret.js';
import type { ShardExecutor } from '../../sim/shard-task.js';
import type { Io } from './io.js';
import { parseSeed, parseTestFault, parseWorkers } from './options.js';
import { localPool } from './local-pool.js';
import { type AnalysisSession, analysisSession, type SessionOptions } from '../analysis-session.js';
import { pluginOption, type Trusting } from './plugins.js';
import { needing, QUEUE_PACKAGES, REPORT_PACKAGES } from '../optional-packages.js';
import type { AnalysisDocument } from '../../reports/analysis-pages.js';
import { type OutOptions, outOptions } from './table-out.js';

/** What the analysis commands (compare, sweep, matchups, balance) share: options, the worker pool, progress and Ctrl-C. */

export interface Common extends Trusting, OutOptions {
  readonly quiet?: boolean;
  readonly seed?: number;
  readonly trials?: number;
  readonly workers?: number;
  /** `--queue redis://…`: shards on crucible worker processes through Redis (queue/queue-executor.ts). */
  readonly queue?: string;
}

/** The options every analysis command takes: seed, workers (unless it runs on one thread), --out (and --bom), --quiet and --plugin. */
export function common(command: Command, { workers = true } = {}): Command {
  pluginOption(command);
  command.option('-q, --quiet', 'no progress display on stderr (as with --json)');
  command.addHelpText(
    'after',
    `
On a terminal, stderr shows the progress as crucible run does (--quiet or --json: none). Ctrl-C (or
SIGTERM) stops the command at once, saying what was done: it keeps no partial result; exit status
130 (143: SIGTERM).`,
  );
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
  session: AnalysisSession,
  work: (pool: ShardExecutor) => Promise<T>,
): Promise<T> {
  // -w 0: the main thread, as for run.
  if (options.workers === 0) return work(session.executor(new InProcessExecutor()));
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
      ? localPool(options.workers, note)
      : await needing(QUEUE_PACKAGES, async () => (await import('../../queue/queue-executor.js')).QueueExecutor.open(queue, note, secret));
  try {
    return await work(session.executor(pool));
  } finally {
    // Interrupted: the shards still running are dropped, not waited for.
    await pool.close(session.signal.aborted);
  }
}

/**
 * The session of an analysis command (cli/analysis-session.ts): its progress display under run's
 * rules (no --quiet, no --json), its Ctrl-C, and CRUCIBLE_TEST_FAULT for its shards (tests only).
 */
export function sessionOf(
  io: Io,
  env: NodeJS.ProcessEnv,
  options: Pick<Common, 'quiet' | 'json'>,
  what: Pick<SessionOptions, 'command' | 'file' | 'unit' | 'total'>,
): AnalysisSession {
  const fault = parseTestFault(env.CRUCIBLE_TEST_FAULT);
  if (fault instanceof Error) throw new InvalidArgumentError(fault.message);
  return analysisSession(io, { ...what, quiet: options.quiet === true || options.json === true, fault });
}

/**
 * Run `work` in `session`: its result, or, when a signal stopped it, the exit status (130, 143) after
 * the line saying so. Any other failure is the command's.
 */
export async function inSession<T>(session: AnalysisSession, work: () => Promise<T>): Promise<{ result: T } | { status: number }> {
  try {
    return { result: await work() };
  } catch (error) {
    const status = session.stopped();
    if (status === undefined) throw error;
    return { status };
  } finally {
    session.end();
  }
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
