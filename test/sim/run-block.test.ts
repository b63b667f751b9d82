import { describe, expect, it } from 'vitest';
import { type Dice, streamDice } from '../../engine/dice/index.js';
import type { Kernel, MetricSpec } from '../../engine/kernel.js';
import { runWithDice } from '../../sim/run.js';
import { Tally } from '../../statistics/tally.js';

/**
 * runWithDice counts a block of rows at a time (statistics/tally.ts RowBlock): the counts must be
 * exactly those of Tally.add row by row, whatever the number of trials and however they are split
 * between calls, and a value out of range or a metric left unwritten must still fail.
 */

const METRICS: readonly MetricSpec[] = [
  { name: 'constant', kind: 'count', max: 3, description: 'always 2' },
  { name: 'die', kind: 'count', max: 6, description: 'a D6' },
  { name: 'rare', kind: 'flag', max: 1, description: '1 on a six of two dice' },
  { name: 'runs', kind: 'count', max: 9, description: 'changes every 100 trials' },
];

/** A kernel of constant, volatile, rare and slowly changing metrics. */
function sampleKernel(write: (row: Int32Array, values: readonly number[]) => void = (row, values) => row.set(values)): Kernel {
  let trial = 0;
  return {
    ruleset: 'test',
    engineVersion: 'test',
    metrics: METRICS,
    trial: (dice: Dice, row: Int32Array) => {
      const die = dice.d6();
      write(row, [2, die, die === 6 && dice.d6() === 6 ? 1 : 0, Math.floor(trial / 100) % 10]);
      trial++;
    },
  };
}

/** The same trials counted row by row. */
function byRow(kernel: Kernel, trials: number): Tally {
  const tally = new Tally(kernel.metrics);
  const dice = streamDice(5);
  const row = new Int32Array(kernel.metrics.length);
  for (let t = 0; t < trials; t++) {
    kernel.trial(dice, row);
    tally.add(row);
  }
  return tally;
}

describe('runWithDice counts a block of rows at a time', () => {
  it.each([1, 63, 64, 65, 1000, 4097])('%i trials: the same cells as Tally.add row by row', (trials) => {
    const tally = new Tally(METRICS);
    runWithDice(sampleKernel(), streamDice(5), trials, tally);
    const expected = byRow(sampleKernel(), trials);
    expect(tally.trials).toBe(trials);
    expect(Array.from(tally.cells)).toEqual(Array.from(expected.cells));
  });

  it('split between calls (as score-stop does, 64 at a time and a remainder), the same cells', () => {
    const kernel = sampleKernel();
    const dice = streamDice(5);
    const tally = new Tally(METRICS);
    for (const count of [64, 64, 10, 1, 500, 361]) runWithDice(kernel, dice, count, tally);
    expect(Array.from(tally.cells)).toEqual(Array.from(byRow(sampleKernel(), 1000).cells));
  });

  it('a value outside its range throws, naming the metric', () => {
    const kernel = sampleKernel((row, values) => {
      row.set(values);
      if (values[1] === 6) row[3] = 10;
    });
    expect(() => runWithDice(kernel, streamDice(5), 500, new Tally(METRICS))).toThrow(/metric runs = 10 is outside 0\.\.9/);
  });

  it('a metric left unwritten throws instead of counting what an earlier trial left there', () => {
    const kernel = sampleKernel((row, values) => row.set(values.slice(0, 3)));
    expect(() => runWithDice(kernel, streamDice(5), 10, new Tally(METRICS))).toThrow(/metric runs = -1 is outside 0\.\.9/);
  });
});
