import { metricTitle } from '../input/field-labels.js';
import type { MetricSpec } from '../engine/kernel.js';
import { InputError, ROOT_PATH } from '../input/errors.js';
import { compileSpec, kernelSpecOf } from '../sim/kernel-spec.js';
import { DEFAULT_MONTE_CARLO, drawMethodOf, type MonteCarloMethod } from '../sim/methods.js';
import { provenanceJson, provenanceLines, provenanceOf, type RulesProvenance } from '../input/provenance.js';
import type { ReplayedTrial } from '../sim/replay.js';
import { replayTrial } from '../sim/replay.js';
import type { TrustedPlugins } from '../input/platform.js';
import { loadScenarioFile } from '../input/scenario-file.js';
import { dataFileNamed } from '../input/data-file-kinds.js';
import { groupThousands } from '../input/thousands.js';

/**
 * One trial of a run replayed event by event (`crucible replay`), as data, text and JSON. Free of
 * Node, so the workbench's replay view prints the same lines.
 */

export interface ReplayOptions {
  readonly seed?: number;
  readonly trial?: number;
  readonly json?: boolean;
  /** The run's Monte Carlo method: `mc` (outcomes from tables, the default) or `mc-dice`. */
  readonly method?: MonteCarloMethod;
  /** The plugin modules the scenario may run (input/plugin-trust.ts); none when not given. */
  readonly plugins?: TrustedPlugins | undefined;
}

export interface Replay {
  readonly file: string;
  readonly scenario: string;
  /** The scenario's mode where its rule system has one (heroic, Battle Forge). */
  readonly mode?: string;
  readonly ruleset: string;
  readonly scenarioTrials: number;
  readonly engineVersion: string;
  readonly method: MonteCarloMethod;
  readonly metrics: readonly MetricSpec[];
  readonly replayed: ReplayedTrial<unknown>;
  /** The events as text, one line each. */
  readonly eventLines: readonly string[];
  readonly provenance: RulesProvenance;
}

export async function replayFile(file: string, options: ReplayOptions): Promise<Replay> {
  const dataFile = await dataFileNamed(file, 'replay takes a scenario file (e.g. data/heroic/scenarios/…)');
  if (dataFile !== undefined) throw InputError.at(file, ROOT_PATH, dataFile);
  const loaded = await loadScenarioFile(file, { plugins: options.plugins });
  const { scenario, system } = loaded;
  const seed = options.seed ?? scenario.seed;
  const trial = options.trial ?? 0;
  const method = options.method ?? DEFAULT_MONTE_CARLO;
  const kernel = compileSpec(kernelSpecOf(loaded, drawMethodOf(method)));
  const replayed = replayTrial(kernel, seed, trial);
  const mode = system.mode?.(scenario);
  // A rule system without a trace still replays: the trial's metrics are shown.
  const eventLines =
    system.formatTrace === undefined
      ? [`(the ${loaded.system.id} rule system has no event trace: the trial's metrics follow)`]
      : system.formatTrace(replayed.events);
  return {
    file,
    scenario: scenario.name,
    scenarioTrials: scenario.trials,
    method,
    ...(mode === undefined ? {} : { mode }),
    ruleset: kernel.ruleset,
    engineVersion: kernel.engineVersion,
    metrics: kernel.metrics,
    replayed,
    eventLines,
    provenance: provenanceOf(loaded),
  };
}

/** A metric's value as text: the label of a category or flag, else the number. */
function metricValue(metric: MetricSpec, value: number): string {
  const label = metric.labels?.[value];
  return label === undefined ? String(value) : metric.kind === 'category' ? `${label} (${value})` : label;
}

export function formatReplay(replay: Replay): string {
  const { replayed } = replay;
  const beyond = replayed.trial >= replay.scenarioTrials ? `; beyond the scenario's ${groupThousands(replay.scenarioTrials)} trials` : '';
  const header = [
    `${replay.scenario} — replay of one trial`,
    `  file     ${replay.file}`,
    `  ruleset  ${replay.ruleset} (engine ${replay.engineVersion})${replay.mode === undefined ? '' : `, mode ${replay.mode}`}`,
    ...provenanceLines(replay.provenance, '  '),
    `  method   ${replay.method === 'mc' ? "mc (each action's total drawn from its table: no faces; --method mc-dice shows them)" : 'mc-dice (every die rolled)'}`,
    `  seed     ${replayed.seed}`,
    `  trial    ${replayed.trial} (trial ${replayed.trialInShard} of shard ${replayed.shard}${beyond})`,
    '',
  ];
  // Each metric by its title, as every other output names it; its name (what --metric and --json use) after the value.
  const titles = replay.metrics.map(metricTitle);
  const values = replay.metrics.map((metric, m) => metricValue(metric, replayed.row[m] ?? 0));
  const valueWidth = Math.max(...values.map((value) => value.length));
  const metrics = replay.metrics.map((metric, m) => `  ${(values[m] ?? '').padEnd(valueWidth)}  ${titles[m] ?? ''}  [${metric.name}]`);
  return `${[...header, ...replay.eventLines, '', 'metrics [their names for --metric and --json]', ...metrics].join('\n')}\n`;
}

/** The `--json` document: what the header says, the events, and the metric row by name. */
export function replayJson(replay: Replay): Record<string, unknown> {
  const { replayed } = replay;
  return {
    scenario: replay.scenario,
    file: replay.file,
    ...provenanceJson({
      ...replay.provenance,
      ruleset: replay.ruleset,
      engineVersion: replay.engineVersion,
      ...(replay.mode === undefined ? {} : { mode: replay.mode }),
    }),
    method: replay.method,
    seed: replayed.seed,
    trial: replayed.trial,
    events: replayed.events,
    metrics: Object.fromEntries(replay.metrics.map((metric, m) => [metric.name, replayed.row[m] ?? 0])),
  };
}
