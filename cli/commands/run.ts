import { availableParallelism } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { InputError, type Problem, ROOT_PATH } from '../../input/errors.js';
import { InProcessExecutor } from '../../sim/in-process-executor.js';
import { parseShardSelection, partFileText, partSecret, selectedShards, type ShardSelection, writePartFile } from '../../sim/part-file.js';
import { provenanceJson, provenanceOf } from '../../input/provenance.js';
import { SHARD_TRIALS } from '../../sim/run.js';
import { shardCount } from '../../sim/shards.js';
import { findScenarioFiles, type LoadedScenario, loadScenarioChanged, loadScenarioFile } from '../../input/scenario-file.js';
import { parseCommandLineValue } from '../../input/scenario-patch.js';
import { dataFileNamed } from '../../input/data-file-kinds.js';
import { queueUrlProblem } from '../../queue/queue-url.js';
import { sharedSecret } from '../../sim/shared-secret.js';
import type { ShardExecutor } from '../../sim/shard-task.js';
import { formatRunReport, type RunReport, runReportJson } from '../../documents/format.js';
import { groupThousands } from '../../input/thousands.js';
import { listenForInterrupts } from '../interrupts.js';
import { exactReport, monteCarloReport } from '../../documents/run-report.js';
import { DEFAULT_MAX_TRIALS } from '../../engine/run-limits.js';
import { exactBudgetFor, type Method, METHOD_WORDS, METHODS } from '../../sim/methods.js';
import { asksForSampling, runScenario, type ScenarioAnswer, type ScenarioRunOptions, TooManyPathsError } from '../../sim/run-scenario.js';
import { ShardFailedError } from '../../sim/sharded-run.js';
import { checkpointFile } from '../../sim/checkpoint.js';
import { firstTrialOf, trialsInShard } from '../../sim/shards.js';
import { runProgressBar } from '../run-progress.js';
import { runPrintout } from '../../documents/run-tables.js';
import { TABLE_FORMATS, type TableFormat } from '../../documents/table-formats.js';
import { EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_OK, EXIT_TERMINATED, EXIT_UNEXPECTED, type Io, STDOUT } from './io.js';
import { parsePrecision, parseSeed, parseTestFault, parseTrials, parseWorkers } from './options.js';
import { localPool } from './local-pool.js';
import { pluginOption, type Trusting, trustOf } from './plugins.js';
import { needing, QUEUE_PACKAGES } from '../optional-packages.js';
import { BUILT_INS_ONLY, type TrustedPlugins } from '../../input/plugin-trust.js';

export interface RunOptions {
  readonly trials?: number;
  readonly seed?: number;
  readonly workers?: number;
  readonly precision?: number;
  readonly maxTrials?: number;
  readonly checkpoint?: string;
  readonly json?: boolean;
  readonly quiet?: boolean;
  readonly method?: Method;
  /** `--set path=value`: fields changed in every scenario before it is checked (a stat, a rule knob). */
  readonly set?: readonly (readonly [string, unknown])[];
  /** `--shards A-B` or `i/n` with `--out part.json`: compute part of the run, for `crucible merge`. */
  readonly shards?: ShardSelection;
  /** With --shards, the part file; else the run's table (cli/commands/table-out.ts). `-`: standard output. */
  readonly out?: string;
  readonly outFormat?: TableFormat;
  readonly bom?: boolean;
  /** `--queue redis://…`: shards run by `crucible worker` processes through Redis. */
  readonly queue?: string;
}

/** `run`'s options as the CLI passes them: its own, and the plugins trusted (cli/commands/plugins.ts). */
export type RunCommandOptions = RunOptions & Trusting;

/** What `--trials` or `--precision` asks for: a number of trials, or a precision with a cap. */
type RunPlan =
  | { readonly kind: 'trials'; readonly trials: number }
  | { readonly kind: 'precision'; readonly precision: number; readonly maxTrials: number };

