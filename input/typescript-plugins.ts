/**
 * A user's plugin written in TypeScript (its descriptor, its kernel module) when crucible itself
 * runs compiled — the published package, or `node dist/lib/cli/bin.js`: plain Node 20 cannot import
 * a .ts file, so tsx's loader is registered on first need, in the thread that imports it (each
 * worker thread registers its own). tsx is then the one package a TypeScript plugin needs; a
 * JavaScript plugin needs none. From source (bin/crucible.js in a clone, vitest) TypeScript already
 * loads, and nothing is registered.
 */

const RUNNING_COMPILED = import.meta.url.endsWith('.js');
const TYPESCRIPT = /\.[cm]?tsx?$/;

let registered: Promise<void> | undefined;

async function registerTsx(): Promise<void> {
  let tsx: typeof import('tsx/esm/api');
  try {
    tsx = await import('tsx/esm/api');
  } catch {
    throw new Error(
      'a plugin written in TypeScript needs the tsx package to load: install it beside crucible (npm install tsx), or compile the plugin to JavaScript',
    );
  }
  tsx.register();
}

/** Makes `url` importable: registers tsx once when it names a TypeScript file and crucible runs compiled. */
export async function prepareImport(url: string): Promise<void> {
  if (!RUNNING_COMPILED || !TYPESCRIPT.test(new URL(url).pathname)) return;
  registered ??= registerTsx().catch((error: unknown) => {
    registered = undefined;
    throw error;
  });
  await registered;
}
