import { main } from './main.js';

/**
 * The `crucible` process (bin/crucible.js loads this file, compiled or through tsx): the CLI on
 * the process's arguments and streams, its exit status the process's.
 */

// A reader that stops early (crucible run … | head) closes the pipe: that is its choice, not a crash.
// Any other failure to write the output (a full disk: ENOSPC) is said in one line, exit 2, not a stack trace.
for (const [name, stream] of [
  ['stdout', process.stdout],
  ['stderr', process.stderr],
] as const) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    const why = error.code === 'ENOSPC' ? 'no space left on the device' : error.message;
    if (stream !== process.stderr)
      process.stderr.write(`crucible: cannot write the output to ${name}: ${why} (${error.code ?? 'error'})\n`);
    process.exit(2);
  });
}

process.exitCode = await main(process.argv.slice(2));
