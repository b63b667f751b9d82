import { createHash } from 'node:crypto';
import os from 'node:os';
import { Redis, type RedisOptions } from 'ioredis';
import { z } from 'zod';
import type { MetricSpec } from '../engine/kernel.js';
import { InputError } from '../input/errors.js';
import { CRUCIBLE_VERSION } from '../input/package-info.js';
import { SECRET_VARIABLE, tagHolds, tagOf } from '../sim/shared-secret.js';
import { redactedUrl } from './queue-url.js';
import { histogramProblem } from '../statistics/tally.js';

/**
 * The protocol between a coordinator (`crucible run … --queue redis://…`) and its workers
 * (`crucible worker redis://…`) over Redis, with BullMQ carrying the jobs. One job is one shard;
 * the kernel spec it needs is stored once under its digest; a shard's tally is written, first
 * writer wins, into a hash keyed by the run's key and the shard. Shard k of a seed is the same
 * counts wherever it runs (sim/shards.ts), so a redelivered or duplicated job writes what is
 * already there, and the hash is the run's checkpoint: a coordinator started again reads what is
 * done. Everything read back from Redis is checked before it is used.
 */

export const QUEUE_NAME = 'crucible-shards';
export { CRUCIBLE_VERSION };
/** How long specs and results stay in Redis after their last write: long enough to resume a run after a weekend. */
export const RESULT_TTL_SECONDS = 7 * 24 * 3600;
/** Largest kernel spec stored (the largest bundled scenario's is ~60 KB). */
export const MAX_SPEC_BYTES = 8 * 1024 * 1024;

/** What a worker must match to run a shard: the same crucible, rule system version and plugin code. */
export interface RunRequirements {
  readonly crucible: string;
  readonly ruleset: string;
  readonly rulesetVersion: string;
  readonly plugin?: { readonly id: string; readonly version: string; readonly codeHash: string } | undefined;
}

const hex64 = z.string().regex(/^[0-9a-f]{64}$/);
const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const shardJobSchema = z.strictObject({
  /** runKeyOf(…): names the results hash. */
  run: hex64,
  specDigest: hex64,
  seed: count,
  /** The first shard of the job, and how many consecutive shards it holds (each of `trials` trials). */
  shard: count,
  count: z.number().int().min(1).max(64).default(1),
  trials: count.max(1 << 20),
  requires: z.strictObject({
    crucible: z.string().max(100),
    ruleset: z.string().max(200),
    rulesetVersion: z.string().max(100),
    plugin: z.strictObject({ id: z.string().max(200), version: z.string().max(100), codeHash: hex64 }).optional(),
  }),
  /** With $CRUCIBLE_SECRET: the HMAC of the job's other fields (jobTagText). The spec is bound to it by its digest. */
  tag: hex64.optional(),
});
export type ShardJob = z.output<typeof shardJobSchema>;
/** A job as written to the queue (`count` may be left out for one shard). */
export type ShardJobInput = z.input<typeof shardJobSchema>;

/** What a job's tag covers: every field but the tag, in a fixed order. */
export const jobTagText = (job: Omit<ShardJob, 'tag'>): string =>
  JSON.stringify(['job', job.run, job.specDigest, job.seed, job.shard, job.count, job.trials, job.requires]);

/** The job with its tag under `secret`, or as it is without one. */
export function signedJob(job: ShardJob, secret: string | undefined): ShardJob {
  const { tag: _, ...fields } = job;
  return secret === undefined ? fields : { ...fields, tag: tagOf(jobTagText(fields), secret) };
}

/** Why a worker with `secret` (or none) will not trust `job`, or undefined when it does. */
export function jobTagProblem(job: ShardJob, secret: string | undefined): string | undefined {
  if (secret === undefined) return job.tag === undefined ? undefined : `the job is signed and this worker has no ${SECRET_VARIABLE}`;
  if (job.tag === undefined) return `the job is not signed and this worker has ${SECRET_VARIABLE} set`;
  return tagHolds(jobTagText(job), job.tag, secret)
    ? undefined
    : `the job's tag does not hold under this worker's ${SECRET_VARIABLE} (another secret, or a forged job)`;
}

