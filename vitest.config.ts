import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60000,
    // Forks rather than threads: the CLI tests spawn processes and the engine tests are CPU-bound.
    pool: 'forks',
  },
});
