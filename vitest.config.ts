import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60000,
    // Forks rather than threads: the CLI tests send signals and the engine tests are CPU-bound.
    pool: 'forks',
    // One fork per core: vitest's default (cores − 1) leaves one of this project's two cores idle.
    maxWorkers: availableParallelism(),
  },
});
