import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { parse } from 'yaml';
import type { FieldChoices } from '../../engine/rule-system.js';
import { RULE_SYSTEMS } from '../platform/built-ins.js';
import { type Checked, checkScenario, choicesOf } from '../compute/scenario.js';
import { computeOdds } from '../compute/odds.js';
import { type Method, METHOD_WORDS, METHODS } from '../../sim/methods.js';
import { sharedPool as pool } from '../compute/worker-pool.js';
import { MAX_DATA_FILE_BYTES } from '../../input/data-file.js';
import { readNumber, seedFromText, trialsFromText } from '../../input/number-text.js';
import { isBundled, writeText } from '../platform/volume.js';
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

const VIEW_TITLES: Record<View, string> = {
  odds: 'Odds',
  compare: 'Compare two versions',
  matchups: 'Matchups',
  balance: 'Balance and cost',
  replay: 'Replay a trial',
};
const METHOD_TITLES: Record<Method, string> = {
  auto: `auto: ${METHOD_WORDS.auto}`,
  exact: `exact: ${METHOD_WORDS.exact}`,
  mc: `Monte Carlo, ${METHOD_WORDS.mc}`,
  'mc-dice': `Monte Carlo, ${METHOD_WORDS['mc-dice']}`,
};
/** A run is redone this long after the last keystroke. */
const EDIT_DELAY_MILLISECONDS = 300;

/** The files the designer chose to import: the scenario (the one naming a rule system the page knows) and the files beside it. */
async function importedFiles(
  chosen: readonly File[],
): Promise<{ scenario: { name: string; text: string; ruleset: string }; others: { name: string; text: string }[] } | string> {
  const tooLarge = chosen.find((file) => file.size > MAX_DATA_FILE_BYTES);
  if (tooLarge !== undefined)
    return `${tooLarge.name} is larger than ${MAX_DATA_FILE_BYTES / 1024 / 1024} MB, the most crucible reads from a file: nothing was imported.`;
  const read = await Promise.all(chosen.map(async (file) => ({ name: file.name.replaceAll(/[^\w.-]+/g, '-'), text: await file.text() })));
  const ruleSystemOf = (text: string): string | undefined => {
    try {
      const named = (parse(text) as { ruleset?: unknown } | null)?.ruleset;
      return typeof named === 'string' && RULE_SYSTEMS.some((candidate) => candidate.id === named) ? named : undefined;
    } catch {
      return undefined; // Checked (and the syntax error shown) once it is open.
    }
  };
  const index = Math.max(
    0,
    read.findIndex((file) => ruleSystemOf(file.text) !== undefined),
  );
  const scenario = read[index];
  if (scenario === undefined) return 'No file was chosen.';
  return { scenario: { ...scenario, ruleset: ruleSystemOf(scenario.text) ?? 'heroic' }, others: read.filter((_, i) => i !== index) };
}

/** A run setting typed in its box: empty for the scenario's own, else read as the CLI reads the option. */
function settingFromText(
  read: (text: string) => number,
  text: string,
): { readonly value: number | undefined } | { readonly problem: string } {
  return text.trim() === '' ? { value: undefined } : readNumber(read, text);
}

