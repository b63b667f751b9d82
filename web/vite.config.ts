import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { kernelModuleName } from './platform/kernel-names.js';
import { stampBuild } from './build-stamp.js';
import { PAGE_SOURCES, servingRules } from './serving.js';

/**
 * The workbench's build (`npm run build:web` → dist/web, which `crucible serve` serves; its `--dev`
 * is the development server). The page runs the CLI's own modules: engine/, sim/, analysis/, reports/
 * chart specs. Their few Node imports are pointed at browser equivalents here — files at the
 * workbench's volume of bundled data (web/platform/), `node:path` at pathe, sha256 at
 * @noble/hashes, and the rule-system loader at its built-in-only twin — so nothing about a scenario
 * is read, checked or computed differently from `crucible run`. How it is served: serving.ts.
 */

const here = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));
const nodeModules = here('../node_modules');

/** Each built-in's `kernelModule` (a file URL to import in Node) becomes a name the page's kernel registry knows. */
function namedKernelModules(): Plugin {
  const descriptor = /[\\/]engine[\\/]([\w-]+)[\\/]index\.ts$/;
  return {
    name: 'crucible-named-kernel-modules',
    enforce: 'pre',
    transform(code, id) {
      const folder = descriptor.exec(id)?.[1];
      // A rule system's descriptor is the index.ts that declares a kernelModule (engine/dice/index.ts is not one).
      if (folder === undefined || !code.includes('kernelModule:')) return undefined;
      const rewritten = code.replace("new URL('./kernel-module.ts', import.meta.url).href", JSON.stringify(kernelModuleName(folder)));
      if (rewritten === code) this.error(`${id}: kernelModule is not new URL('./kernel-module.ts', import.meta.url).href; the workbench cannot name its kernel module`);
      return { code: rewritten, map: null };
    },
  };
}

export default defineConfig({
  root: here('.'),
  base: './',
  publicDir: false,
  plugins: [namedKernelModules(), servingRules(), stampBuild()],
  // Preact's JSX runtime (tsconfig.json says the same to tsc).
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  resolve: {
    alias: [
      { find: /^node:fs\/promises$/, replacement: here('platform/fs-promises.ts') },
      { find: /^node:path$/, replacement: 'pathe' },
      { find: /^node:crypto$/, replacement: here('platform/crypto.ts') },
      { find: /^(\.\.?\/)+(input\/)?rule-systems\.js$/, replacement: here('platform/rule-systems.ts') },
    ],
  },
  // Worker bundles are built apart, with their own plugins: the compare worker loads rule systems too.
  worker: { format: 'es', plugins: () => [namedKernelModules()] },
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
