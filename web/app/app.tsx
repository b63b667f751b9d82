import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { parse } from 'yaml';
import type { FieldChoices } from '../../engine/rule-system.js';
import { RULE_SYSTEMS } from '../../engine/rulesets.js';
import { type Checked, checkScenario, choicesOf } from '../compute/scenario.js';
import { computeOdds, ODDS_METHODS, type OddsMethod } from '../compute/odds.js';
import { sharedPool as pool } from '../compute/worker-pool.js';
import { CommitInput } from './commit-input.js';
import { CompareView } from './compare-view.js';
import { download } from './download.js';
import { ScenarioEditor } from './editor.js';
import { OddsView, type OddsState } from './odds-view.js';
import { ReplayView } from './replay-view.js';
import { BalanceView, MatchupsView } from './roster-views.js';
import { BUNDLED_SCENARIOS, scenarioPathFor } from './scenarios.js';
import { encodeSetup, type View, VIEWS } from './share.js';
import { bundledSetup, useSetup } from './use-setup.js';

/**
 * The workbench: pick or write a scenario, edit it, and read its odds, a comparison, a roster's
 * matchups and balance, or one trial's events — every number computed in this page by the CLI's
 * own modules, on Web Workers.
 */

const VIEW_TITLES: Record<View, string> = { odds: 'Odds', compare: 'Compare two versions', matchups: 'Matchups', balance: 'Balance and cost', replay: 'Replay a trial' };
const METHOD_TITLES: Record<OddsMethod, string> = { auto: 'auto: exact when a trial is one action, else Monte Carlo', exact: 'exact: every outcome enumerated', mc: 'Monte Carlo, outcomes drawn from exact tables', 'mc-dice': 'Monte Carlo, every die rolled' };
/** A run is redone this long after the last keystroke. */
const EDIT_DELAY_MILLISECONDS = 300;

function numberOrUndefined(text: string): number | undefined {
  const value = Number(text.replaceAll(/[_,\s]/g, ''));
  return text.trim() === '' || !Number.isSafeInteger(value) || value < 0 ? undefined : value;
}

