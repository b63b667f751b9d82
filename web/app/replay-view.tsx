import { useEffect, useState } from 'preact/hooks';
import { formatReplay, replayFile } from '../../documents/replay-report.js';
import type { LoadedScenario } from '../../input/scenario-file.js';
import { MAX_REPLAY_TRIAL } from '../../engine/run-limits.js';
import { monteCarloOf } from '../../sim/methods.js';
import { readNumber, trialIndexFromText } from '../../input/number-text.js';
import { CommitInput } from './commit-input.js';
import type { Setup } from './share.js';
import type { SetupChange } from './use-setup.js';

/** One trial of the run replayed event by event, as `crucible replay` prints it. */
export function ReplayView({
  setup,
  update,
  loaded,
}: {
  setup: Setup;
  update: (change: SetupChange) => void;
  loaded: LoadedScenario | undefined;
}) {
  const [text, setText] = useState<string>('');
  const [trialProblem, setTrialProblem] = useState<string | undefined>(undefined);
  const trial = setup.trial ?? 0;
  useEffect(() => {
    if (loaded === undefined) return;
    let current = true;
    const method = monteCarloOf(setup.method);
    replayFile(loaded.file, { trial, method, ...(setup.seed === undefined ? {} : { seed: setup.seed }) }).then(
      (replay) => current && setText(formatReplay(replay)),
      (error: unknown) => current && setText(error instanceof Error ? error.message : String(error)),
    );
    return () => {
      current = false;
    };
  }, [loaded, trial, setup.seed, setup.method]);
  return (
    <section class="replay" aria-label="Replay a trial">
      <div class="settings">
        <label class="field-inline" for="replay-trial">
          Trial (from 0)
          <CommitInput
            id="replay-trial"
            value={String(trial)}
            invalid={trialProblem !== undefined}
            describedBy={trialProblem === undefined ? undefined : 'replay-trial-problem'}
            onCommit={(typed) => {
              const result = readNumber(trialIndexFromText, typed);
              setTrialProblem('problem' in result ? result.problem : undefined);
              if ('value' in result) update({ trial: result.value });
            }}
          />
        </label>
        <button type="button" onClick={() => update({ trial: Math.max(0, trial - 1) })}>
          Previous trial
        </button>
        <button type="button" disabled={trial >= MAX_REPLAY_TRIAL} onClick={() => update({ trial: trial + 1 })}>
          Next trial
        </button>
      </div>
      {trialProblem === undefined ? null : (
        <p id="replay-trial-problem" class="status problem field-problem">
          {trialProblem}
        </p>
      )}
      <p class="muted">
        The same trial of the same run, whatever the number of trials or workers: with the method “every die rolled” it shows every face.
      </p>
      <pre class="event-log" tabIndex={0} aria-label="Event log">
        {loaded === undefined ? 'Waiting for a valid scenario.' : text}
      </pre>
    </section>
  );
}