/** Without --workers, runs of fewer trials than this many full shards stay on the main thread: starting a pool costs more than it saves. */
export const MIN_SHARDS_FOR_POOL = 4;

/**
 * Load every scenario first, so a typo in the last file is reported before minutes of simulation
 * of the first ones; all problems of all files are reported together.
 */
export async function loadAll(
  paths: readonly string[],
  fields: readonly (readonly [string, unknown])[] = [],
  plugins: TrustedPlugins = BUILT_INS_ONLY,
): Promise<LoadedScenario[]> {
  const files = await findScenarioFiles(paths);
  const loaded: LoadedScenario[] = [];
  const problems: Problem[] = [];
  for (const file of files) {
    const dataFile = await dataFileNamed(file, 'run takes scenario files (e.g. data/heroic/scenarios)');
    if (dataFile !== undefined) {
      problems.push({ file, path: ROOT_PATH, message: dataFile });
      continue;
    }
    try {
      loaded.push(
        fields.length === 0 ? await loadScenarioFile(file, { plugins }) : await loadScenarioChanged(file, { fields }, { plugins }),
      );
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      problems.push(...error.problems);
    }
  }
  if (problems.length > 0) throw new InputError(problems);
  return loaded;
}

/** One `--set path=value` (repeatable): the value as JSON where it parses (numbers, true, lists), else text. */
function parseFieldValue(text: string, previous: (readonly [string, unknown])[] = []): (readonly [string, unknown])[] {
  const equals = text.indexOf('=');
  if (equals <= 0 || equals === text.length - 1)
    throw new InvalidArgumentError(`--set wants <path>=<value>, e.g. rules.shieldSave=4; got ${JSON.stringify(text)}.`);
  return [...previous, [text.slice(0, equals).trim(), parseCommandLineValue(text.slice(equals + 1).trim())]];
}

/** "1 trial", "1,000 trials". */
const trialsText = (count: number): string => `${groupThousands(count)} trial${count === 1 ? '' : 's'}`;

const plannedTrialsOf = (plan: RunPlan): number => (plan.kind === 'trials' ? plan.trials : plan.maxTrials);

/** A shard that failed twice: which trials, and how to replay its first one. */
function failureMessage(error: ShardFailedError, loaded: LoadedScenario, seed: number, plan: RunPlan, options: RunCommandOptions): string {
  const { file, scenario } = loaded;
  const last = error.firstTrial + trialsInShard(plannedTrialsOf(plan), error.shard) - 1;
  return [
    `crucible: shard ${error.shard} (trials ${groupThousands(error.firstTrial)}–${groupThousands(last)}) of "${scenario.name}" (${file}), seed ${seed}, failed ${error.attempts} times: ${error.causeMessage}`,
    `replay its first trial with: crucible replay ${file} --seed ${seed} --trial ${firstTrialOf(error.shard)}${options.method === 'mc-dice' ? ' --method mc-dice' : ''}`,
    ...(options.checkpoint === undefined
      ? []
      : [`the shards completed so far are saved in ${options.checkpoint}; the same command resumes from them`]),
  ].join('\n');
}

function parseShards(text: string): ShardSelection {
  const selection = parseShardSelection(text);
  if (selection === undefined)
    throw new InvalidArgumentError(
      `--shards wants a range such as 0-99 (both included) or a slice such as 3/100 (slice 3 of 100, counted from 0); got ${JSON.stringify(text)}.`,
    );
  return selection;
}