export function App() {
  const { setup, update, replace, linkProblem } = useSetup();
  const [checked, setChecked] = useState<Checked | undefined>(undefined);
  const [choices, setChoices] = useState<FieldChoices>({});
  const [odds, setOdds] = useState<OddsState>({ kind: 'idle' });
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const importer = useRef<HTMLInputElement>(null);
  const runs = useRef(0);

  // The workers load their code while the page checks the first scenario.
  useEffect(() => void pool(), []);
  // Check the scenario a moment after each edit (the CLI's loader, on the workbench's volume); a
  // scenario just opened at once, so no view shows the last one's rule system beside the new file.
  const lastChecked = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (setup === undefined) return undefined;
    let current = true;
    const delay = lastChecked.current === setup.file ? EDIT_DELAY_MILLISECONDS : 0;
    lastChecked.current = setup.file;
    const timer = setTimeout(() => {
      void checkScenario(setup.file, setup.text).then(async (result) => {
        if (!current) return;
        setChecked(result);
        if (result.ok) {
          const found = await choicesOf(result.loaded);
          if (current) setChoices(found);
        }
      });
    }, delay);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [setup?.file, setup?.text]);

  // The odds: cancelled and started again on every change.
  const loaded = checked?.ok === true ? checked.loaded : undefined;
  useEffect(() => {
    if (setup?.view !== 'odds' || loaded === undefined) {
      if (checked?.ok === false) setOdds({ kind: 'idle' });
      return undefined;
    }
    const controller = new AbortController();
    const run = ++runs.current;
    // The last result stays on screen, marked as being redone, until the first new one arrives.
    // Another scenario's numbers would mislead: only the same file's are kept (dimmed) while it is redone.
    setOdds((previous) => ((previous.kind === 'running' || previous.kind === 'done') && previous.update !== undefined && previous.update.report.file === loaded.file ? { kind: 'running', run, update: previous.update, stale: true } : { kind: 'running', run }));
    const settings = { method: setup.method, ...(setup.seed === undefined ? {} : { seed: setup.seed }), ...(setup.trials === undefined ? {} : { trials: setup.trials }) };
    const executor = pool().session();
    computeOdds(loaded, settings, executor, controller.signal, (next) => {
      if (!controller.signal.aborted) setOdds(next.done ? { kind: 'done', run, update: next } : { kind: 'running', run, update: next });
    }).catch((error: unknown) => {
      if (!controller.signal.aborted) setOdds({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    });
    return () => {
      controller.abort();
      executor.cancelPending?.();
    };
  }, [loaded, setup?.view, setup?.method, setup?.seed, setup?.trials]);

  const system = useMemo(() => {
    if (setup === undefined) return undefined;
    if (loaded !== undefined) return loaded.system;
    try {
      const ruleset = (parse(setup.text) as { ruleset?: unknown } | null)?.ruleset;
      return RULE_SYSTEMS.find((candidate) => candidate.id === ruleset);
    } catch {
      return undefined;
    }
  }, [setup?.text, loaded]);

  if (setup === undefined) return <p class="loading">Loading the workbench…</p>;

  const problems = checked?.ok === false ? checked.problems : [];
  const variants = checked?.ok === true ? checked.variants : [];

  const openBundled = async (file: string): Promise<void> => {
    replace(await bundledSetup(file, { view: setup.view, method: setup.method }));
  };
  const importFile = async (file: File): Promise<void> => {
    const text = await file.text();
    let ruleset = 'heroic';
    try {
      const named = (parse(text) as { ruleset?: unknown } | null)?.ruleset;
      if (typeof named === 'string' && RULE_SYSTEMS.some((candidate) => candidate.id === named)) ruleset = named;
    } catch {
      // Checked (and the syntax error shown) once it is open.
    }
    replace({ view: setup.view, method: setup.method, file: scenarioPathFor(ruleset, file.name.replaceAll(/[^\w.-]+/g, '-')), text });
  };
  const copyLink = async (): Promise<void> => {
    const link = `${location.origin}${location.pathname}${await encodeSetup(setup)}`;
    history.replaceState(null, '', link);
    try {
      await navigator.clipboard.writeText(link);
      setNotice('Link copied: it opens this scenario, its settings and this view.');
    } catch {
      setNotice('The link is in the address bar: copy it from there.');
    }
  };
  const fileName = setup.file.split('/').at(-1) ?? 'scenario.yaml';

  return (
    <div class="workbench">
      <header class="top">
        <h1>crucible workbench</h1>
        {/* A button, not a #link: the address's fragment holds the setup. */}
        <button type="button" class="skip" onClick={() => {
            const results = document.getElementById('results-pane');
            results?.scrollIntoView({ block: 'start' });
            results?.focus({ preventScroll: true });
          }}>
          Skip to the results
        </button>
        <div class="top-actions">
          <label for="scenario-choice" class="sr-only">
            Open a scenario
          </label>
          <select id="scenario-choice" value={setup.file} onChange={(event) => void openBundled(event.currentTarget.value)}>
            {BUNDLED_SCENARIOS.some((group) => group.files.some((entry) => entry.file === setup.file)) ? null : <option value={setup.file}>{fileName} (yours)</option>}
            {BUNDLED_SCENARIOS.map((group) => (
              <optgroup key={group.ruleset} label={`${group.ruleset}: ${group.title}`}>
                {group.files.map((entry) => (
                  <option key={entry.file} value={entry.file}>
                    {entry.title}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
          <button type="button" onClick={() => importer.current?.click()}>
            Import YAML
          </button>
          <input ref={importer} type="file" accept=".yaml,.yml,.json" class="sr-only" tabIndex={-1} aria-hidden="true" onChange={(event) => {
            const chosen = event.currentTarget.files?.[0];
            if (chosen !== undefined) void importFile(chosen);
            event.currentTarget.value = '';
          }} />
          <button type="button" onClick={() => download(fileName, setup.text, 'application/yaml')}>
            Export YAML
          </button>
          <button type="button" onClick={() => void copyLink()}>
            Copy link
          </button>
        </div>
        {notice === undefined ? null : (
          <p class="notice" role="status">
            {notice}
          </p>
        )}
        {linkProblem === undefined ? null : (
          <p class="problem" role="alert">
            {linkProblem}: the default scenario is open instead.
          </p>
        )}
      </header>
      <main class="panes">
        <section class="setup-pane" aria-labelledby="setup-heading">
          <h2 id="setup-heading">{loaded?.scenario.name ?? fileName}</h2>
          <p class="muted file-path">
            {setup.file}
            {system === undefined ? '' : ` · ${system.id}: ${system.title}`}
          </p>
          <ScenarioEditor label="Scenario" idPrefix="a" text={setup.text} onText={(text) => update({ text })} system={system} problems={problems} choices={choices} />
        </section>
        <section class="results-pane" id="results-pane" tabIndex={-1} aria-labelledby="results-heading">
          <h2 id="results-heading" class="sr-only">
            Results
          </h2>
          <nav class="views" aria-label="Views">
            {VIEWS.map((view) => (
              <button key={view} type="button" aria-pressed={setup.view === view} onClick={() => update({ view })}>
                {VIEW_TITLES[view]}
              </button>
            ))}
          </nav>
          <div class="settings">
            {/* Roster views run each pairing to a precision, by the default method: neither setting applies. */}
            {setup.view === 'matchups' || setup.view === 'balance' ? null : (
              <label class="field-inline" for="method">
                Method
                <select id="method" value={setup.method} onChange={(event) => update({ method: event.currentTarget.value as OddsMethod })}>
                  {ODDS_METHODS.map((method) => (
                    <option key={method} value={method}>
                      {METHOD_TITLES[method]}
                    </option>
                  ))}
                </select>
              </label>
            )}
            <label class="field-inline" for="seed">
              Seed of this run
              <CommitInput id="seed" placeholder={String(loaded?.scenario.seed ?? '')} value={setup.seed === undefined ? '' : String(setup.seed)} onCommit={(text) => update({ seed: numberOrUndefined(text) })} />
            </label>
            {setup.view === 'odds' || setup.view === 'compare' ? (
              <label class="field-inline" for="trials">
                Trials of this run
                <CommitInput id="trials" placeholder={String(loaded?.scenario.trials ?? '')} value={setup.trials === undefined ? '' : String(setup.trials)} onCommit={(text) => update({ trials: numberOrUndefined(text) || undefined })} />
              </label>
            ) : null}
          </div>
          {setup.view === 'odds' ? <OddsView state={odds} metric={setup.metric} onMetric={(metric) => update({ metric })} /> : null}
          {setup.view === 'compare' ? <CompareView setup={setup} update={update} loaded={loaded} variants={variants} choices={choices} /> : null}
          {setup.view === 'matchups' ? <MatchupsView setup={setup} update={update} ruleset={system?.id} /> : null}
          {setup.view === 'balance' ? <BalanceView setup={setup} update={update} ruleset={system?.id} /> : null}
          {setup.view === 'replay' ? <ReplayView setup={setup} update={update} loaded={loaded} /> : null}
        </section>
      </main>
    </div>
  );
}
