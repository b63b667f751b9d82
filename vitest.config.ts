import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Chromium and redis-server installed once, before any file runs (files side by side would collide in apt-get).
    globalSetup: ['test/global-setup.ts'],
    // Each file's modules read files and import kernels through Node's platform (input/platform.ts).
    setupFiles: ['test/setup.ts'],
    // Timeouts catch a hang, not slowness (speed is bench/'s): with three suites side by side on
    // these 2 cores (load 15) the packing test took 53 s, a price list 50 s, a queued chaos run 96 s,
    // against 20–30 s alone. A wait ends as soon as it holds, so a quiet machine pays nothing.
    testTimeout: 180_000,
    hookTimeout: 60_000,
    // Forks rather than threads: the CLI tests send signals and the engine tests are CPU-bound.
    pool: 'forks',
    // One fork more than the cores: vitest's default (cores − 1) leaves one of this project's two
    // cores idle, and several files wait on child processes, Redis or a browser (measured on 2
    // cores: 117.6 s with 2 forks, 107.8 s with 3).
    maxWorkers: availableParallelism() + 1,
    // The test files of a fork share its modules instead of loading zod, vega, resvg… once per
    // file: about a third of the suite's CPU time (measured: 164 → 100 CPU-seconds). So no test
    // may change a module or a global for the others: no vi.mock, spies, stubbed globals or env
    // (test/project/isolation.test.ts checks it).
    isolate: false,
  },
});
