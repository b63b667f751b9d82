import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { redactedUrl } from './queue-url.js';
import { REFUSAL_TTL_SECONDS, refusalsKey } from './shard-queue.js';

/**
 * Whether a queued run's jobs are being taken at all (the coordinator's side, queue/queue-executor.ts):
 * a run no worker takes says so on stderr, whatever the terminal, and a run that every connected
 * worker refuses (another version, no plugin, another secret) ends with the reasons, after a bounded
 * wait, instead of waiting for good.
 */

/** How often awaited jobs are looked for in Redis, when to say no worker takes them, when to give up on refusals. */
export interface Liveness {
  readonly checkEveryMilliseconds: number;
  readonly idleNoticeMilliseconds: number;
  readonly refusedForMilliseconds: number;
}

export const DEFAULT_LIVENESS: Liveness = { checkEveryMilliseconds: 2000, idleNoticeMilliseconds: 30_000, refusedForMilliseconds: 20_000 };

/** Why the run cannot go on through this queue (every worker refuses it, Redis is full): exit 2, not a bug. */
export class QueueUnusableError extends Error {
  override readonly name = 'QueueUnusableError';
}

/** A Redis refusal that no retry mends, in words; undefined for any other error. */
export function redisProblem(url: string, message: string): string | undefined {
  if (/\bOOM\b.*maxmemory/.test(message))
    return `the Redis at ${redactedUrl(url)} is out of memory (maxmemory reached, and nothing its policy may evict frees enough): give it more memory, or a maxmemory-policy such as allkeys-lru`;
  return undefined;
}

export class WorkerWatch {
  /** When a worker was last seen holding or finishing one of the coordinator's jobs (or nothing was awaited). */
  private lastTaken = Date.now();
  private lastNotice = 0;

  constructor(
    private readonly queue: Queue,
    private readonly connection: Redis,
    private readonly url: string,
    private readonly liveness: Liveness,
    private readonly note: (text: string) => void,
  ) {}

  /** A worker holds or finished one of the awaited jobs. */
  taken(): void {
    this.lastTaken = Date.now();
  }

  /** Names of the crucible workers connected to the queue (queue/queue-worker.ts names each by WORKER_ID). */
  private async workerNames(): Promise<Set<string>> {
    const clients = await this.queue.getWorkers();
    return new Set(clients.map((client) => String(client.rawname ?? '').split(':w:')[1] ?? '').filter((name) => name !== ''));
  }

  /**
   * Called at each check with the spec digests of the jobs awaited (none: nothing to take). Says on
   * stderr when none was taken for a while; returns the reason to give up when every connected worker refuses them.
   */
  async look(digests: ReadonlySet<string>): Promise<string | undefined> {
    const now = Date.now();
    if (digests.size === 0) {
      this.lastTaken = now;
      return undefined;
    }
    const idle = now - this.lastTaken;
    if (idle < Math.min(this.liveness.idleNoticeMilliseconds, this.liveness.refusedForMilliseconds)) return undefined;
    const names = await this.workerNames();
    const refusals = new Map<string, string>();
    for (const digest of digests) {
      for (const [name, entry] of Object.entries(await this.connection.hgetall(refusalsKey(digest)))) {
        const space = entry.indexOf(' ');
        if (now - Number(entry.slice(0, space)) < REFUSAL_TTL_SECONDS * 1000) refusals.set(name, entry.slice(space + 1));
      }
    }
    const everyoneRefuses = names.size > 0 && [...names].every((name) => refusals.has(name));
    if (everyoneRefuses && idle >= this.liveness.refusedForMilliseconds) {
      return `no connected worker can run this run's shards (${names.size} connected, every one refuses them): ${[...names].map((name) => refusals.get(name)).join('; ')}`;
    }
    if (idle >= this.liveness.idleNoticeMilliseconds && now - this.lastNotice >= this.liveness.idleNoticeMilliseconds) {
      this.lastNotice = now;
      const url = redactedUrl(this.url);
      const who =
        names.size === 0
          ? `no crucible worker is connected to ${url} (start one with: crucible worker ${url})`
          : `${names.size} worker${names.size === 1 ? ' is' : 's are'} connected${refusals.size > 0 ? `, ${refusals.size} refusing this run's shards` : ''}`;
      this.note(`crucible: no worker has taken a job for ${Math.round(idle / 1000)} s; ${who}; still waiting\n`);
    }
    return undefined;
  }
}
