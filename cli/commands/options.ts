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
import type { FaultInjection } from '../../sim/shard-task.js';

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

/**
 * Test-only fault switch, `CRUCIBLE_TEST_FAULT=<throw|exit|stall>:<shard>[:<failures>]`: shard
 * <shard> throws, ends its worker thread halfway, or waits a few seconds before it runs, on its
 * first <failures> attempts (default 1). run takes it, and the analyses' executors (cli/analysis-session.ts).
 */
export function parseTestFault(text: string | undefined): FaultInjection | undefined | Error {
  if (text === undefined || text === '') return undefined;
  const match = /^(throw|exit|stall):(\d+)(?::(\d+))?$/.exec(text);
  if (match === null) return new Error(`CRUCIBLE_TEST_FAULT must look like exit:3, throw:3:2 or stall:3, got ${JSON.stringify(text)}`);
  return { kind: match[1] as FaultInjection['kind'], shard: Number(match[2]), failures: Number(match[3] ?? 1) };
}
