/**
 * Redis URLs as crucible takes them (`--queue`, `crucible worker`): checked and shown without a
 * password. Apart from queue/shard-queue.ts so that checking an option loads no Redis client: the CLI
 * imports BullMQ and ioredis only when a queue is used.
 */

/** A URL for messages, without its password. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

/** `--queue`/`worker` URL check: refused at once, before any connection, with what is wrong. */
export function queueUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `${JSON.stringify(url)} is not a URL; give redis://host:6379 (or rediss:// for TLS, redis://:password@host:6379)`;
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') return `${redactedUrl(url)}: the scheme must be redis:// or rediss://`;
  return undefined;
}
