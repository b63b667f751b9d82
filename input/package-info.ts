import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where crucible's own files are, and its version, for the code that runs from source (input/x.ts
 * in a clone) and compiled (dist/lib/input/x.js in a clone or in an installed package) alike: the
 * nearest package.json above this file is crucible's (the build writes none inside dist/lib).
 * Files shipped beside the code — the workbench's build in dist/web, the bundled data — are found
 * from here, never from a relative path that differs between the two layouts.
 */

function packageAbove(file: string): { readonly root: string; readonly version: string } {
  for (let directory = path.dirname(file); ; directory = path.dirname(directory)) {
    let text: string | undefined;
    try {
      text = readFileSync(path.join(directory, 'package.json'), 'utf8');
    } catch {
      if (path.dirname(directory) === directory)
        throw new Error(`no package.json above ${file}: crucible's files are not where they belong`);
    }
    if (text !== undefined) return { root: directory, version: (JSON.parse(text) as { version: string }).version };
  }
}

const found = packageAbove(fileURLToPath(import.meta.url));

/** The folder holding crucible's package.json: the clone's root, or node_modules/<name> when installed. */
export const PACKAGE_ROOT: string = found.root;

/** Crucible's version (package.json's): results, part files and queue jobs carry it. */
export const CRUCIBLE_VERSION: string = found.version;

/** The bundled units, armies, factions, scenarios and rosters (data/): `path.join(BUNDLED_DATA, 'heroic/scenarios/…')`. */
export const BUNDLED_DATA: string = path.join(PACKAGE_ROOT, 'data');
