import { useEffect, useRef, useState } from 'preact/hooks';
import type { FieldChoices } from '../../engine/rule-system.js';
import type { ReportPage } from '../../reports/page-model.js';
import type { Problem } from '../../input/errors.js';
import type { LoadedScenario } from '../../input/scenario-file.js';
import { monteCarloOf } from '../../sim/methods.js';
import type { CompareReply, CompareRequest } from '../compute/compare-worker.js';
import { checkScenario, problemText } from '../compute/scenario.js';
import { variantSet } from './changes.js';
import { ScenarioEditor } from './editor.js';
import { ReportSections } from './report-sections.js';
import type { Setup } from './share.js';
import type { SetupChange } from './use-setup.js';
import { dataOf, withVariant } from './yaml-text.js';

/**
 * Two versions side by side, as `crucible compare`: the scenario as written against a variant the
 * file declares, or against an edited copy (expressed as a variant of the file, the CLI's format),
 * both on the same dice trial by trial; the difference of every outcome with its 95% interval.
 */

// The copy's name as a variant of the file: a variant name is an id (input/scenario-patch.ts), so no space.
const EDITED = 'edited-copy';
/** Each state names the setup it is of (`key`): a result of another one is never shown as current. */
type CompareState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running'; readonly key: string; readonly done?: number; readonly planned?: number }
  | { readonly kind: 'done'; readonly key: string; readonly page: ReportPage }
  | { readonly kind: 'stopped'; readonly key: string }
  | { readonly kind: 'failed'; readonly key: string; readonly message: string; readonly problems?: readonly Problem[] };

export function CompareView({
  setup,
  update,
  loaded,
  variants,
  choices,
}: {
  setup: Setup;
  update: (change: SetupChange) => void;
  loaded: LoadedScenario | undefined;
  variants: readonly string[];
  choices: FieldChoices;
}) {
  const against = setup.variant ?? (variants[0] === undefined ? EDITED : variants[0]);
  const copyText = setup.against ?? setup.text;
  const [copyProblems, setCopyProblems] = useState<readonly Problem[]>([]);
  const [state, setState] = useState<CompareState>({ kind: 'idle' });
  const key = JSON.stringify([setup.file, setup.text, against, against === EDITED ? copyText : '', setup.method, setup.seed, setup.trials]);
  const stopRun = useRef<(() => void) | undefined>(undefined);

  useEffect(() => {
    if (loaded === undefined) return undefined;
    let worker: Worker | undefined;
    let cancelled = false;
    const timer = setTimeout(() => {
      void (async () => {
        let text = setup.text;
        if (against === EDITED) {
          // The copy is checked on its own first: its problems name its own fields.
          const copyFile = setup.file.replace(/(\.[a-z]+)$/, '.copy$1');
          const copy = await checkScenario(copyFile, copyText);
          if (cancelled) return;
          setCopyProblems(copy.ok ? [] : copy.problems);
          if (!copy.ok) {
            setState({ kind: 'idle' });
            return;
          }
          const set = variantSet(dataOf(setup.text).data, dataOf(copyText).data);
          if (Object.keys(set).length === 0) {
            setState({ kind: 'failed', key, message: 'The copy is the same as the scenario: change something in it (below) to compare.' });
            return;
          }
          text = withVariant(setup.text, EDITED, set);
        }
        worker = new Worker(new URL('../compute/compare-worker.ts', import.meta.url), { type: 'module', name: 'crucible compare' });
        setState({ kind: 'running', key });
        stopRun.current = () => {
          worker?.terminate();
          setState({ kind: 'stopped', key });
        };
        worker.onmessage = (event: MessageEvent<CompareReply>) => {
          const reply = event.data;
          if (reply.kind === 'progress') setState({ kind: 'running', key, done: reply.done, planned: reply.planned });
          else if (reply.kind === 'done') setState({ kind: 'done', key, page: reply.page });
          else if (reply.kind === 'problems')
            setState({ kind: 'failed', key, message: 'The comparison could not start:', problems: reply.problems });
          else setState({ kind: 'failed', key, message: reply.message });
          if (reply.kind !== 'progress') worker?.terminate();
        };
        const method = monteCarloOf(setup.method);
        const request: CompareRequest = {
          files: [[setup.file, text]],
          file: setup.file,
          variant: against,
          method,
          ...(setup.seed === undefined ? {} : { seed: setup.seed }),
          ...(setup.trials === undefined ? {} : { trials: setup.trials }),
        };
        worker.postMessage(request);
      })();
    }, 300);
    return () => {
      cancelled = true;
      clearTimeout(timer);
      worker?.terminate();
    };
  }, [loaded, against, copyText, setup.method, setup.seed, setup.trials]);

  // Of another scenario: not shown; of this one before the last change: shown dimmed, as being redone.
  const sameScenario = state.kind !== 'idle' && (JSON.parse(state.key) as unknown[])[0] === setup.file;
  const current = state.kind !== 'idle' && state.key === key;
  const shown: CompareState = state.kind === 'idle' || sameScenario ? state : { kind: 'idle' };
  const statusText =
    shown.kind === 'idle'
      ? ''
      : !current
        ? 'Comparing again for your change…'
        : shown.kind === 'running'
          ? shown.planned === undefined
            ? 'Comparing…'
            : `Comparing: ${shown.done?.toLocaleString('en')} of ${shown.planned.toLocaleString('en')} trials…`
          : shown.kind === 'failed'
            ? shown.message
            : shown.kind === 'stopped'
              ? 'Stopped: nothing was kept. Change a setting or the copy to compare again.'
              : 'Compared on the same dice, trial by trial.';

  return (
    <section class="compare" aria-label="Compare two versions">
      <label class="field-inline" for="compare-against">
        Compare the scenario with
        <select id="compare-against" value={against} onChange={(event) => update({ variant: event.currentTarget.value })}>
          {variants.map((name) => (
            <option key={name} value={name}>
              its variant “{name}”
            </option>
          ))}
          <option value={EDITED}>an edited copy (change it below)</option>
        </select>
      </label>
      {setup.method === 'auto' || setup.method === 'exact' ? (
        <p class="muted">
          Compared by Monte Carlo on common dice (outcomes drawn from exact tables): pairing trial by trial is what makes small differences
          visible.
        </p>
      ) : null}
      <p class={`status ${shown.kind === 'failed' && current ? 'problem' : ''}`} role="status" data-state={current ? shown.kind : 'stale'}>
        {statusText}
        {shown.kind === 'running' && current ? (
          <>
            {' '}
            <button type="button" class="stop" onClick={() => stopRun.current?.()}>
              Stop
            </button>
          </>
        ) : null}
      </p>
      {shown.kind === 'failed' && current && shown.problems !== undefined ? (
        <ul class="problems">
          {shown.problems.map((problem, index) => (
            <li key={index}>
              <code>{problemText(problem)}</code>
            </li>
          ))}
        </ul>
      ) : null}
      {shown.kind === 'done' ? (
        <div class={current ? undefined : 'stale'} data-stale={current ? undefined : 'true'}>
          <ReportSections page={shown.page} />
        </div>
      ) : null}
      {against === EDITED ? (
        <details open class="copy-editor">
          <summary>The edited copy</summary>
          <ScenarioEditor
            label="Edited copy"
            idPrefix="b"
            distinctName
            text={copyText}
            onText={(text) => update({ against: text })}
            system={loaded?.system}
            problems={copyProblems}
            choices={choices}
          />
        </details>
      ) : null}
    </section>
  );
}
