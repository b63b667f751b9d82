// @ts-expect-error: a plain .mjs script, no types
import { ensureChromium } from '../scripts/setup-browser.mjs';
// @ts-expect-error: a plain .mjs script, no types
import { ensureRedisServer } from '../scripts/setup-redis.mjs';
import { ensureWebBuild } from '../cli/web-build.js';

/**
 * Runs once, in vitest's main process, before any test file: installs the Debian packages the tests
 * drive for real (Chromium for the pages and the workbench, redis-server for the queue), one after
 * the other. Test files only look them up (test/helpers/installed.ts): several files running
 * apt-get at once on a fresh machine would fight over dpkg's lock. Then builds the workbench page
 * into dist/web when it is missing or stale, as `crucible serve` does: the files that serve it
 * (test/web/workbench.test.ts, test/cli/serve.test.ts) share that one build.
 */
export default async function setup(): Promise<void> {
  ensureChromium();
  ensureRedisServer();
  await ensureWebBuild((text) => process.stderr.write(text));
}
