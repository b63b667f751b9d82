// The file piscina loads in each worker thread: JavaScript, so that it loads before any TypeScript
// loader. Compiled (dist/lib/sim/, beside shard-worker.js: the published package, or a clone after
// `npm run build`), it imports the compiled handler. From source it registers tsx in the worker
// itself, then imports the TypeScript handler: Node 20 ignores `--import tsx` in a worker's execArgv
// for the modules it loads (a .ts entry fails with "Unknown file extension"), and under vitest the
// process has no tsx at all; so this works the same under `node bin/crucible.js`, `node --import
// tsx` (bench) and vitest. No top-level await: piscina may load this with require() before import().
import { existsSync } from 'node:fs';

const compiled = new URL('./shard-worker.js', import.meta.url);

const handler = existsSync(compiled)
  ? import(compiled.href)
  : (async () => {
      const { register } = await import('tsx/esm/api');
      register();
      return import('./shard-worker.ts');
    })();

export default async function runShardTask(task) {
  return (await handler).runShardTask(task);
}

// The facts of a spec's kernel (ShardPool.kernelFacts: piscina's task `name`).
export async function kernelFacts(spec) {
  return (await handler).kernelFacts(spec);
}

// A batch of seated runs (ShardPool.runOutcome).
export async function runOutcomeTasks(tasks) {
  return (await handler).runOutcomeTasks(tasks);
}
