#!/usr/bin/env node
// The `crucible` command. A clone of the repository runs its TypeScript as it stands (tsx compiles
// it while loading: no build between an edit and a test); the published package holds only the
// compiled code (dist/lib, made by `npm run build`), which plain Node runs. In a clone, the compiled
// command is `node dist/lib/cli/bin.js` after a build. register() must run before the TypeScript
// is loaded, hence the dynamic imports.
import { existsSync } from 'node:fs';

const source = new URL('../cli/bin.ts', import.meta.url);
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
} else {
  await import('../dist/lib/cli/bin.js');
}
