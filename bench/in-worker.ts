import { Worker } from 'node:worker_threads';
import type { BenchJob, BenchResult } from './worker.js';

/**
 * A worker cannot take `--import tsx` in execArgv (Node 20 leaves its entry module to the default
 * loader, which rejects .ts), so the worker is a tiny script that registers tsx and then imports
 * bench/worker.ts.
 */
const TSX_API = import.meta.resolve('tsx/esm/api');
const WORKER_MODULE = new URL('./worker.ts', import.meta.url).href;
const WORKER_BOOTSTRAP = `import(${JSON.stringify(TSX_API)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER_MODULE)}); });`;

export function runInWorker(job: BenchJob): Promise<BenchResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_BOOTSTRAP, { eval: true, execArgv: [], workerData: job });
    let result: BenchResult | undefined;
    worker.once('message', (message: BenchResult) => {
      result = message;
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (result !== undefined) resolve(result);
      else reject(new Error(`bench worker exited with code ${code} before reporting`));
    });
  });
}