/** A word safe to paste into a POSIX shell. */
const shellWord = (word: string): string => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`);

function resumeCommand(file: string, seed: number, plan: RunPlan, checkpoint: string, options: RunCommandOptions): string {
  const words = ['crucible', 'run', file, '--seed', String(seed)];
  if (plan.kind === 'trials') words.push('--trials', String(plan.trials));
  else words.push('--precision', String(plan.precision), '--max-trials', String(plan.maxTrials));
  words.push('--checkpoint', checkpoint);
  if (options.workers !== undefined) words.push('--workers', String(options.workers));
  if (options.method !== undefined && options.method !== 'auto') words.push('--method', options.method);
  if (options.json === true) words.push('--json');
  if (options.quiet === true) words.push('--quiet');
  for (const plugin of options.plugin ?? []) words.push('--plugin', plugin);
  return words.map(shellWord).join(' ');
}

export async function runCommand(
  paths: readonly string[],
  options: RunCommandOptions,
  io: Io,
  env: NodeJS.ProcessEnv = {},
): Promise<number> {
  if (options.maxTrials !== undefined && options.precision === undefined) {
    io.stderr('error: --max-trials only applies with --precision (use --trials for a fixed number of trials)\n');
    return EXIT_BAD_INPUT;
  }
  const fault = parseTestFault(env.CRUCIBLE_TEST_FAULT);
  if (fault instanceof Error) {
    io.stderr(`error: ${fault.message}\n`);
    return EXIT_BAD_INPUT;
  }
  const method = options.method ?? 'auto';
  if (options.shards !== undefined && options.out === undefined) {
    io.stderr(
      'error: --shards needs --out: --shards 0-99 --out part-000.json computes shards 0 to 99 into a part file (crucible merge joins the parts)\n',
    );
    return EXIT_BAD_INPUT;
  }
  if (options.shards !== undefined && (options.outFormat !== undefined || options.bom === true)) {
    io.stderr(
      "error: with --shards, --out writes a part file (JSON, for crucible merge): --out-format and --bom are for the run's table\n",
    );
    return EXIT_BAD_INPUT;
  }
  // Without --shards, --out is the run's table: its format checked before any trial runs. The
  // table writer (and arquero behind it) is loaded only then.
  const tables = options.out !== undefined && options.shards === undefined ? await import('./table-out.js') : undefined;
  tables?.checkOut(options);
  if (options.shards !== undefined && (options.precision !== undefined || options.checkpoint !== undefined || method === 'exact')) {
    io.stderr(
      'error: --shards computes part of a run of fixed --trials by Monte Carlo: it takes no --precision, --checkpoint or --method exact\n',
    );
    return EXIT_BAD_INPUT;
  }
  if (method === 'exact' && (options.trials !== undefined || options.precision !== undefined || options.checkpoint !== undefined)) {
    io.stderr('error: --method exact enumerates every outcome: --trials, --precision and --checkpoint are for Monte Carlo (--method mc)\n');
    return EXIT_BAD_INPUT;
  }
  const loaded = await loadAll(paths, options.set, trustOf(options));
  if (options.checkpoint !== undefined && loaded.length !== 1) {
    io.stderr(`error: --checkpoint ${options.checkpoint} holds one run: give one scenario file, not ${loaded.length}\n`);
    return EXIT_BAD_INPUT;
  }
  if (options.out !== undefined && loaded.length !== 1) {
    const holds = options.shards === undefined ? "one run's table" : 'part of one run';
    io.stderr(`error: --out ${options.out} holds ${holds}: give one scenario file, not ${loaded.length}\n`);
    return EXIT_BAD_INPUT;
  }
  const inputs = loaded.flatMap((entry) => entry.inputs);
  for (const [flag, output, what] of [
    ['--checkpoint', options.checkpoint, 'the checkpoint'],
    ['--out', options.out === STDOUT ? undefined : options.out, options.shards === undefined ? 'the table' : 'the part'],
  ] as const) {
    if (output !== undefined && inputs.some((input) => path.resolve(input) === path.resolve(output))) {
      io.stderr(`error: ${flag} ${output} is one of the run's input files; name a new file for ${what}\n`);
      return EXIT_BAD_INPUT;
    }
  }

  if (options.queue !== undefined) {
    const problem = queueUrlProblem(options.queue);
    if (problem !== undefined || options.workers !== undefined) {
      io.stderr(`error: --queue: ${problem ?? 'the workers are the crucible worker processes on the queue: --workers does not apply'}\n`);
      return EXIT_BAD_INPUT;
    }
  }
  const chatty = options.quiet !== true && options.json !== true;
  const reports: RunReport[] = [];
  const inProcess = new InProcessExecutor();
  let secret: string | undefined;
  try {
    // Read for a queued run only: a local run crosses no machine.
    if (options.queue !== undefined) secret = sharedSecret(env);
  } catch (error) {
    io.stderr(`error: ${(error as Error).message}\n`);
    return EXIT_BAD_INPUT;
  }
  const pool: ShardExecutor =
    options.queue === undefined ? localPool(options.workers, io.stderr) : await openQueue(options.queue, io, secret, env);
  const executorFor = (trials: number): ShardExecutor => {
    if (options.queue !== undefined) return pool;
    if (options.workers === 0) return inProcess;
    // As the help says: a run under MIN_SHARDS_FOR_POOL full shards is not worth starting workers for.
    return options.workers === undefined && trials < MIN_SHARDS_FOR_POOL * SHARD_TRIALS ? inProcess : pool;
  };
  const interrupts = listenForInterrupts(
    io,
    () => io.stderr('\ncrucible: stopping: finishing the shards in flight (Ctrl-C again to drop them)\n'),
    () => io.stderr('crucible: dropping the shards in flight\n'),
  );
  let status = EXIT_OK;
  /** `--out -`: the table went to standard output, in place of the printout. */
  let tableOnStdout = false;
  // Unless every scenario ran to its end, shards may still be running: the pool is torn down.
  let finishedCleanly = false;
  try {
    for (const [index, entry] of loaded.entries()) {
      const { file, scenario } = entry;
      const seed = options.seed ?? scenario.seed;
      const plan: RunPlan =
        options.precision === undefined
          ? { kind: 'trials', trials: options.trials ?? scenario.trials }
          : { kind: 'precision', precision: options.precision, maxTrials: options.maxTrials ?? DEFAULT_MAX_TRIALS };
      let part: readonly [number, number] | undefined;
      /** With $CRUCIBLE_SECRET the part is tagged, so merge can tell it was made by a holder of the secret. */
      let partTag: string | undefined;
      if (options.shards !== undefined && options.out !== undefined && plan.kind === 'trials') {
        const shards = selectedShards(options.shards, shardCount(plan.trials));
        if (typeof shards === 'string') {
          io.stderr(`error: --shards: ${shards} (--trials ${plan.trials} makes shards of ${groupThousands(SHARD_TRIALS)} trials)\n`);
          status = EXIT_BAD_INPUT;
          break;
        }
        part = shards;
        partTag = partSecret(env);
      }
      const executor = executorFor(part === undefined ? plannedTrialsOf(plan) : (part[1] - part[0]) * SHARD_TRIALS);
      const progress =
        chatty && io.progressStream !== undefined
          ? runProgressBar(
              io.progressStream,
              file,
              plan.kind === 'precision' ? { target: plan.precision, maxTrials: plan.maxTrials } : undefined,
              executor,
            )
          : undefined;
      const run: ScenarioRunOptions = {
        method,
        seed,
        ...(options.trials === undefined ? {} : { trials: options.trials }),
        ...(plan.kind === 'precision' ? { precision: plan.precision, maxTrials: plan.maxTrials } : {}),
        executor,
        signals: interrupts,
        ...(options.checkpoint === undefined ? {} : { checkpoint: checkpointFile(options.checkpoint) }),
        ...(progress === undefined ? {} : { onProgress: progress.onProgress }),
        ...(fault === undefined ? {} : { fault }),
        ...(part === undefined ? {} : { part }),
      };
      // Drawn at once where the run samples whatever the scenario: starting the workers takes a moment, and the bar says the run has begun.
      if (exactBudgetFor(method, asksForSampling(run)) === undefined) progress?.begin(plannedTrialsOf(plan));
      // Interrupted: the bar goes first, so the messages that follow start on a clean line.
      const stopProgress = (): void => progress?.stop();
      interrupts.finish.addEventListener('abort', stopProgress);
      const started = performance.now();
      let answer: ScenarioAnswer;
      try {
        answer = await runScenario(entry, run);
      } catch (error) {
        if (error instanceof TooManyPathsError) {
          io.stderr(
            `error: ${file}: a trial of "${scenario.name}" has more than ${groupThousands(error.budget.paths)} paths (or ${groupThousands(error.budget.draws)} draws over its paths): too many to enumerate; run it by Monte Carlo with --method mc\n`,
          );
          status = EXIT_BAD_INPUT;
          break;
        }
        if (!(error instanceof ShardFailedError)) throw error;
        // Not a bug in a shard: the queue cannot serve this run (no worker can run it, Redis is full).
        const unusable = pool.unusable?.();
        io.stderr(unusable === undefined ? `${failureMessage(error, entry, seed, plan, options)}\n` : `error: --queue: ${unusable}\n`);
        status = unusable === undefined ? EXIT_UNEXPECTED : EXIT_BAD_INPUT;
        break;
      } finally {
        stopProgress();
        interrupts.finish.removeEventListener('abort', stopProgress);
      }
      const seconds = (performance.now() - started) / 1000;
      if (answer.method === 'exact') {
        const report = exactReport(entry, answer);
        if (tables !== undefined && (await tables.writeOut(options, runPrintout(report), io))) tableOnStdout = true;
        if (options.json === true) reports.push(report);
        else if (!tableOnStdout) io.stdout(`${index > 0 ? '\n' : ''}${formatRunReport(report)}`);
        if (chatty)
          io.stderr(`${file}: exact, ${groupThousands(answer.paths)} path${answer.paths === 1 ? '' : 's'} in ${seconds.toFixed(3)} s\n`);
        continue;
      }
      if (answer.interrupted !== undefined) {
        const done = `interrupted after ${groupThousands(answer.interrupted.trialsKept)} of ${trialsText(answer.interrupted.trialsPlanned)}`;
        if (options.queue !== undefined)
          io.stderr(`crucible: ${done} of ${file}; the shards done stay in Redis for 7 days: the same command resumes from them\n`);
        else if (options.checkpoint === undefined)
          io.stderr(`crucible: ${done} of ${file}; nothing saved (--checkpoint <file> makes a run resumable)\n`);
        else
          io.stderr(
            `crucible: ${done}, saved in ${options.checkpoint}\nresume with: ${resumeCommand(file, seed, plan, options.checkpoint, options)}\n`,
          );
        status = interrupts.signal() === 'SIGTERM' ? EXIT_TERMINATED : EXIT_INTERRUPTED;
        break;
      }
      const report = monteCarloReport(entry, answer, executor.workers);
      const { resumedTrials } = answer;
      if (part !== undefined && options.out !== undefined) {
        const header = { scenario: scenario.name, file, ...provenanceJson(provenanceOf(entry)) };
        const content = {
          identity: { ...answer.identity, plan: { trials: plannedTrialsOf(plan) } },
          header,
          metrics: answer.metrics,
          shards: part,
          cells: answer.tally.cells,
          trials: answer.tally.trials,
        };
        if (options.out === STDOUT) io.stdout(partFileText(content, partTag));
        else await writePartFile(options.out, content, partTag);
        const [start, end] = part;
        const which =
          start < end
            ? `shard${end - start === 1 ? '' : 's'} ${start}${end - start === 1 ? '' : `-${end - 1}`}`
            : 'no shard (an empty slice)';
        io.stderr(
          `${file}: wrote ${options.out === STDOUT ? 'the part to standard output' : options.out}: ${which} of ${shardCount(plannedTrialsOf(plan))}, ${trialsText(report.trials)} in ${seconds.toFixed(2)} s; crucible merge joins the parts\n`,
        );
        continue;
      }
      if (tables !== undefined && (await tables.writeOut(options, runPrintout(report), io))) tableOnStdout = true;
      if (options.json === true) reports.push(report);
      else if (!tableOnStdout) io.stdout(`${index > 0 ? '\n' : ''}${formatRunReport(report)}`);
      // Timings vary from run to run: stderr only, so stdout stays byte-identical.
      if (chatty) {
        const ran = report.trials - resumedTrials;
        const rate = seconds > 0 ? groupThousands(Math.round(ran / seconds)) : '∞';
        const where =
          executor.status !== undefined
            ? `the queue (${executor.status()})`
            : report.workers === 0
              ? 'the main thread'
              : `${report.workers} worker${report.workers === 1 ? '' : 's'}`;
        const resumed = resumedTrials > 0 ? `, after ${groupThousands(resumedTrials)} from the checkpoint` : '';
        if (ran === 0)
          io.stderr(`${file}: ${report.trials === 1 ? 'the trial was' : `all ${trialsText(report.trials)} were`} in the checkpoint\n`);
        else io.stderr(`${file}: ${trialsText(ran)} in ${seconds.toFixed(2)} s (${rate} trials/s) on ${where}${resumed}\n`);
      }
    }
    finishedCleanly = status === EXIT_OK;
  } finally {
    interrupts.release();
    await pool.close(!finishedCleanly);
    await inProcess.close();
  }
  if (status === EXIT_OK && options.json === true) {
    const documents = reports.map(runReportJson);
    io.stdout(`${JSON.stringify(documents.length === 1 ? documents[0] : documents, null, 2)}\n`);
  }
  return status;
}

