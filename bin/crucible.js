#!/usr/bin/env node
// Runs the TypeScript CLI directly: tsx compiles it on the fly, so there is no build step.
// register() must run before cli/main.ts is loaded, hence the dynamic import.
import { register } from 'tsx/esm/api';

// A reader that stops early (crucible run … | head) closes the pipe: that is its choice, not a crash.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}

register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
