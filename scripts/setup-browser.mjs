#!/usr/bin/env node
/**
 * Makes sure a Chromium for the report's browser test is on the machine: Debian's `chromium`
 * package (at /usr/bin/chromium), installed with apt-get when it is missing. playwright-core (a dev
 * dependency) drives it; it downloads no browser of its own. Prints the executable's path.
 * Run: node scripts/setup-browser.mjs   (npm test runs it once before the tests: test/global-setup.ts)
 */
import { ensureDebianPackage } from './apt-install.mjs';

export const CHROMIUM = process.env.CRUCIBLE_CHROMIUM ?? '/usr/bin/chromium';

export const ensureChromium = () => ensureDebianPackage('chromium', CHROMIUM);

if (import.meta.url === `file://${process.argv[1]}`) console.log(ensureChromium());
