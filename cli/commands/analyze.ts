import type { Command } from 'commander';
import { registerBalance } from './balance.js';
import { registerCompare } from './compare.js';
import type { Io } from './io.js';
import { registerMatchups } from './matchups.js';
import { registerSweep } from './sweep.js';

/**
 * The analysis commands: `compare` (two variants, common random numbers), `sweep` (one or two
 * fields over values), `matchups` (a roster against itself), `balance` (fitted point costs).
 * Thin layers over analysis/; every table can be written as CSV, JSON or Markdown with --out.
 */
export function registerAnalysis(program: Command, io: Io): void {
  registerCompare(program, io);
  registerSweep(program, io);
  registerMatchups(program, io);
  registerBalance(program, io);
}
