import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { stampBuild } from './build-stamp.js';
import { PAGE_SOURCES, servingRules } from './serving.js';

/**
 * The workbench's build (`npm run build:web` → dist/web, which `crucible serve` serves; its `--dev`
 * is the development server). The page runs the CLI's own modules: engine/, input/, sim/, analysis/,
 * reports/ chart specs, unchanged: where Node and a browser differ they go through the platform the
 * page installs (web/platform/browser-platform.ts over input/platform.ts), so nothing about a scenario
 * is read, checked or computed differently from `crucible run`, and this build rewrites and
 * redirects no import. How it is served: serving.ts.
 */

const here = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));
const nodeModules = here('../node_modules');

export default defineConfig({
  root: here('.'),
  base: './',
  publicDir: false,
  plugins: [servingRules(), stampBuild()],
  // Preact's JSX runtime (tsconfig.json says the same to tsc).
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  worker: { format: 'es' },
  build: {
    outDir: here('../dist/web'),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 2048,
  },
  server: {
    host: '127.0.0.1',
    fs: {
      strict: true,
      // What the page imports, and no more: not the repository's root, its other folders or dotfiles.
      // node_modules by its real path too: Vite resolves a linked node_modules to its target.
      allow: [...PAGE_SOURCES.map((folder) => here(`../${folder}`)), nodeModules, realpathSync(nodeModules)],
      deny: ['.*', '**/.git/**', '*.{crt,pem,key,p12,pfx,cer,der}'],
    },
  },
});
