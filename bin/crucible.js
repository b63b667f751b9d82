#!/usr/bin/env node
// Runs the TypeScript CLI directly: tsx compiles it on the fly, so there is no build step.
// register() must run before cli/main.ts is loaded, hence the dynamic import.
import { register } from 'tsx/esm/api';

// A reader that stops early (crucible run … | head) closes the pipe: that is its choice, not a crash.
// Any other failure to write the output (a full disk: ENOSPC) is said in one line, exit 2, not a stack trace.
for (const [name, stream] of [['stdout', process.stdout], ['stderr', process.stderr]]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(0);
    const why = error.code === 'ENOSPC' ? 'no space left on the device' : error.message;
    if (stream !== process.stderr) process.stderr.write(`crucible: cannot write the output to ${name}: ${why} (${error.code ?? 'error'})\n`);
    process.exit(2);
  });
}

register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
