import path from 'node:path';
import { percent } from '../documents/format.js';
import type { ScenarioProgress } from '../sim/run-scenario.js';
import type { ShardExecutor } from '../sim/shard-task.js';
import { trialsNeeded } from '../statistics/precision.js';
import { createProgressBar } from './progress.js';

/**
 * The progress bar of one scenario of `crucible run`, moved by the run's progress
 * (sim/run-scenario.ts): trials done of those planned, or under --precision of those the widest
 * interval still seems to need, with who runs the shards where that changes (a queue).
 */
export interface RunProgressBar {
  /** Draw the bar now, before the run reports anything (starting workers takes a moment). */
  begin(trialsPlanned: number): void;
  readonly onProgress: (progress: ScenarioProgress) => void;
  /** Clear it for good (the run ended, failed or is being interrupted). */
  stop(): void;
}

export function runProgressBar(
  stream: NodeJS.WritableStream,
  file: string,
  precision: { readonly target: number; readonly maxTrials: number } | undefined,
  executor: ShardExecutor,
): RunProgressBar {
  const bar = createProgressBar(stream, path.basename(file));
  return {
    begin: (trialsPlanned) => bar.begin({ trialsDone: 0, trialsPlanned }),
    onProgress: ({ trialsDone, trialsPlanned, merged, widest }) => {
      // The run starting (a checkpoint's trials read): the bar as it begins, with no rate yet.
      if (merged === undefined) {
        bar.begin({ trialsDone, trialsPlanned });
        return;
      }
      const who = executor.status === undefined ? '' : ` | ${executor.status()}`;
      if (precision === undefined || widest === undefined) {
        bar.update({ trialsDone, trialsPlanned, note: who });
        return;
      }
      // The bar's 100% under --precision: the trials the widest interval still seems to need.
      const needed = trialsNeeded(trialsDone, widest, precision.target);
      const note = ` | ±${percent(widest, 3)} → ±${percent(precision.target, 3)}${who}`;
      bar.update({ trialsDone, trialsPlanned: Math.min(precision.maxTrials, Math.max(trialsDone, needed)), note });
    },
    stop: () => bar.stop(),
  };
}
