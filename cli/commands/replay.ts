import { type Command, Option } from 'commander';
import { formatReplay, type ReplayOptions, replayFile, replayJson } from '../../documents/replay-report.js';
import { DEFAULT_MONTE_CARLO, METHOD_WORDS, MONTE_CARLO_METHODS } from '../../sim/methods.js';

export type { ReplayOptions } from '../../documents/replay-report.js';
import { parseSeed, parseTrialIndex } from './options.js';
import { pluginOption, type Trusting, trustOf } from './plugins.js';

/**
 * `crucible replay <scenario> [--seed S] [--trial T] [--json]`: re-run trial T of the run with seed S
 * on this thread and print it event by event — the tool to see why an outcome happens, or to check
 * a rule against the dice.
 */

export async function replayCommand(file: string, options: ReplayOptions): Promise<string> {
  const replay = await replayFile(file, options);
  return options.json === true ? `${JSON.stringify(replayJson(replay), null, 2)}\n` : formatReplay(replay);
}

export function registerReplay(program: Command): void {
  pluginOption(program.command('replay'))
    .description('re-run one trial of a run and print it event by event: rolls, saves, Wounds, stands lost, retreats, pursuits')
    .argument('<scenario>', 'a scenario file (- for standard input)')
    .addOption(new Option('-s, --seed <seed>', "the run's seed, 0 to 4294967295 (default: the scenario's seed)").argParser(parseSeed))
    .addOption(new Option('-t, --trial <index>', 'which trial of the run, counted from 0 (default: 0)').argParser(parseTrialIndex))
    .option('--json', 'print one JSON document (seed, trial, engine version, events, metrics) instead of text')
    .addOption(
      new Option('--method <method>', `the run's method: mc (${METHOD_WORDS.mc}) or mc-dice (${METHOD_WORDS['mc-dice']})`)
        .choices([...MONTE_CARLO_METHODS])
        .default(DEFAULT_MONTE_CARLO),
    )
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
    .action(async (file: string, options: ReplayOptions & Trusting, command: Command) => {
      const text = await replayCommand(file, { ...options, plugins: trustOf(options) });
      // The program's configured output (main's Io), so the command needs no wiring beyond this call.
      const write = command.configureOutput().writeOut ?? ((out: string) => process.stdout.write(out));
      write(text);
    });
}
