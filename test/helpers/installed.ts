import { existsSync } from 'node:fs';
// @ts-expect-error: a plain .mjs script, no types
import { CHROMIUM } from '../../scripts/setup-browser.mjs';
// @ts-expect-error: a plain .mjs script, no types
import { REDIS_SERVER } from '../../scripts/setup-redis.mjs';

/**
 * The executables test/global-setup.ts installed before the tests. A file never installs one
 * itself (files run side by side, and apt-get runs one at a time): missing, it says how to get it.
 */
function installed(executable: string, script: string): string {
  if (!existsSync(executable))
    throw new Error(
      `${executable} is missing: npm test installs it before the tests (test/global-setup.ts); on its own, run node ${script}`,
    );
  return executable;
}

export const chromiumPath = (): string => installed(CHROMIUM as string, 'scripts/setup-browser.mjs');
export const redisServerPath = (): string => installed(REDIS_SERVER as string, 'scripts/setup-redis.mjs');
