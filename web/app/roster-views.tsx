import { useEffect, useRef, useState } from 'preact/hooks';
import type { LoadedRoster } from '../../analysis/roster.js';
import type { ReportPage } from '../../reports/page-model.js';
import { InputError } from '../../sim/errors.js';
import { parseTolerance } from '../../analysis/price-verdict.js';
import { balanceReport, matchupsReport, openRoster } from '../compute/analyses.js';
import { CommitInput, CommitTextArea } from './commit-input.js';
import { problemText } from '../compute/scenario.js';
import { sharedPool as pool } from '../compute/worker-pool.js';
import { readText, writeText } from '../platform/volume.js';
import { ReportSections } from './report-sections.js';
import { bundledRosters } from './scenarios.js';
import type { Setup } from './share.js';
import type { SetupChange } from './use-setup.js';

/**
 * A roster's matchups (every entry against every other, both seatings: the heatmap of expected
 * scores) and its price list (or one entry's price), as `crucible matchups` and `crucible balance`
 * compute them. These are many runs, so they start on request.
 */

type RunState = { readonly kind: 'idle' } | { readonly kind: 'running'; readonly runs: number; readonly total: number } | { readonly kind: 'done'; readonly page: ReportPage; readonly seconds: number } | { readonly kind: 'failed'; readonly lines: readonly string[] };

const PRECISIONS = [0.05, 0.02, 0.01] as const;

function failure(error: unknown): RunState {
  if (error instanceof InputError) return { kind: 'failed', lines: error.problems.map(problemText) };
  return { kind: 'failed', lines: [error instanceof Error ? error.message : String(error)] };
}

