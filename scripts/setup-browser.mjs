#!/usr/bin/env node
/**
 * Makes sure a Chromium for the report's browser test is on the machine: Debian's `chromium`
 * package (at /usr/bin/chromium), installed with apt-get when it is missing. playwright-core (a dev
 * dependency) drives it; it downloads no browser of its own. Prints the executable's path.
 * Run: node scripts/setup-browser.mjs   (the browser test runs it itself when needed)
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM = process.env.CRUCIBLE_CHROMIUM ?? '/usr/bin/chromium';

export function ensureChromium() {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const run = (args) => execFileSync(asRoot ? args[0] : 'sudo', asRoot ? args.slice(1) : args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  run(['apt-get', 'update', '-qq']);
  run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'chromium']);
  if (!existsSync(CHROMIUM)) throw new Error(`chromium was installed but ${CHROMIUM} is not there`);
  return CHROMIUM;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(ensureChromium());
