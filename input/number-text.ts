import { MAX_REPLAY_TRIAL, MAX_SEED, MAX_TRIALS } from '../engine/run-limits.js';

/**
 * Numbers as a person types them ("100000", "100_000", "1e6"), read exactly: anything that is not
 * an integer in range is refused with a message saying what would do. The CLI's options and the
 * workbench's fields and links read seeds, trials and precisions through these, so both accept and
 * refuse the same text with the same words. A refusal is a RangeError carrying that message.
 */

function wholeNumber(text: string, min: number, max: number, what: string): number {
  const trimmed = text.trim();
  const looksNumeric = /^\d+(_\d+)*$/.test(trimmed) || /^\d+(\.\d+)?e\d+$/i.test(trimmed);
  const value = looksNumeric ? Number(trimmed.replaceAll('_', '')) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) throw new RangeError(`${what}, got ${JSON.stringify(text)}.`);
  return value;
}

export const trialsFromText = (text: string): number =>
  wholeNumber(text, 1, MAX_TRIALS, 'Trials must be a whole number from 1 to 1e12 (e.g. 100000, 100_000 or 1e6)');

/** Which trial of a run, counted from 0 (crucible replay --trial). */
export const trialIndexFromText = (text: string): number =>
  wholeNumber(text, 0, MAX_REPLAY_TRIAL, `The trial must be a whole number from 0 (the first trial) to ${MAX_REPLAY_TRIAL}`);

export const seedFromText = (text: string): number =>
  wholeNumber(text, 0, MAX_SEED, `The seed must be a whole number from 0 to ${MAX_SEED}`);

/** Worker threads: 0 runs on the main thread; more than 256 is surely a typo. */
export const MAX_WORKERS = 256;
export const workersFromText = (text: string): number =>
  wholeNumber(text, 0, MAX_WORKERS, `Workers must be a whole number from 0 (run on the main thread) to ${MAX_WORKERS}`);

/**
 * A precision: the largest allowed distance from a probability to either end of its 95%
 * interval, as a probability (0.001 = ±0.1 percentage point). Below 1e-5 a run would need ~10¹⁰
 * trials; at 0.5 or more every interval qualifies.
 */
export const MIN_PRECISION = 1e-5;
export function precisionFromText(text: string): number {
  const trimmed = text.trim();
  const value = /^(\d+(\.\d*)?|\.\d+)(e-?\d+)?$/i.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!(value >= MIN_PRECISION && value < 0.5)) {
    throw new RangeError(
      `The precision must be a probability from ${MIN_PRECISION} to below 0.5, e.g. 0.001 for ±0.1 percentage point, got ${JSON.stringify(text)}.`,
    );
  }
  return value;
}

/** Points a side (rosters fielded by count): a number above 0, as large as wanted: the seated scenarios' own limits bound what it fields. */
export function budgetFromText(text: string): number {
  const value = text.trim() === '' ? Number.NaN : Number(text);
  if (!(value > 0 && value < Infinity)) throw new RangeError(`The budget must be a number of points above 0, got ${JSON.stringify(text)}.`);
  return value;
}

/** `read(text)`'s value, or its refusal's message. */
export function readNumber(read: (text: string) => number, text: string): { readonly value: number } | { readonly problem: string } {
  try {
    return { value: read(text) };
  } catch (error) {
    if (error instanceof RangeError) return { problem: error.message };
    throw error;
  }
}
