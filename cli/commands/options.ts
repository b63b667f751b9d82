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
