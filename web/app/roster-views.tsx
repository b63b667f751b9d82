import { useEffect, useRef, useState } from 'preact/hooks';
import type { LoadedRoster } from '../../input/roster.js';
import { InputError } from '../../input/errors.js';
import { parseTolerance, toleranceProblem } from '../../analysis/price-verdict.js';
import { budgetFromText, readNumber } from '../../input/number-text.js';
import { balanceReport, matchupsReport, openRoster, type RosterResult } from '../compute/analyses.js';
import type { ShardExecutor } from '../../sim/shard-task.js';
import { download } from './download.js';
import { CommitInput, CommitTextArea } from './commit-input.js';
import { problemText } from '../compute/scenario.js';
import { CancelledError, sharedPool as pool } from '../compute/worker-pool.js';
import { readText, writeText } from '../platform/volume.js';
import { ReportSections } from './report-sections.js';
import { bundledRosters } from './scenarios.js';
import { ROSTER_PRECISIONS, type Setup } from './share.js';
import type { SetupChange } from './use-setup.js';

/**
 * A roster's matchups (every entry against every other, both seatings: the heatmap of expected
 * scores) and its price list (or one entry's price), as `crucible matchups` and `crucible balance`
 * compute them. These are many runs, so they start on request.
 */

type RunState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running'; readonly key: string; readonly runs: number; readonly total: number }
  | { readonly kind: 'done'; readonly key: string; readonly result: RosterResult; readonly seconds: number }
  | { readonly kind: 'stopped'; readonly key: string }
  | { readonly kind: 'failed'; readonly key: string; readonly lines: readonly string[] };

function failure(key: string, error: unknown): RunState {
  if (error instanceof CancelledError) return { kind: 'stopped', key };
  if (error instanceof InputError) return { kind: 'failed', key, lines: error.problems.map(problemText) };
  return { kind: 'failed', key, lines: [error instanceof Error ? error.message : String(error)] };
}

