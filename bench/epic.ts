import path from 'node:path';
import { streamDice } from '../engine/dice/index.js';
import { compileSpec, kernelSpecOf } from '../sim/kernel-spec.js';
import { loadScenarioFile } from '../input/scenario-file.js';
import { Tally } from '../statistics/tally.js';

/**
 * Epic four-turn chains per second (issue 6), on this thread: the bundled Space Marine detachment
 * and Ork warband under fire for four turns (two formations, distributions for every input), trial
 * plus tally, per die, after a warm-up; the median of five one-second repetitions.
 */
export async function measureEpic(quick: boolean): Promise<{ chainsPerSecond: number; engineVersion: string }> {
  const loaded = await loadScenarioFile(path.join(import.meta.dirname, '..', 'data/epic/scenarios/marines-vs-orks-under-fire.yaml'));
  // Per die, as this row has always measured (runs now default to tables).
  const kernel = compileSpec(kernelSpecOf(loaded, 'dice'));
  const dice = streamDice(1);
  const row = new Int32Array(kernel.metrics.length);
  const tally = new Tally(kernel.metrics);
  const run = (trials: number) => {
    for (let i = 0; i < trials; i++) {
      kernel.trial(dice, row);
      tally.add(row);
    }
  };
  run(quick ? 100_000 : 500_000);
  const rates: number[] = [];
  for (let repetition = 0; repetition < (quick ? 3 : 5); repetition++) {
    let trials = 0;
    const started = performance.now();
    while (performance.now() - started < (quick ? 300 : 1000)) {
      run(50_000);
      trials += 50_000;
    }
    rates.push(trials / ((performance.now() - started) / 1000));
  }
  rates.sort((a, b) => a - b);
  return { chainsPerSecond: rates[Math.floor(rates.length / 2)] ?? 0, engineVersion: kernel.engineVersion };
}
