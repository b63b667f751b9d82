import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A fleet's optional shared secret ($CRUCIBLE_SECRET). With it, what crosses machines — the job
 * specs and shard results a queue keeps in Redis, the part files `run --shards` writes — carries an
 * HMAC-SHA256 tag that only holders of the secret can make, and every reader refuses a missing or
 * wrong tag. Without it, Redis and part files are trusted as they are (docs/beyond-one-machine.md
 * says what that means). One module, so the coordinator, the workers, map and merge agree.
 */

export const SECRET_VARIABLE = 'CRUCIBLE_SECRET';
/** Shorter is guessable: 16 characters of a password manager's output is ~95 bits. */
export const MIN_SECRET_CHARACTERS = 16;

/** The secret in `env`, if set; a set but too short one is an error (a typo must not turn authentication off). */
export function sharedSecret(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const secret = env[SECRET_VARIABLE];
  if (secret === undefined || secret === '') return undefined;
  if (secret.length < MIN_SECRET_CHARACTERS)
    throw new RangeError(
      `${SECRET_VARIABLE} must be at least ${MIN_SECRET_CHARACTERS} characters (it is ${secret.length}); unset it to run without one`,
    );
  return secret;
}

/** The tag of `text` under `secret`: 64 hex digits. */
export function tagOf(text: string, secret: string): string {
  return createHmac('sha256', secret).update(text).digest('hex');
}

/** Whether `tag` is `text`'s tag under `secret` (compared in constant time). */
export function tagHolds(text: string, tag: unknown, secret: string): boolean {
  if (typeof tag !== 'string' || !/^[0-9a-f]{64}$/.test(tag)) return false;
  return timingSafeEqual(Buffer.from(tagOf(text, secret), 'hex'), Buffer.from(tag, 'hex'));
}
