import { availableParallelism } from 'node:os';
import { InvalidArgumentError } from 'commander';
import {
  budgetFromText,
  precisionFromText,
  readNumber,
  seedFromText,
  trialIndexFromText,
  trialsFromText,
  workersFromText,
} from '../../input/number-text.js';

/** A reader of input/number-text.ts as an option parser: its refusal becomes commander's one-line error. */
function asOption(read: (text: string) => number): (text: string) => number {
  return (text) => {
    const result = readNumber(read, text);
    if ('problem' in result) throw new InvalidArgumentError(result.problem);
    return result.value;
  };
}

export const parseTrials = asOption(trialsFromText);
export const parseSeed = asOption(seedFromText);
export const parseWorkers = asOption(workersFromText);
export const parsePrecision = asOption(precisionFromText);
export const parseBudget = asOption(budgetFromText);
export const parseTrialIndex = asOption(trialIndexFromText);

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
