import { PassThrough } from 'node:stream';
import { Command, CommanderError } from 'commander';
import { escapeUnprintable, InputError } from '../input/errors.js';
import { forgetNamedInputs, nameInputs } from '../input/named-inputs.js';
import { installNodePlatform } from '../input/node-platform.js';
import { CRUCIBLE_VERSION } from '../input/package-info.js';
import { spreadListValues } from './list-options.js';
import { EXIT_BAD_INPUT, EXIT_OK, EXIT_UNEXPECTED, type Io } from './commands/io.js';
import { MissingPackagesError } from './optional-packages.js';

/**
 * The `crucible` command line. Exit status: 0 ok; 2 bad input (a file or an option; also output that
 * cannot be written, bin/crucible.js), reported as
 * `<file>: <field>: <problem>` lines without a stack trace; 130 interrupted (Ctrl-C; 143 SIGTERM);
 * 1 an unexpected error, i.e. a bug.
 */

/**
 * Test-only (`CRUCIBLE_TEST_PROGRESS=1`): stderr, though a pipe, as a terminal 100 columns wide, so
 * a spawned command draws its progress there and a test can wait for it before sending a signal.
 */
function testTerminal(): NodeJS.WritableStream {
  const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 100 });
  stream.pipe(process.stderr);
  return stream;
}

const processIo: Io = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  // A progress bar only where a person watches: not into a pipe or a file (tests aside, below).
  ...(process.stderr.isTTY
    ? { progressStream: process.stderr }
    : process.env.CRUCIBLE_TEST_PROGRESS === '1'
      ? { progressStream: testTerminal() }
      : {}),
  onInterrupt: (listener) => {
    const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];
    for (const signal of signals) process.on(signal, listener);
    return () => {
      for (const signal of signals) process.off(signal, listener);
    };
  },
};

/** What a command's registration gets: the output, the environment, and where to put the exit status. */
interface CommandContext {
  readonly io: Io;
  readonly env: NodeJS.ProcessEnv;
  readonly setStatus: (status: number) => void;
}

type Register = (program: Command, context: CommandContext) => void;

/**
 * The commands, in the order `crucible --help` lists them. Each one's module (and what it imports:
 * zod schemas, arquero, statistics…) is loaded only when that command is chosen, or for the help
 * that lists them all: `crucible --version` loads none. The analysis commands — compare (two
 * variants on common random numbers), sweep (fields over values), matchups (a roster against
 * itself), balance (fitted point costs) — are thin layers over analysis/ whose tables --out writes
 * as CSV, JSON or Markdown.
 */
const COMMANDS: readonly { readonly name: string; readonly load: () => Promise<Register> }[] = [
  {
    name: 'run',
    load: async () => {
      const { registerRun } = await import('./commands/run.js');
      return (program, c) => registerRun(program, c.io, c.env, c.setStatus);
    },
  },
  {
    name: 'validate',
    load: async () => {
      const { registerValidate } = await import('./commands/validate.js');
      return (program, c) => registerValidate(program, c.io, c.setStatus);
    },
  },
  {
    name: 'schema',
    load: async () => {
      const { registerSchema } = await import('./commands/schema.js');
      return (program, c) => registerSchema(program, c.io, c.setStatus);
    },
  },
  {
    name: 'merge',
    load: async () => {
      const { registerMerge } = await import('./commands/merge.js');
      return (program, c) => registerMerge(program, c.io, c.env, c.setStatus);
    },
  },
  {
    name: 'worker',
    load: async () => {
      const { registerWorker } = await import('./commands/worker.js');
      return (program, c) => registerWorker(program, c.io, c.env, c.setStatus);
    },
  },
  { name: 'replay', load: async () => (await import('./commands/replay.js')).registerReplay },
  {
    name: 'compare',
    load: async () => {
      const { registerCompare } = await import('./commands/compare.js');
      return (program, c) => registerCompare(program, c.io, c.env, c.setStatus);
    },
  },
  {
    name: 'sweep',
    load: async () => {
      const { registerSweep } = await import('./commands/sweep.js');
      return (program, c) => registerSweep(program, c.io, c.env, c.setStatus);
    },
  },
  {
    name: 'matchups',
    load: async () => {
      const { registerMatchups } = await import('./commands/matchups.js');
      return (program, c) => registerMatchups(program, c.io, c.env, c.setStatus);
    },
  },
  {
    name: 'balance',
    load: async () => {
      const { registerBalance } = await import('./commands/balance.js');
      return (program, c) => registerBalance(program, c.io, c.env, c.setStatus);
    },
  },
  {
    name: 'report',
    load: async () => {
      const { registerReport } = await import('./commands/report.js');
      return (program, c) => registerReport(program, c.io, c.setStatus);
    },
  },
  {
    name: 'serve',
    load: async () => {
      const { registerServe } = await import('./commands/serve.js');
      return (program, c) => registerServe(program, c.io, c.setStatus);
    },
  },
  {
    name: 'completion',
    load: async () => {
      const { registerCompletion } = await import('./commands/completion.js');
      return (program, c) => registerCompletion(program, c.io);
    },
  },
];

