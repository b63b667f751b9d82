import { Command, CommanderError } from 'commander';
import packageJson from '../package.json' with { type: 'json' };
import { escapeUnprintable, InputError } from '../input/errors.js';
import { installNodePlatform } from '../input/node-platform.js';
import { EXIT_BAD_INPUT, EXIT_OK, EXIT_UNEXPECTED, type Io } from './commands/io.js';
import { registerAnalysis } from './commands/analyze.js';
import { registerMerge } from './commands/merge.js';
import { addTrustHook, pluginOption, type Trusting, trustOf } from './commands/plugins.js';
import { registerWorker } from './commands/worker.js';
import { registerReplay } from './commands/replay.js';
import { registerReport } from './commands/report.js';
import { registerRun } from './commands/run.js';
import { registerServe } from './commands/serve.js';
import { SCHEMA_FILES, schemaCommand } from './commands/schema.js';
import { validateCommand } from './commands/validate.js';

/**
 * The `crucible` command line. Exit status: 0 ok; 2 bad input (a file or an option; also output that
 * cannot be written, bin/crucible.js), reported as
 * `<file>: <field>: <problem>` lines without a stack trace; 130 interrupted (Ctrl-C; 143 SIGTERM);
 * 1 an unexpected error, i.e. a bug.
 */

const processIo: Io = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  // A progress bar only where a person watches: not into a pipe or a file.
  ...(process.stderr.isTTY ? { progressStream: process.stderr } : {}),
  onInterrupt: (listener) => {
    const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];
    for (const signal of signals) process.on(signal, listener);
    return () => {
      for (const signal of signals) process.off(signal, listener);
    };
  },
};

const PATHS_HELP = 'scenario files, or directories (their .yaml, .yml and .json files, sorted by name)';

function buildProgram(io: Io, env: NodeJS.ProcessEnv, setStatus: (status: number) => void): Command {
  const program = new Command('crucible')
    .description('Monte Carlo balance lab for tabletop wargame rules: simulate scenario files, report outcome statistics with 95% intervals.')
    .version(packageJson.version, '-V, --version', 'print the crucible version')
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

Exit status: 0 ok, 2 bad input (files or options) or output that cannot be written (a full
disk), 130 interrupted (Ctrl-C; 143: SIGTERM), 1 unexpected error (a bug; CRUCIBLE_DEBUG=1 shows
the stack).`,
    );

  addTrustHook(program, env);
  registerRun(program, io, env, setStatus);

  pluginOption(program.command('validate'))
    .description('check scenario and units files without simulating; prints "ok <file>" or every problem found')
    .argument('<paths...>', `${PATHS_HELP}; files named units.* are checked as units files`)
    .addHelpText(
      'after',
      `
Each problem is one line: <file>: <field>: <what is wrong>, e.g.
  scenarios/x.yaml: sides[0].groups[1].models: must be an integer ≥ 1, got -2

Examples:
  $ crucible validate data/heroic/scenarios
  $ crucible validate data/heroic/units.yaml my-fight.yaml
  $ crucible validate examples/homebrew/scenarios --plugin examples/homebrew/index.ts`,
    )
    .action(async (paths: string[], options: Trusting) => {
      setStatus(await validateCommand(paths, io, trustOf(options)));
    });

  program
    .command('schema')
    .description('write JSON Schemas of the scenario and units files, for editor completion and checking')
    .option('-o, --out <dir>', 'directory to write the schema files into', 'schema')
    .option('--plugin <module>', "a plugin rule system's module (e.g. ./examples/homebrew/index.ts): write its schemas instead of the built-ins'")
    .addHelpText(
      'after',
      `
Writes into <dir>:
${SCHEMA_FILES.map((file) => `  ${file.name.padEnd(36)}${file.title}`).join('\n')}
The army and faction files' schemas (warmaster-units, battleforge-units, battleforge-index) are
written with the data, by npm run data:warmaster and npm run data:battleforge.

To use a schema in an editor with the YAML language server (e.g. VS Code's YAML extension), start
the file with a comment pointing at it, relative to the file:
  # yaml-language-server: $schema=../../../schema/heroic-scenario.schema.json

Examples:
  $ crucible schema
  $ crucible schema --out /tmp/schemas
  $ crucible schema --plugin ./examples/homebrew/index.ts --out examples/homebrew/schema`,
    )
    .action(async (options: { out: string; plugin?: string }) => {
      setStatus(await schemaCommand(options.out, io, options.plugin));
    });

  registerMerge(program, io, env, setStatus);
  registerWorker(program, io, env, setStatus);
  registerReplay(program);
  registerAnalysis(program, io);
  registerReport(program, io, setStatus);
  registerServe(program, io, setStatus);
  return program;
}

/** Control characters (line breaks aside, tabs too) and bidirectional overrides as \u escapes. */
const escapeControlCharacters = (text: string): string => escapeUnprintable(text).replaceAll('\t', '\\u0009');

/** Run the CLI on `argv` (without the node and script names); resolves to the exit status. */
export async function main(argv: readonly string[], io: Io = processIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  installNodePlatform();
  let status = EXIT_OK;
  const program = buildProgram(io, env, (value) => {
    status = value;
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return status;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has already printed the message (or the help/version, which exit 0).
      return error.exitCode === 0 ? EXIT_OK : EXIT_BAD_INPUT;
    }
    if (error instanceof InputError) {
      io.stderr(`${error.message}\n`);
      return EXIT_BAD_INPUT;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`crucible: unexpected error: ${message}\n`);
    if (env.CRUCIBLE_DEBUG === '1' && error instanceof Error && error.stack !== undefined) io.stderr(`${error.stack}\n`);
    else io.stderr('This is a bug in crucible. Please report it with the command and files used; set CRUCIBLE_DEBUG=1 to print the stack trace.\n');
    return EXIT_UNEXPECTED;
  }
}