export function App() {
  const { setup, update, replace, linkProblems, fromLink, asLinked } = useSetup();
  const [settingProblems, setSettingProblems] = useState<{ readonly seed?: string; readonly trials?: string }>({});
  const stopOdds = useRef<(() => void) | undefined>(undefined);
  const [wide, setWide] = useState(false);
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
      // Files imported beside the scenario (its own units file…) go into the volume first; they never shadow a bundled file.
      for (const [file, text] of Object.entries(setup.files ?? {})) if (!isBundled(file)) writeText(file, text);
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
  }, [setup?.file, setup?.text, setup?.files]);

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
    setOdds((previous) =>
      (previous.kind === 'running' || previous.kind === 'done') &&
      previous.update !== undefined &&
      previous.update.report.file === loaded.file
        ? { kind: 'running', run, update: previous.update, stale: true }
        : { kind: 'running', run },
    );
    const settings = {
      method: setup.method,
      ...(setup.seed === undefined ? {} : { seed: setup.seed }),
      ...(setup.trials === undefined ? {} : { trials: setup.trials }),
    };
    const executor = pool().session();
    computeOdds(loaded, settings, executor, controller.signal, (next) => {
      if (!controller.signal.aborted) setOdds(next.done ? { kind: 'done', run, update: next } : { kind: 'running', run, update: next });
    }).catch((error: unknown) => {
      if (!controller.signal.aborted) setOdds({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    });
    const stop = (): void => {
      controller.abort();
      executor.cancelPending?.();
    };
    // Stop keeps the trials merged so far, shown as what they are; a result being redone is not this run's.
    stopOdds.current = () => {
      stop();
      setOdds((previous) =>
        previous.kind === 'running' && previous.update !== undefined && previous.stale !== true
          ? { kind: 'done', run: previous.run, update: previous.update }
          : previous.kind === 'running'
            ? { kind: 'failed', message: 'Stopped before the first results: change a setting or the scenario to run again.' }
            : previous,
      );
    };
    return stop;
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
  // A file the scenario names and the volume lacks (the loader's "… not found: <path>"): an imported scenario's own units or army file.
  const missingFiles = [
    ...new Set(problems.flatMap((problem) => /\bnot found: (?:neither )?([^\s,;]+)/.exec(problem.message)?.[1] ?? [])),
  ].map((file) => file.split('/').at(-1) ?? file);
  const variants = checked?.ok === true ? checked.variants : [];

  const openBundled = async (file: string): Promise<void> => {
    replace(await bundledSetup(file, { view: setup.view, method: setup.method }));
  };
  const importFiles = async (chosen: readonly File[]): Promise<void> => {
    const imported = await importedFiles(chosen);
    if (typeof imported === 'string') return setNotice(imported);
    const { scenario, others } = imported;
    const file = scenarioPathFor(scenario.ruleset, scenario.name);
    const beside = Object.fromEntries(others.map((other) => [scenarioPathFor(scenario.ruleset, other.name), other.text]));
    setNotice(
      others.length === 0 ? undefined : `Imported ${scenario.name} with ${others.map((other) => other.name).join(', ')} beside it.`,
    );
    replace({ view: setup.view, method: setup.method, file, text: scenario.text, ...(others.length === 0 ? {} : { files: beside }) });
  };
  const setSetting = (name: 'seed' | 'trials', text: string): void => {
    const result = settingFromText(name === 'seed' ? seedFromText : trialsFromText, text);
    setSettingProblems((problems) => ({ ...problems, [name]: 'problem' in result ? result.problem : undefined }));
    if ('value' in result) update({ [name]: result.value });
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
        <button
          type="button"
          class="skip"
          onClick={() => {
            const results = document.getElementById('results-pane');
            results?.scrollIntoView({ block: 'start' });
            results?.focus({ preventScroll: true });
          }}
        >
          Skip to the results
        </button>
        <div class="top-actions">
          <label for="scenario-choice" class="sr-only">
            Open a scenario
          </label>
          <select id="scenario-choice" value={setup.file} onChange={(event) => void openBundled(event.currentTarget.value)}>
            {BUNDLED_SCENARIOS.some((group) => group.files.some((entry) => entry.file === setup.file)) ? null : (
              <option value={setup.file}>{fileName} (yours)</option>
            )}
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
          {/* Several files at once: a scenario with the units or army file it names beside it. */}
          <input
            ref={importer}
            type="file"
            multiple
            accept=".yaml,.yml,.json"
            class="sr-only"
            tabIndex={-1}
            aria-hidden="true"
            onChange={(event) => {
              const chosen = [...(event.currentTarget.files ?? [])];
              if (chosen.length > 0) void importFiles(chosen);
              event.currentTarget.value = '';
            }}
          />
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
        {linkProblems.length === 0 ? null : (
          <div class="problem" role="alert">
            {fromLink ? (
              <p>The shared setup is open, but parts of its link could not be used:</p>
            ) : (
              <p>{linkProblems[0]}: the default scenario is open instead.</p>
            )}
            {fromLink ? (
              <ul>
                {linkProblems.map((line, index) => (
                  <li key={index}>{line}</li>
                ))}
              </ul>
            ) : null}
          </div>
        )}
      </header>
      <main class={`panes${wide ? ' wide' : ''}`}>
        <section class="setup-pane" aria-labelledby="setup-heading">
          <h2 id="setup-heading">{loaded?.scenario.name ?? fileName}</h2>
          <p class="muted file-path">
            {setup.file}
            {system === undefined ? '' : ` · ${system.id}: ${system.title}`}
          </p>
          {missingFiles.length === 0 ? null : (
            <p class="status problem" role="alert">
              This scenario names {missingFiles.length === 1 ? 'a file' : 'files'} the workbench does not have ({missingFiles.join(', ')}):
              import {missingFiles.length === 1 ? 'it' : 'them'} together with the scenario — choose all the files at once in Import YAML —
              and the link will carry them.
            </p>
          )}
          <ScenarioEditor
            label="Scenario"
            idPrefix="a"
            text={setup.text}
            onText={(text) => update({ text })}
            system={system}
            problems={problems}
            choices={choices}
          />
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
            {/* A price list or a 24-column matrix needs the whole window: the scenario's pane folds away meanwhile. */}
            <button type="button" class="wide-toggle" aria-pressed={wide} onClick={() => setWide(!wide)}>
              Results full width
            </button>
          </nav>
          <div class="settings">
            {/* Roster views run each pairing to a precision, by the default method: neither setting applies. */}
            {setup.view === 'matchups' || setup.view === 'balance' ? null : (
              <label class="field-inline" for="method">
                Method
                <select id="method" value={setup.method} onChange={(event) => update({ method: event.currentTarget.value as Method })}>
                  {METHODS.map((method) => (
                    <option key={method} value={method}>
                      {METHOD_TITLES[method]}
                    </option>
                  ))}
                </select>
              </label>
            )}
            {/* The scenario's own seed and trials are the defaults (the form leaves them to these boxes, as crucible run --seed/--trials override them). */}
            <label class="field-inline" for="seed">
              Seed
              <CommitInput
                id="seed"
                placeholder={loaded === undefined ? '' : `${loaded.scenario.seed} (the scenario's)`}
                value={setup.seed === undefined ? '' : String(setup.seed)}
                invalid={settingProblems.seed !== undefined}
                describedBy={settingProblems.seed === undefined ? undefined : 'seed-problem'}
                onCommit={(text) => setSetting('seed', text)}
              />
            </label>
            {setup.view === 'odds' || setup.view === 'compare' ? (
              <label class="field-inline" for="trials">
                Trials
                <CommitInput
                  id="trials"
                  placeholder={loaded === undefined ? '' : `${loaded.scenario.trials} (the scenario's)`}
                  value={setup.trials === undefined ? '' : String(setup.trials)}
                  invalid={settingProblems.trials !== undefined}
                  describedBy={settingProblems.trials === undefined ? undefined : 'trials-problem'}
                  onCommit={(text) => setSetting('trials', text)}
                />
              </label>
            ) : null}
            {setup.view === 'odds' && odds.kind === 'running' ? (
              <button type="button" class="stop" onClick={() => stopOdds.current?.()}>
                Stop
              </button>
            ) : null}
          </div>
          {(['seed', 'trials'] as const).map((name) =>
            settingProblems[name] === undefined ? null : (
              <p key={name} id={`${name}-problem`} class="status problem field-problem">
                {settingProblems[name]}
              </p>
            ),
          )}
          {setup.view === 'odds' ? <OddsView state={odds} metric={setup.metric} onMetric={(metric) => update({ metric })} /> : null}
          {setup.view === 'compare' ? (
            <CompareView setup={setup} update={update} loaded={loaded} variants={variants} choices={choices} />
          ) : null}
          {setup.view === 'matchups' ? <MatchupsView setup={setup} update={update} ruleset={system?.id} asLinked={asLinked} /> : null}
          {setup.view === 'balance' ? <BalanceView setup={setup} update={update} ruleset={system?.id} asLinked={asLinked} /> : null}
          {setup.view === 'replay' ? <ReplayView setup={setup} update={update} loaded={loaded} /> : null}
        </section>
      </main>
    </div>
  );
}