/** The roster chosen (or the ruleset's first), its text as edited, and the roster once loaded. */
function useRoster(setup: Setup, update: (change: SetupChange) => void, ruleset: string | undefined) {
  const rosters = ruleset === undefined ? [] : bundledRosters(ruleset);
  const file = setup.roster !== undefined && rosters.some((entry) => entry.file === setup.roster) ? setup.roster : rosters[0]?.file;
  // The text shown, with the roster file it is of: until the chosen file's text is read, no box is
  // shown (a box shown empty, or with the previous roster's text, was edited before the text came:
  // a click into it keeps its draft, so the loaded text never replaced it).
  const [shownText, setShownText] = useState<{ readonly file: string; readonly text: string } | undefined>(undefined);
  const text = shownText !== undefined && shownText.file === file ? shownText.text : undefined;
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
      setShownText({ file, text: shown });
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
        <select
          id="roster-choice"
          value={file}
          onChange={(event) => update({ roster: event.currentTarget.value, rosterText: undefined, rosterFile: undefined, unit: undefined })}
        >
          {rosters.map((entry) => (
            <option key={entry.file} value={entry.file}>
              {entry.title}
            </option>
          ))}
        </select>
      </label>
      <label class="field-inline" for="precision">
        Each score within ±
        <select
          id="precision"
          value={String(setup.precision ?? 0.02)}
          onChange={(event) => update({ precision: Number(event.currentTarget.value) })}
        >
          {ROSTER_PRECISIONS.map((precision) => (
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
        {text === undefined ? (
          <p class="muted">Reading the roster…</p>
        ) : (
          <CommitTextArea id="roster-yaml" rows={16} value={text} onCommit={(edited) => update({ rosterText: edited, rosterFile: file })} />
        )}
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
  return { file, wanted, roster, problems, picker, editor, none: rosters.length === 0 };
}

/** Results already computed this visit, by the setup they are of: back on a view (or a setup) its result shows at once. */
const computed = new Map<string, { readonly result: RosterResult; readonly seconds: number }>();
const KEPT_RESULTS = 12;
/** A shared link's roster view runs once, on open, as the sharer saw it; later ones wait for a click. */
let linkRunStarted = false;

/**
 * One roster view's run, tagged with the setup it is of (`key`: roster as edited, unit, budget,
 * tolerance, precision, seed). A result of another setup is never shown as current: it is marked
 * as of the setup before the last change, and one of another roster is not shown at all.
 */
function useRun(key: string, sameRoster: (key: string) => boolean) {
  const [state, setState] = useState<RunState>({ kind: 'idle' });
  const generation = useRef(0);
  const session = useRef<ShardExecutor | undefined>(undefined);
  const stop = (): void => {
    generation.current++;
    void session.current?.close(false);
    setState((previous) => (previous.kind === 'running' ? { kind: 'stopped', key: previous.key } : previous));
  };
  // A view left (or the page closed) mid-run stops its run: nothing would show its result.
  useEffect(() => () => void session.current?.close(false), []);
  const start = (work: (executor: ShardExecutor, onRun: (done: number, total: number) => void) => Promise<RosterResult>): void => {
    void session.current?.close(false);
    const mine = ++generation.current;
    const executor = pool().session();
    session.current = executor;
    const started = performance.now();
    const runKey = key;
    setState({ kind: 'running', key: runKey, runs: 0, total: 0 });
    work(executor, (runs, total) => mine === generation.current && setState({ kind: 'running', key: runKey, runs, total })).then(
      (result) => {
        const seconds = (performance.now() - started) / 1000;
        computed.set(runKey, { result, seconds });
        if (computed.size > KEPT_RESULTS) computed.delete(computed.keys().next().value as string);
        if (mine === generation.current) setState({ kind: 'done', key: runKey, result, seconds });
      },
      (error: unknown) => mine === generation.current && setState(failure(runKey, error)),
    );
  };
  const cached = computed.get(key);
  const shown: RunState =
    cached !== undefined && !(state.kind === 'running' && state.key === key)
      ? { kind: 'done', key, ...cached }
      : state.kind !== 'idle' && !sameRoster(state.key)
        ? { kind: 'idle' }
        : state;
  return { state: shown, current: shown.kind === 'idle' || shown.key === key, start, stop };
}

function RunStatus({ state, current, onStop, name }: { state: RunState; current: boolean; onStop: () => void; name: string }) {
  const text =
    state.kind === 'running'
      ? `Running: ${state.runs}${state.total > 0 ? ` of ${state.total}` : ''} runs done…`
      : !current && state.kind !== 'idle'
        ? 'These results are of the setup before your last change: run again to update them.'
        : state.kind === 'done'
          ? `Done in ${state.seconds.toFixed(1)} s.`
          : state.kind === 'stopped'
            ? 'Stopped: nothing was kept. Run again when ready.'
            : state.kind === 'failed'
              ? 'It could not run:'
              : '';
  return (
    <>
      <p
        class={`status ${state.kind === 'failed' ? 'problem' : ''}`}
        role="status"
        data-state={state.kind}
        data-current={current ? 'true' : 'false'}
      >
        {text}
        {state.kind === 'running' ? (
          <>
            {' '}
            <button type="button" class="stop" onClick={onStop}>
              Stop
            </button>
          </>
        ) : null}
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
      {state.kind === 'done' ? (
        <div class={current ? undefined : 'stale'} data-stale={current ? undefined : 'true'}>
          <ReportSections page={state.result.page} />
          <div class="row-actions">
            <button type="button" onClick={() => download(`${state.result.page.slug}.json`, state.result.json, 'application/json')}>
              Results as JSON (as crucible {name} --json)
            </button>
          </div>
        </div>
      ) : null}
    </>
  );
}

/**
 * Runs `start` once, on the roster view a shared link opened, when its roster is ready and only if
 * nothing was changed before then (a designer who went on to another view or setup clicks Run).
 */
function useLinkRun(asLinked: boolean, ready: boolean, idle: boolean, start: () => void): void {
  useEffect(() => {
    if (!asLinked || linkRunStarted || !ready || !idle) return;
    linkRunStarted = true;
    start();
  }, [asLinked, ready, idle]);
}

/** The setup a roster view's result is of: the view and roster file on its first line, then the roster's text as edited and the settings that change numbers. */
const runKeyOf = (wanted: string, settings: readonly unknown[]): string => `${wanted}\u0000${JSON.stringify(settings)}`;
/** Results of another roster file are not shown at all; of the same roster before an edit, marked as such. */
const rosterOfKey = (key: string): string => key.slice(0, key.indexOf('\n'));

interface RosterViewProps {
  readonly setup: Setup;
  readonly update: (change: SetupChange) => void;
  readonly ruleset: string | undefined;
  /** The setup is a shared link's, unchanged since the page opened it: run at once, as the sharer saw it. */
  readonly asLinked: boolean;
}

export function MatchupsView({ setup, update, ruleset, asLinked }: RosterViewProps) {
  const chosen = useRoster(setup, update, ruleset);
  const seed = setup.seed;
  const precision = setup.precision ?? 0.02;
  const key = runKeyOf(`matchups ${chosen.wanted}`, [precision, seed]);
  const { state, current, start, stop } = useRun(key, (other) => rosterOfKey(other) === rosterOfKey(key));
  const roster = chosen.roster;
  const run = (): void => {
    if (roster !== undefined)
      start((executor, onRun) => matchupsReport(roster, { executor, precision, ...(seed === undefined ? {} : { seed }), onRun }));
  };
  useLinkRun(asLinked, roster !== undefined, state.kind === 'idle', run);
  if (chosen.none) return <p class="muted">No bundled roster for this rule system.</p>;
  return (
    <section class="matchups" aria-label="Matchups">
      {chosen.picker}
      <p class="muted">
        Every entry against every other, in both seatings: the expected score of the row's unit (a win 1, a draw ½), and its wins, draws and
        losses on hover.
      </p>
      <button type="button" class="primary" disabled={roster === undefined || state.kind === 'running'} onClick={run}>
        Run the matchups
      </button>
      {chosen.editor}
      <RunStatus state={state} current={current} onStop={stop} name="matchups" />
    </section>
  );
}

export function BalanceView({ setup, update, ruleset, asLinked }: RosterViewProps) {
  const chosen = useRoster(setup, update, ruleset);
  const roster = chosen.roster;
  const entries = roster?.roster.entries ?? [];
  // No unit (or one no longer in the roster): the whole price list.
  const unit = setup.unit !== undefined && entries.some((entry) => entry.id === setup.unit) ? setup.unit : undefined;
  const whole = roster?.roster.fielded === 'whole';
  const budget = setup.budget ?? 60;
  const seed = setup.seed;
  const toleranceText = setup.tolerance ?? '10%';
  const tolerance = parseTolerance(toleranceText);
  const precision = setup.precision ?? 0.02;
  const [budgetProblem, setBudgetProblem] = useState<string | undefined>(undefined);
  const key = runKeyOf(`balance ${chosen.wanted}`, [unit, whole ? undefined : budget, toleranceText, precision, seed]);
  const { state, current, start, stop } = useRun(key, (other) => rosterOfKey(other) === rosterOfKey(key));
  const run = (): void => {
    if (roster !== undefined && tolerance !== undefined)
      start((executor, onRun) =>
        balanceReport(roster, unit, budget, { executor, precision, tolerance, ...(seed === undefined ? {} : { seed }), onRun }),
      );
  };
  useLinkRun(asLinked, roster !== undefined && tolerance !== undefined, state.kind === 'idle', run);
  if (chosen.none) return <p class="muted">No bundled roster for this rule system.</p>;
  return (
    <section class="balance" aria-label="Balance and cost">
      {chosen.picker}
      <div class="settings">
        <label class="field-inline" for="balance-unit">
          Price
          <select
            id="balance-unit"
            value={unit ?? ''}
            onChange={(event) => update({ unit: event.currentTarget.value === '' ? undefined : event.currentTarget.value })}
          >
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
            <CommitInput
              id="balance-budget"
              value={String(budget)}
              invalid={budgetProblem !== undefined}
              describedBy={budgetProblem === undefined ? undefined : 'balance-budget-problem'}
              onCommit={(text) => {
                const result = readNumber(budgetFromText, text);
                setBudgetProblem('problem' in result ? result.problem : undefined);
                if ('value' in result) update({ budget: result.value });
              }}
            />
          </label>
        )}
        <label class="field-inline" for="balance-tolerance">
          Tolerance
          <CommitInput
            id="balance-tolerance"
            inputMode="text"
            size={5}
            value={toleranceText}
            invalid={tolerance === undefined}
            describedBy={tolerance === undefined ? 'balance-tolerance-problem' : undefined}
            onCommit={(text) => update({ tolerance: text })}
          />
        </label>
      </div>
      {budgetProblem === undefined ? null : (
        <p id="balance-budget-problem" class="status problem field-problem">
          {budgetProblem}
        </p>
      )}
      {tolerance === undefined ? (
        <p id="balance-tolerance-problem" class="status problem field-problem">
          {toleranceProblem(toleranceText)}
        </p>
      ) : null}
      <p class="muted">
        {whole
          ? "Each entry fielded whole at its published points, in a round robin over the roster's situations: each unit's deserved cost read off the list's cost line, checked on pairings held out of the fit."
          : "Every unit at equal points against every other, over the roster's situations: the prices at which each is even with the list, checked by playing them again."}
      </p>
      <button
        type="button"
        class="primary"
        disabled={roster === undefined || tolerance === undefined || state.kind === 'running'}
        onClick={run}
      >
        {unit === undefined ? 'Make the price list' : 'Price this unit'}
      </button>
      {chosen.editor}
      <RunStatus state={state} current={current} onStop={stop} name="balance" />
    </section>
  );
}
