// The file piscina loads in each worker thread. It is JavaScript because a worker starts without
// the tsx loader: Node 20 ignores `--import tsx` in a worker's execArgv for the modules it loads
// (a .ts entry fails with "Unknown file extension"), and under vitest the process has no tsx at
// all. So this plain module registers tsx in the worker itself, then imports the TypeScript
// handler; it works the same under `node bin/crucible.js`, `node --import tsx` (bench) and vitest.
// No top-level await: piscina may load this with require() before trying import().
import { register } from 'tsx/esm/api';

const handler = (async () => {
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