const COMMAND_NAMES = new Set(COMMANDS.map((command) => command.name));

/**
 * The commands `argv` needs: the one it names (`crucible run …`, `crucible help run`), none when it
 * only asks for the version, and all of them otherwise (the help, an unknown command and its
 * suggestion, no command at all: Commander's messages then name every command as before).
 */
export function commandsFor(argv: readonly string[]): readonly string[] {
  const words = argv.filter((arg) => !arg.startsWith('-'));
  const [first, second] = words;
  // A completion script covers every command: all are registered for it.
  if (first === 'completion') return COMMANDS.map((command) => command.name);
  if (first !== undefined && COMMAND_NAMES.has(first)) return [first];
  if (first === 'help' && second !== undefined && COMMAND_NAMES.has(second)) return [second];
  if (
    first === undefined &&
    argv.some((arg) => arg === '-V' || arg === '--version') &&
    !argv.some((arg) => arg === '-h' || arg === '--help')
  )
    return [];
  return COMMANDS.map((command) => command.name);
}

/** Registers the commands named, in COMMANDS's order, and the hook that resolves their --plugin modules. */
async function addCommands(program: Command, names: readonly string[], context: CommandContext): Promise<void> {
  if (names.length === 0) return;
  const wanted = COMMANDS.filter((command) => names.includes(command.name));
  const [{ addTrustHook }, ...registers] = await Promise.all([import('./commands/plugins.js'), ...wanted.map((command) => command.load())]);
  addTrustHook(program, context.env);
  // The files a command's arguments name may be standard input (`-`), a pipe or a device (input/data-file.ts).
  program.hook('preAction', (_program, action) => nameInputs(action.args));
  for (const register of registers) register(program, context);
}

function buildProgram(io: Io): Command {
  const program = new Command('crucible')
    .description(
      'Monte Carlo balance lab for tabletop wargame rules: simulate scenario files, report outcome statistics with 95% intervals.',
    )
    .version(CRUCIBLE_VERSION, '-V, --version', 'print the crucible version')
    .helpOption('-h, --help', 'show help (also: crucible help <command>)')
    // Commander repeats a refused option value as given: its control characters are shown escaped, never sent to the terminal.
    .configureOutput({ writeOut: io.stdout, writeErr: (text) => io.stderr(escapeControlCharacters(text)) })
    .showHelpAfterError('(crucible --help lists commands and options)')
    // Commander would call process.exit itself; we map its errors to our exit statuses instead.
    .exitOverride()
    .addHelpText(
      'after',
      `
Examples:
  $ crucible run data/heroic/scenarios                 simulate every bundled heroic scenario
  $ crucible run my-fight.yaml --trials 1e6 --seed 7   one scenario, more trials, another seed
  $ crucible run data/heroic/scenarios --json > out.json
  $ crucible validate data/heroic/scenarios            check scenarios and the units files they use
  $ crucible schema --out schema                       write JSON Schemas for editors
  $ source <(crucible completion bash)                 complete commands, options and files in bash

Exit status: 0 ok, 2 bad input (files or options) or output that cannot be written (a full
disk), 130 interrupted (Ctrl-C; 143: SIGTERM), 1 unexpected error (a bug; CRUCIBLE_DEBUG=1 shows
the stack).`,
    );

  return program;
}

/** `argv` with the chosen command's list options in their one spelling (cli/list-options.ts). */
function withListsSpread(program: Command, argv: readonly string[]): string[] {
  const at = argv.findIndex((arg) => !arg.startsWith('-'));
  const command = program.commands.find((candidate) => candidate.name() === argv[at]);
  if (command === undefined) return [...argv];
  return [...argv.slice(0, at + 1), ...spreadListValues(command, argv.slice(at + 1))];
}

/** Control characters (line breaks aside, tabs too) and bidirectional overrides as \u escapes. */
const escapeControlCharacters = (text: string): string => escapeUnprintable(text).replaceAll('\t', '\\u0009');

/** Run the CLI on `argv` (without the node and script names); resolves to the exit status. */
export async function main(argv: readonly string[], io: Io = processIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  installNodePlatform();
  forgetNamedInputs();
  let status = EXIT_OK;
  const program = buildProgram(io);
  const setStatus = (value: number): void => {
    status = value;
  };
  try {
    await addCommands(program, commandsFor(argv), { io, env, setStatus });
    await program.parseAsync(withListsSpread(program, argv), { from: 'user' });
    return status;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has already printed the message (or the help/version, which exit 0).
      return error.exitCode === 0 ? EXIT_OK : EXIT_BAD_INPUT;
    }
    if (error instanceof InputError || error instanceof MissingPackagesError) {
      io.stderr(`${error.message}\n`);
      return EXIT_BAD_INPUT;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`crucible: unexpected error: ${message}\n`);
    if (env.CRUCIBLE_DEBUG === '1' && error instanceof Error && error.stack !== undefined) io.stderr(`${error.stack}\n`);
    else
      io.stderr(
        'This is a bug in crucible. Please report it with the command and files used; set CRUCIBLE_DEBUG=1 to print the stack trace.\n',
      );
    return EXIT_UNEXPECTED;
  }
}