/** The roster chosen (or the ruleset's first), its text as edited, and the roster once loaded. */
function useRoster(setup: Setup, update: (change: SetupChange) => void, ruleset: string | undefined) {
  const rosters = ruleset === undefined ? [] : bundledRosters(ruleset);
  const file = setup.roster !== undefined && rosters.some((entry) => entry.file === setup.roster) ? setup.roster : rosters[0]?.file;
  const [text, setText] = useState<string>('');
  // The roster loaded, with the setup it was loaded for: a run starts only on the roster as now
  // edited (a click right after an edit must not run the roster from before it).
  const wanted = `${file ?? ''}\n${setup.rosterFile ?? ''}\n${setup.rosterText ?? ''}`;
  const [opened, setOpened] = useState<{ readonly wanted: string; readonly roster: LoadedRoster } | undefined>(undefined);
  const roster = opened?.wanted === wanted ? opened.roster : undefined;
  const [problems, setProblems] = useState<readonly string[]>([]);
  useEffect(() => {
    if (file === undefined) return;
    let current = true;
    void (async () => {
      // The designer's text belongs to the roster it was edited in (links made before rosterFile: the one chosen): another roster opens as bundled.
      const own = (setup.rosterFile ?? setup.roster ?? file) === file ? setup.rosterText : undefined;
      const shown = own ?? (await readText(file));
      if (!current) return;
      setText(shown);
      writeText(file, shown);
      try {
        const loaded = await openRoster(file);
        if (current) {
          setOpened({ wanted, roster: loaded });
          setProblems([]);
        }
      } catch (error) {
        if (!current) return;
        setOpened(undefined);
        setProblems(error instanceof InputError ? error.problems.map(problemText) : [String(error)]);
      }
    })();
    return () => {
      current = false;
    };
  }, [wanted]);
  const picker = (
    <div class="settings">
      <label class="field-inline" for="roster-choice">
        Roster
        <select id="roster-choice" value={file} onChange={(event) => update({ roster: event.currentTarget.value, rosterText: undefined, rosterFile: undefined, unit: undefined })}>
          {rosters.map((entry) => (
            <option key={entry.file} value={entry.file}>
              {entry.title}
            </option>
          ))}
        </select>
      </label>
      <label class="field-inline" for="precision">
        Each score within ±
        <select id="precision" value={String(setup.precision ?? 0.02)} onChange={(event) => update({ precision: Number(event.currentTarget.value) })}>
          {PRECISIONS.map((precision) => (
            <option key={precision} value={String(precision)}>
              {precision} {precision === 0.01 ? '(as the CLI; slow)' : precision === 0.05 ? '(quick look)' : ''}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
  const editor =
    file === undefined ? null : (
      <details class="roster-editor">
        <summary>The roster's YAML ({file})</summary>
        <label for="roster-yaml" class="sr-only">
          Roster as YAML
        </label>
        <CommitTextArea id="roster-yaml" rows={16} value={text} onCommit={(edited) => update({ rosterText: edited, rosterFile: file })} />
        {problems.length === 0 ? null : (
          <ul class="problems">
            {problems.map((line, index) => (
              <li key={index}>
                <code>{line}</code>
              </li>
            ))}
          </ul>
        )}
      </details>
    );
  return { file, roster, problems, picker, editor, none: rosters.length === 0 };
}

function useRun() {
  const [state, setState] = useState<RunState>({ kind: 'idle' });
  const generation = useRef(0);
  const start = (work: (onRun: (done: number, total: number) => void) => Promise<ReportPage>): void => {
    const mine = ++generation.current;
    const started = performance.now();
    setState({ kind: 'running', runs: 0, total: 0 });
    work((runs, total) => mine === generation.current && setState({ kind: 'running', runs, total })).then(
      (page) => mine === generation.current && setState({ kind: 'done', page, seconds: (performance.now() - started) / 1000 }),
      (error: unknown) => mine === generation.current && setState(failure(error)),
    );
  };
  return { state, start };
}

function RunStatus({ state }: { state: RunState }) {
  const text =
    state.kind === 'running'
      ? `Running: ${state.runs}${state.total > 0 ? ` of ${state.total}` : ''} runs done…`
      : state.kind === 'done'
        ? `Done in ${state.seconds.toFixed(1)} s.`
        : state.kind === 'failed'
          ? 'It could not run:'
          : '';
  return (
    <>
      <p class={`status ${state.kind === 'failed' ? 'problem' : ''}`} role="status" data-state={state.kind}>
        {text}
      </p>
      {state.kind === 'failed' ? (
        <ul class="problems">
          {state.lines.map((line, index) => (
            <li key={index}>
              <code>{line}</code>
            </li>
          ))}
        </ul>
      ) : null}
      {state.kind === 'done' ? <ReportSections page={state.page} /> : null}
    </>
  );
}

export function MatchupsView({ setup, update, ruleset }: { setup: Setup; update: (change: SetupChange) => void; ruleset: string | undefined }) {
  const chosen = useRoster(setup, update, ruleset);
  const { state, start } = useRun();
  if (chosen.none) return <p class="muted">No bundled roster for this rule system.</p>;
  const roster = chosen.roster;
  const seed = setup.seed;
  return (
    <section class="matchups" aria-label="Matchups">
      {chosen.picker}
      <p class="muted">Every entry against every other, in both seatings: the expected score of the row's unit (a win 1, a draw ½), and its wins, draws and losses on hover.</p>
      <button type="button" class="primary" disabled={roster === undefined || state.kind === 'running'} onClick={() => roster !== undefined && start((onRun) => matchupsReport(roster, { executor: pool().session(), precision: setup.precision ?? 0.02, ...(seed === undefined ? {} : { seed }), onRun }))}>
        Run the matchups
      </button>
      {chosen.editor}
      <RunStatus state={state} />
    </section>
  );
}

export function BalanceView({ setup, update, ruleset }: { setup: Setup; update: (change: SetupChange) => void; ruleset: string | undefined }) {
  const chosen = useRoster(setup, update, ruleset);
  const { state, start } = useRun();
  if (chosen.none) return <p class="muted">No bundled roster for this rule system.</p>;
  const roster = chosen.roster;
  const entries = roster?.roster.entries ?? [];
  // No unit (or one no longer in the roster): the whole price list.
  const unit = setup.unit !== undefined && entries.some((entry) => entry.id === setup.unit) ? setup.unit : undefined;
  const whole = roster?.roster.fielded === 'whole';
  const budget = setup.budget ?? 60;
  const seed = setup.seed;
  const toleranceText = setup.tolerance ?? '10%';
  const tolerance = parseTolerance(toleranceText);
  return (
    <section class="balance" aria-label="Balance and cost">
      {chosen.picker}
      <div class="settings">
        <label class="field-inline" for="balance-unit">
          Price
          <select id="balance-unit" value={unit ?? ''} onChange={(event) => update({ unit: event.currentTarget.value === '' ? undefined : event.currentTarget.value })}>
            <option value="">every unit: a price list</option>
            {entries.map((entry) => (
              <option key={entry.id} value={entry.id}>
                {entry.name ?? entry.id}
                {whole ? '' : ' alone, the others as published'}
              </option>
            ))}
          </select>
        </label>
        {whole ? null : (
          <label class="field-inline" for="balance-budget">
            Points a side
            <CommitInput id="balance-budget" value={String(budget)} onCommit={(text) => update({ budget: Math.max(1, Number(text) || 1) })} />
          </label>
        )}
        <label class="field-inline" for="balance-tolerance">
          Tolerance
          <CommitInput id="balance-tolerance" inputMode="text" size={5} value={toleranceText} invalid={tolerance === undefined} onCommit={(text) => update({ tolerance: text })} />
        </label>
      </div>
      {tolerance === undefined ? <p class="status problem">The tolerance is a percentage of the published cost ("10%") or points ("5").</p> : null}
      <p class="muted">
        {whole
          ? 'Each entry fielded whole at its published points, in a round robin over the roster\'s situations: each unit\'s deserved cost read off the list\'s cost line, checked on pairings held out of the fit.'
          : 'Every unit at equal points against every other, over the roster\'s situations: the prices at which each is even with the list, checked by playing them again.'}
      </p>
      <button
        type="button"
        class="primary"
        disabled={roster === undefined || tolerance === undefined || state.kind === 'running'}
        onClick={() => roster !== undefined && tolerance !== undefined && start((onRun) => balanceReport(roster, unit, budget, { executor: pool().session(), precision: setup.precision ?? 0.02, tolerance, ...(seed === undefined ? {} : { seed }), onRun }))}
      >
        {unit === undefined ? 'Make the price list' : 'Price this unit'}
      </button>
      {chosen.editor}
      <RunStatus state={state} />
    </section>
  );
}
