// @ts-expect-error: a plain .mjs script, no types
import { ensureChromium } from '../scripts/setup-browser.mjs';
// @ts-expect-error: a plain .mjs script, no types
import { ensureRedisServer } from '../scripts/setup-redis.mjs';

/**
 * Runs once, in vitest's main process, before any test file: installs the Debian packages the tests
 * drive for real (Chromium for the pages and the workbench, redis-server for the queue), one after
 * the other. Test files only look them up (test/helpers/installed.ts): several files running
 * apt-get at once on a fresh machine would fight over dpkg's lock.
 */
export default function setup(): void {
  ensureChromium();
  ensureRedisServer();
}
