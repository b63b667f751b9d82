import { availableParallelism } from 'node:os';
import { InvalidArgumentError } from 'commander';

/**
 * Parsers for numeric options. They accept what a person types ("100000", "100_000", "1e6") and
 * reject anything that is not exactly an integer in range, with a message saying what would do.
 */
function parseInteger(text: string, min: number, max: number, what: string): number {
  const trimmed = text.trim();
  const looksNumeric = /^\d+(_\d+)*$/.test(trimmed) || /^\d+(\.\d+)?e\d+$/i.test(trimmed);
  const value = looksNumeric ? Number(trimmed.replaceAll('_', '')) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new InvalidArgumentError(`${what}, got ${JSON.stringify(text)}.`);
  }
  return value;
}

/** Trials per scenario: the scenario schema's range. */
export const MAX_TRIALS = 1e12;
export const parseTrials = (text: string): number =>
  parseInteger(text, 1, MAX_TRIALS, 'Trials must be a whole number from 1 to 1e12 (e.g. 100000, 100_000 or 1e6)');

/** Seeds are 32-bit unsigned integers (the scenario schema's range). */
export const MAX_SEED = 4294967295;
export const parseSeed = (text: string): number => parseInteger(text, 0, MAX_SEED, `The seed must be a whole number from 0 to ${MAX_SEED}`);

/** Worker threads: 0 runs on the main thread; more than 256 is surely a typo. */
export const MAX_WORKERS = 256;
export const parseWorkers = (text: string): number =>
  parseInteger(text, 0, MAX_WORKERS, `Workers must be a whole number from 0 (run on the main thread) to ${MAX_WORKERS}`);

/**
 * `--precision`: the largest allowed distance from a probability to either end of its 95%
 * interval, as a probability (0.001 = ±0.1 percentage point). Below 1e-5 a run would need ~10¹⁰
 * trials; at 0.5 or more every interval qualifies.
 */
export const MIN_PRECISION = 1e-5;
export function parsePrecision(text: string): number {
  const trimmed = text.trim();
  const value = /^(\d+(\.\d*)?|\.\d+)(e-?\d+)?$/i.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!(value >= MIN_PRECISION && value < 0.5)) {
    throw new InvalidArgumentError(`The precision must be a probability from ${MIN_PRECISION} to below 0.5, e.g. 0.001 for ±0.1 percentage point, got ${JSON.stringify(text)}.`);
  }
  return value;
}

/**
 * Worker threads that can help: more than the machine's cores only costs memory (each worker holds
 * its own kernel and tallies), so a larger --workers is clamped to the cores, with a note.
 */
export function usefulWorkers(requested: number | undefined, note: (text: string) => void, cores: number = availableParallelism()): number {
  if (requested === undefined) return cores;
  if (requested <= cores) return requested;
  note(`note: --workers ${requested} is more than this machine's ${cores} cores; using ${cores} (the numbers do not depend on it)\n`);
  return cores;
}