/** Why a stored spec is not the one named by `digest`, or undefined when it is. */
export function specDigestProblem(text: string, digest: string): string | undefined {
  let spec: unknown;
  try {
    spec = JSON.parse(text);
  } catch {
    return 'the stored spec is not valid JSON';
  }
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) return 'the stored spec is not a kernel spec';
  const { kernelModule: _, ...content } = spec as Record<string, unknown>;
  const actual = createHash('sha256').update(JSON.stringify(content)).digest('hex');
  return actual === digest ? undefined : `the stored spec's digest is ${actual.slice(0, 12)}…, the job names ${digest.slice(0, 12)}…`;
}

/** Which connected worker refused which run's jobs, and why (queue/queue-worker.ts writes it, the coordinator reads it). */
export const refusalsKey = (specDigest: string): string => `crucible:refusals:${specDigest}`;
/** A refusal older than this is forgotten: the worker may have been upgraded. */
export const REFUSAL_TTL_SECONDS = 120;

/** The key of a run's results: crucible's version, the inputs (spec digest, which covers the method) and the seed. */
export const runKeyOf = (specDigest: string, seed: number): string =>
  createHash('sha256').update(`${CRUCIBLE_VERSION}\0${specDigest}\0${seed}`).digest('hex');

export const specKey = (digest: string): string => `crucible:spec:${digest}`;
export const resultsKey = (run: string): string => `crucible:results:${run}`;
/** A shard's field in the results hash: its index and trial count (the last shard of a run may be short). */
export const resultField = (shard: number, trials: number): string => `${shard}/${trials}`;
/** BullMQ job ids may not hold ':' or be all digits. */
export const jobIdOf = (job: Pick<ShardJob, 'run' | 'shard' | 'trials'> & { readonly count?: number }, attempt: number): string =>
  `s-${job.run.slice(0, 40)}-${job.shard}${(job.count ?? 1) > 1 ? `x${job.count}` : ''}-${job.trials}-${attempt}`;

/** Who a worker is, in messages and results: host and process. */
export const WORKER_ID = `${os.hostname()}:${process.pid}`;

/** A shard's result as stored: its cells as the bytes of a Float64Array (little-endian), base64. */
export interface StoredResult {
  readonly trials: number;
  readonly cells: string;
  readonly worker: string;
  readonly tag?: string;
}

/** A result's tag covers its run, shard field, trials, cells and worker: it cannot be moved to another shard or run. */
const resultTagText = (where: string, trials: number, cells: string, worker: string): string =>
  JSON.stringify(['result', where, trials, cells, worker]);

/** `where`: the run and field it is stored under (resultWhere), which the tag binds it to. */
export function encodeResult(
  cells: Float64Array,
  trials: number,
  worker: string,
  signing?: { readonly secret: string; readonly where: string },
): string {
  const text = Buffer.from(cells.buffer, cells.byteOffset, cells.byteLength).toString('base64');
  const tag = signing === undefined ? {} : { tag: tagOf(resultTagText(signing.where, trials, text, worker), signing.secret) };
  return JSON.stringify({ trials, cells: text, worker, ...tag } satisfies StoredResult);
}

/** What a result's tag binds it to: its run and field. */
export const resultWhere = (run: string, field: string): string => `${run}/${field}`;

const storedSchema = z.strictObject({
  trials: count,
  cells: z.string().max(64 * 1024 * 1024),
  worker: z.string().max(300),
  tag: hex64.optional(),
});

/**
 * A stored result, checked: its shape, its trial count, its cell count, and every metric's
 * histogram holding exactly its trials (integers ≥ 0). A string naming the problem otherwise.
 */
