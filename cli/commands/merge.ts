import type { Command } from 'commander';
import { summarize } from '../../statistics/summary.js';
import { mergeParts, partSecret } from '../../sim/part-file.js';
import { SECRET_VARIABLE } from '../../sim/shared-secret.js';
import { formatRunReport, type RunReport, runReportJson } from '../../documents/format.js';
import { EXIT_OK, type Io } from './io.js';

/**
 * `crucible merge part-*.json`: the parts of one run computed apart (`crucible run --shards …
 * --out …`, one per batch job) joined into the run's usual output — byte for byte what `crucible
 * run` prints for the same scenario, seed and trials on one machine.
 */
export async function mergeCommand(
  files: readonly string[],
  options: { readonly json?: boolean },
  io: Io,
  env: NodeJS.ProcessEnv = {},
): Promise<number> {
  const merged = await mergeParts(files, partSecret(env));
  const report: RunReport = {
    ...merged.header,
    method: merged.method,
    seed: merged.seed,
    trials: merged.tally.trials,
    workers: 0,
    metrics: summarize(merged.tally),
  };
  io.stdout(options.json === true ? `${JSON.stringify(runReportJson(report), null, 2)}\n` : formatRunReport(report));
  return EXIT_OK;
}

export function registerMerge(program: Command, io: Io, env: NodeJS.ProcessEnv, setStatus: (status: number) => void): void {
  program
    .command('merge')
    .description("join the part files of one run (crucible run --shards … --out …) and print the run's output")
    .argument('<parts...>', 'part files, in any order; - for standard input')
    .option('--json', 'print the JSON document crucible run --json prints')
    .addHelpText(
      'after',
      `
Every part is checked (its checksum and counts), all must come from one run (the same scenario,
units, rules, seed, trials, method and crucible version), and every shard of the run must be in
exactly one part; a missing, duplicated or foreign part is named, with the command that computes
what is missing.

Trust: the checksum catches damage, not forgery (anyone can recompute it). With ${SECRET_VARIABLE}
set (16 characters or more) when the parts are made and merged, each part carries an HMAC tag only
holders of the secret can make, and a part with a missing or wrong tag is refused.

The output is byte-identical to the same run on one machine. docs/beyond-one-machine.md shows a
Kubernetes Indexed Job and a Slurm job array.

Examples:
  $ crucible run fight.yaml --trials 1e9 --shards 0/100 --out part-000.json     (… up to 99/100)
  $ crucible merge part-*.json`,
    )
    .action(async (files: string[], options: { json?: boolean }) => {
      setStatus(await mergeCommand(files, options, io, env));
    });
}