/** A queue coordinator; `CRUCIBLE_TEST_QUEUE_FAST=1` (tests only) checks on its jobs and workers every 0.2 s instead of 2 s. */
async function openQueue(url: string, io: Io, secret: string | undefined, env: NodeJS.ProcessEnv): Promise<ShardExecutor> {
  const { QueueExecutor, DEFAULT_LIVENESS } = await needing(QUEUE_PACKAGES, () => import('../../queue/queue-executor.js'));
  const liveness =
    env.CRUCIBLE_TEST_QUEUE_FAST === '1'
      ? { checkEveryMilliseconds: 200, idleNoticeMilliseconds: 1500, refusedForMilliseconds: 3000 }
      : DEFAULT_LIVENESS;
  return QueueExecutor.open(url, io.stderr, secret, liveness);
}

const PATHS_HELP = 'scenario files, or directories (their .yaml, .yml and .json files, sorted by name); - for standard input';

/** The `run` command's options, help and action. */
export function registerRun(program: Command, io: Io, env: NodeJS.ProcessEnv, setStatus: (status: number) => void): void {
  const poolThreshold = groupThousands(MIN_SHARDS_FOR_POOL * SHARD_TRIALS);
  pluginOption(program.command('run'))
    .description('simulate scenario files and print each metric with its 95% interval')
    .argument('<paths...>', PATHS_HELP)
    .addOption(new Option('-n, --trials <count>', "trials per scenario (default: the scenario's trials)").argParser(parseTrials))
    .addOption(new Option('-s, --seed <seed>', "random seed, 0 to 4294967295 (default: the scenario's seed)").argParser(parseSeed))
    .addOption(
      new Option(
        '-w, --workers <count>',
        `worker threads (default: one per core, here ${availableParallelism()}; 0: the main thread)`,
      ).argParser(parseWorkers),
    )
    .addOption(
      new Option('--precision <epsilon>', "run until every probability's 95% interval is within ±epsilon (0.001 = ±0.1 percentage point)")
        .argParser(parsePrecision)
        .conflicts('trials'),
    )
    .addOption(
      new Option(
        '--max-trials <count>',
        `with --precision: stop there even if not precise enough (default: ${groupThousands(DEFAULT_MAX_TRIALS)})`,
      ).argParser(parseTrials),
    )
    .option(
      '--set <path=value>',
      'change a field of the scenario for this run, e.g. rules.shieldSave=4 or units.ogre.def=5 (repeat for several)',
      parseFieldValue,
    )
    .option('--checkpoint <file>', 'save completed work to <file> as the run goes; the same command resumes from it', (text: string) => {
      if (text.trim() === '') throw new InvalidArgumentError('--checkpoint needs a file name, got an empty one.');
      return text;
    })
    .addOption(
      new Option(
        '--shards <range>',
        "compute only these shards of the run, e.g. 0-99, or 3/100 for slice 3 of 100 (a batch array's index), into --out",
      ).argParser(parseShards),
    )
    .option(
      '-o, --out <file>',
      "also write the run's table: .csv or .json (numbers as numbers), .md or .html (the printout); with --shards, the part file to write (crucible merge joins the parts into the run's output); - for standard output",
    )
    .addOption(
      new Option(
        '--out-format <format>',
        'the format --out writes the table in, whatever its extension (what --out - writes: default csv)',
      ).choices([...TABLE_FORMATS]),
    )
    .option('--bom', 'with --out .csv: start the file with a UTF-8 byte order mark (what Excel needs to read accents as UTF-8)')
    .option(
      '--queue <url>',
      'run the shards on crucible worker processes through Redis (redis://host:6379, rediss:// for TLS); the same numbers as here',
    )
    .option('--json', 'print one JSON document (an array when there are several scenarios) instead of tables')
    .option('-q, --quiet', 'no progress bar and no timings on stderr')
    .addOption(
      new Option(
        '--method <method>',
        `exact: ${METHOD_WORDS.exact}; mc: Monte Carlo, ${METHOD_WORDS.mc}; mc-dice: Monte Carlo, ${METHOD_WORDS['mc-dice']}; auto: exact when a trial is a single action (few paths) and no --trials, --precision, --checkpoint or --shards is given, else mc`,
      )
        .choices(METHODS)
        .default('auto'),
    )
    .addHelpText(
      'after',
      `
Every file is loaded and checked before any trial runs. The same files, seed and trials print the
same numbers whatever --workers is: trials are cut into shards of ${groupThousands(SHARD_TRIALS)}, shard k always draws
from the seed's stream k, and shards merge in order. Runs under ${poolThreshold} trials stay on the main
thread unless --workers is given (starting workers costs a few hundred ms).

On a terminal, stderr shows a progress bar (trials done, trials/s, time left); timings and the
progress bar are left out with --quiet or --json, and never go to stdout.

Ctrl-C stops a run after the shards in flight (twice: drops them; three times: at once). With --checkpoint <file>, the work
done is saved there (atomically, every few seconds and on Ctrl-C) and the same command resumes it,
ending with exactly the numbers of an uninterrupted run. A checkpoint of another scenario, seed,
trial count or engine version is refused. Exit status 130 means interrupted (143: by SIGTERM).

A single action (an attack, a round of combat, a volley, a rally) is evaluated exactly: every path
its dice can take is enumerated, each action's total drawn from its exact distribution, and the
report says "method exact" with the bound on every probability's float64 error. Longer chains run
Monte Carlo; --method mc-dice rolls every die (slower; the same distributions).

Examples:
  $ crucible run data/heroic/scenarios
  $ crucible run data/heroic/scenarios/uldar-splits-dice.yaml --trials 1_000_000 --seed 42
  $ crucible run data/heroic/scenarios --json --quiet > results.json
  $ crucible run fight.yaml --out odds.csv                            the table too, numbers as numbers
  $ crucible run fight.yaml --trials 1e9 --checkpoint fight.ckpt      interrupt and resume at will
  $ crucible run fight.yaml --precision 0.001                         as many trials as ±0.1 pp needs`,
    )
    .action(async (paths: string[], options: RunCommandOptions) => {
      setStatus(await runCommand(paths, options, io, env));
    });
}
