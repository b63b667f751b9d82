import { type Command, InvalidArgumentError, Option } from 'commander';
import type { MetricSpec } from '../../engine/kernel.js';
import { compileSpec, kernelSpecOf } from '../../sim/kernel-spec.js';
import { provenanceJson, provenanceLines, provenanceOf, type RulesProvenance } from '../../sim/provenance.js';
import { InputError, ROOT_PATH } from '../../sim/errors.js';
import { MAX_REPLAY_TRIAL, type ReplayedTrial, replayTrial } from '../../sim/replay.js';
import { isUnitsFileName, loadScenarioFile } from '../../sim/scenario-file.js';
import { groupThousands } from '../format.js';
import { parseSeed } from './options.js';

/**
 * `crucible replay <scenario> [--seed S] [--trial T] [--json]`: re-run trial T of the run with seed S
 * on this thread and print it event by event — the tool to see why an outcome happens, or to check
 * a rule against the dice.
 */

export interface ReplayOptions {
  readonly seed?: number;
  readonly trial?: number;
  readonly json?: boolean;
  /** The run's Monte Carlo method: `mc` (outcomes from tables, the default) or `mc-dice`. */
  readonly method?: 'mc' | 'mc-dice';
}

/** Trial numbers as a person types them ("3", "65_536", "1e6"); runs number trials from 0. */
export function parseTrialIndex(text: string): number {
  const trimmed = text.trim();
  const looksNumeric = /^\d+(_\d+)*$/.test(trimmed) || /^\d+(\.\d+)?e\d+$/i.test(trimmed);
  const value = looksNumeric ? Number(trimmed.replaceAll('_', '')) : Number.NaN;
  if (!Number.isSafeInteger(value) || value > MAX_REPLAY_TRIAL) {
    throw new InvalidArgumentError(`The trial must be a whole number from 0 (the first trial) to ${MAX_REPLAY_TRIAL}, got ${JSON.stringify(text)}.`);
  }
  return value;
}

interface Replay {
  readonly file: string;
  readonly scenario: string;
  /** The scenario's mode where its ruleset has one (heroic, Battle Forge). */
  readonly mode?: string;
  readonly ruleset: string;
  readonly scenarioTrials: number;
  readonly engineVersion: string;
  readonly method: 'mc' | 'mc-dice';
  readonly metrics: readonly MetricSpec[];
  readonly replayed: ReplayedTrial<unknown>;
  /** The events as text, one line each. */
  readonly eventLines: readonly string[];
  readonly provenance: RulesProvenance;
}

async function replayFile(file: string, options: ReplayOptions): Promise<Replay> {
  if (isUnitsFileName(file)) throw InputError.at(file, ROOT_PATH, 'this is a units file; replay takes a scenario file (e.g. data/heroic/scenarios/…)');
  const loaded = await loadScenarioFile(file);
  const { scenario, system } = loaded;
  const seed = options.seed ?? scenario.seed;
  const trial = options.trial ?? 0;
  const method = options.method ?? 'mc';
  const kernel = compileSpec(kernelSpecOf(loaded, method === 'mc' ? 'tables' : 'dice'));
  const replayed = replayTrial(kernel, seed, trial);
  const mode = system.mode?.(scenario);
  // A rule system without a trace still replays: the trial's metrics are shown.
  const eventLines = system.formatTrace === undefined ? [`(the ${loaded.ruleset} rule system has no event trace: the trial's metrics follow)`] : system.formatTrace(replayed.events);
  return { file, scenario: scenario.name, scenarioTrials: scenario.trials, method, ...(mode === undefined ? {} : { mode }), ruleset: kernel.ruleset, engineVersion: kernel.engineVersion, metrics: kernel.metrics, replayed, eventLines, provenance: provenanceOf(loaded) };
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
    `  method   ${replay.method === 'mc' ? 'mc (each action\'s total drawn from its table: no faces; --method mc-dice shows them)' : 'mc-dice (every die rolled)'}`,
    `  seed     ${replayed.seed}`,
    `  trial    ${replayed.trial} (trial ${replayed.trialInShard} of shard ${replayed.shard}${beyond})`,
    '',
  ];
  const width = Math.max(...replay.metrics.map((metric) => metric.name.length));
  const metrics = replay.metrics.map((metric, m) => `  ${metric.name.padEnd(width)}  ${metricValue(metric, replayed.row[m] ?? 0)}`);
  return `${[...header, ...replay.eventLines, '', 'metrics', ...metrics].join('\n')}\n`;
}

/** The `--json` document: what the header says, the events, and the metric row by name. */
export function replayJson(replay: Replay): Record<string, unknown> {
  const { replayed } = replay;
  return {
    scenario: replay.scenario,
    file: replay.file,
    ...provenanceJson({ ...replay.provenance, ruleset: replay.ruleset, engineVersion: replay.engineVersion, ...(replay.mode === undefined ? {} : { mode: replay.mode }) }),
    method: replay.method,
    seed: replayed.seed,
    trial: replayed.trial,
    events: replayed.events,
    metrics: Object.fromEntries(replay.metrics.map((metric, m) => [metric.name, replayed.row[m] ?? 0])),
  };
}

export async function replayCommand(file: string, options: ReplayOptions): Promise<string> {
  const replay = await replayFile(file, options);
  return options.json === true ? `${JSON.stringify(replayJson(replay), null, 2)}\n` : formatReplay(replay);
}

export function registerReplay(program: Command): void {
  program
    .command('replay')
    .description('re-run one trial of a run and print it event by event: rolls, saves, Wounds, stands lost, retreats, pursuits')
    .argument('<scenario>', 'a scenario file')
    .addOption(new Option('-s, --seed <seed>', "the run's seed, 0 to 4294967295 (default: the scenario's seed)").argParser(parseSeed))
    .addOption(new Option('-t, --trial <index>', 'which trial of the run, counted from 0 (default: 0)').argParser(parseTrialIndex))
    .option('--json', 'print one JSON document (seed, trial, engine version, events, metrics) instead of text')
    .addOption(new Option('--method <method>', "the run's method: mc (outcomes drawn from tables) or mc-dice (every die rolled)").choices(['mc', 'mc-dice']).default('mc'))
    .addHelpText(
      'after',
      `
Trial T of a run is the same whatever the number of trials or workers: replaying it with the same
scenario, seed, method and engine version shows exactly what that run drew for it, and its metrics.
A run with --method mc (the default) draws each pooled total whole, so its replay shows totals;
replay a --method mc-dice run with --method mc-dice to see every face.

Examples:
  $ crucible replay data/heroic/scenarios/knights-vs-regenerating-ogre.yaml --trial 3
  $ crucible replay data/heroic/scenarios/uldar-splits-dice.yaml --seed 42 --trial 1e6 --json
  $ crucible replay data/warmaster/scenarios/knights-charge-supported-orcs.yaml --trial 7`,
    )
    .action(async (file: string, options: ReplayOptions, command: Command) => {
      const text = await replayCommand(file, options);
      // The program's configured output (main's Io), so the command needs no wiring beyond this call.
      const write = command.configureOutput().writeOut ?? ((out: string) => process.stdout.write(out));
      write(text);
    });
}
