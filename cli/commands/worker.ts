import path from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { trustPlugins } from '../../input/plugin-trust.js';
import type { ResolvedRuleSystem } from '../../input/platform.js';
import { resolveRuleSystem } from '../../input/rule-systems.js';
import { queueUrlProblem, redactedUrl } from '../../queue/queue-url.js';
import { sharedSecret } from '../../sim/shared-secret.js';
import { EXIT_BAD_INPUT, EXIT_OK, type Io } from './io.js';
import { parseWorkers, usefulWorkers } from './options.js';
import { needing, QUEUE_PACKAGES } from '../optional-packages.js';

/** `crucible worker redis://host:6379`: run shard jobs from the queue until Ctrl-C or SIGTERM. */

export interface WorkerOptions {
  readonly workers?: number;
  readonly plugin?: readonly string[];
  readonly stalledAfter: number;
}

/** How long a silent worker keeps its shard before another gets it, when not given: BullMQ's own default. */
const DEFAULT_STALLED_AFTER_SECONDS = 30;

export async function workerCommand(url: string, options: WorkerOptions, io: Io, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const problem = queueUrlProblem(url);
  if (problem !== undefined) {
    io.stderr(`error: ${problem}\n`);
    return EXIT_BAD_INPUT;
  }
  let secret: string | undefined;
  try {
    secret = sharedSecret(env);
  } catch (error) {
    io.stderr(`error: ${(error as Error).message}\n`);
    return EXIT_BAD_INPUT;
  }
  const plugins: ResolvedRuleSystem[] = [];
  for (const module of options.plugin ?? []) {
    // Resolved as a scenario in the current directory would name it.
    const named = module.startsWith('.') || path.isAbsolute(module) ? module : `./${module}`;
    // Trusted because named here; a job of any other plugin is refused (queue/queue-worker.ts), never imported.
    plugins.push(await resolveRuleSystem(path.join(process.cwd(), '--plugin'), named, trustPlugins([named])));
  }
  const threads = usefulWorkers(options.workers, io.stderr);
  // Loaded here: BullMQ and ioredis cost every other command's start-up nothing.
  const [{ startQueueWorker }, { WORKER_ID }] = await needing(QUEUE_PACKAGES, () =>
    Promise.all([import('../../queue/queue-worker.js'), import('../../queue/shard-queue.js')]),
  );
  const worker = await startQueueWorker({
    url,
    threads,
    plugins,
    stalledAfterMilliseconds: options.stalledAfter * 1000,
    log: io.stderr,
    secret,
    claimedVersion: env.CRUCIBLE_TEST_WORKER_VERSION,
  });
  io.stderr(
    `crucible worker ${WORKER_ID}: taking shards from ${redactedUrl(url)} on ${threads} thread${threads === 1 ? '' : 's'}${plugins.length > 0 ? `, plugins ${plugins.map((entry) => entry.plugin?.id).join(', ')}` : ''} (Ctrl-C stops it after the shards it holds)\n`,
  );
  await new Promise<void>((resolve) => {
    let stopping = false;
    const release = io.onInterrupt?.((signal) => {
      if (stopping) process.exit(128 + (signal === 'SIGTERM' ? 15 : 2));
      stopping = true;
      io.stderr(`crucible worker ${WORKER_ID}: stopping after the shards it holds\n`);
      release?.();
      resolve();
    });
  });
  await worker.close();
  io.stderr(`crucible worker ${WORKER_ID}: ${worker.done()} shards done\n`);
  return EXIT_OK;
}

export function registerWorker(program: Command, io: Io, env: NodeJS.ProcessEnv, setStatus: (status: number) => void): void {
  program
    .command('worker')
    .description("run shards for coordinators on a Redis queue (crucible run … --queue redis://…), on this machine's cores")
    .argument('<url>', 'the Redis server: redis://host:6379, redis://:password@host:6379, or rediss://… for TLS')
    .addOption(new Option('-w, --workers <count>', 'worker threads (default: one per core)').argParser(parseWorkers))
    .option(
      '--plugin <module>',
      "a plugin rule system this worker may run (repeat for several); its code must be the coordinator's",
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .addOption(
      new Option('--stalled-after <seconds>', 'a worker silent this long loses its shard to another worker')
        .argParser((text: string) => {
          const seconds = Number(text);
          if (!Number.isFinite(seconds) || seconds < 0.5 || seconds > 3600)
            throw new InvalidArgumentError('--stalled-after wants seconds from 0.5 to 3600.');
          return seconds;
        })
        .default(DEFAULT_STALLED_AFTER_SECONDS),
    )
    .addHelpText(
      'after',
      `
Start one worker per machine (it uses every core); stop it with Ctrl-C or SIGTERM. A worker killed
outright loses nothing: its shard goes to another worker once --stalled-after has passed. Jobs of a
run made by another crucible version, rule system version or plugin code are refused by name and
put back for a worker that can run them. With $CRUCIBLE_SECRET set (the coordinators' too), jobs
and results are authenticated.

Examples:
  $ crucible worker redis://queue.lan:6379
  $ crucible worker rediss://:secret@queue.example.org:6380 --plugin ./rules/my-game.ts`,
    )
    .action(async (url: string, options: WorkerOptions) => {
      setStatus(await workerCommand(url, options, io, env));
    });
}