export function decodeResult(
  text: string,
  metrics: readonly MetricSpec[],
  trials: number,
  signing?: { readonly secret: string; readonly where: string },
): { readonly cells: Float64Array; readonly worker: string } | string {
  let parsed: z.output<typeof storedSchema>;
  try {
    const result = storedSchema.safeParse(JSON.parse(text));
    if (!result.success) return 'not a shard result';
    parsed = result.data;
  } catch {
    return 'not valid JSON';
  }
  if (signing !== undefined) {
    if (parsed.tag === undefined) return `it has no tag (${SECRET_VARIABLE} is set)`;
    if (!tagHolds(resultTagText(signing.where, parsed.trials, parsed.cells, parsed.worker), parsed.tag, signing.secret))
      return `its tag does not hold under ${SECRET_VARIABLE}`;
  }
  if (parsed.trials !== trials) return `holds ${parsed.trials} trials, the shard has ${trials}`;
  const bytes = Buffer.from(parsed.cells, 'base64');
  const expected = metrics.reduce((total, metric) => total + metric.max + 1, 0);
  if (bytes.length !== expected * Float64Array.BYTES_PER_ELEMENT)
    return `holds ${bytes.length / Float64Array.BYTES_PER_ELEMENT} cells, this scenario's tally has ${expected}`;
  const cells = new Float64Array(expected);
  for (let c = 0; c < expected; c++) cells[c] = bytes.readDoubleLE(c * Float64Array.BYTES_PER_ELEMENT);
  const problem = histogramProblem(cells, metrics, trials);
  return problem === undefined ? { cells, worker: parsed.worker } : problem;
}

/** Why this process cannot run a shard of `requires`, in words, or undefined when it can. */
export function requirementProblem(
  requires: RunRequirements,
  local: { readonly rulesetVersion?: string; readonly pluginCodeHash?: string; readonly crucible?: string },
): string | undefined {
  const crucible = local.crucible ?? CRUCIBLE_VERSION;
  if (requires.crucible !== crucible) return `its crucible is ${crucible}, the run's is ${requires.crucible}`;
  if (local.rulesetVersion === undefined) {
    return requires.plugin === undefined
      ? `it has no rule system "${requires.ruleset}"`
      : `it has no plugin "${requires.plugin.id}" (start it with --plugin <the plugin's module>)`;
  }
  if (local.rulesetVersion !== requires.rulesetVersion)
    return `its ${requires.ruleset} is version ${local.rulesetVersion}, the run's is ${requires.rulesetVersion}`;
  if (requires.plugin !== undefined && local.pluginCodeHash !== requires.plugin.codeHash) {
    return `its plugin ${requires.plugin.id} code (sha256 ${(local.pluginCodeHash ?? '').slice(0, 12)}…) differs from the run's (sha256 ${requires.plugin.codeHash.slice(0, 12)}…)`;
  }
  return undefined;
}

/**
 * A Redis connection from a URL: redis://[user:password@]host:port[/db], or rediss:// for TLS.
 * BullMQ's blocking commands need `maxRetriesPerRequest: null`.
 */
export function connect(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, lazyConnect: false, ...options });
}

/**
 * Connect once, without retrying, and PING: an unreachable server, a wrong password or a TLS
 * mismatch is a clear error at once instead of a run waiting for good (ioredis retries forever).
 */
export async function reachable(url: string): Promise<void> {
  const probe = new Redis(url, { maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 5000, lazyConnect: true });
  // The socket's own error (ECONNREFUSED, ENOTFOUND, a TLS failure) says more than "Connection is closed".
  let cause: Error | undefined;
  probe.on('error', (error: Error) => {
    cause ??= error;
  });
  try {
    await probe.connect();
    await probe.ping();
  } catch (error) {
    const message = (cause ?? (error instanceof Error ? error : new Error(String(error)))).message;
    throw InputError.at(redactedUrl(url), '(connection)', `cannot use this Redis: ${message}`);
  } finally {
    probe.disconnect();
  }
}
