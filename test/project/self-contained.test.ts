import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPOSITORY, repositoryTree } from '../helpers/repository.js';

/**
 * A clone stands on its own: no file of the project names a path that climbs out of the
 * repository (such as the sibling `shared` folder the project was once built beside), whether code
 * reads it or a comment or a link cites it. Every relative path that climbs (`../…`) must land
 * inside the repository from the file's own folder, or — for the paths an example or a generated
 * file gives relative to another file (`unitsFile: ../units.yaml` in a scenario, a schema comment in an
 * army file) — name an existing file or folder of the repository from some folder in it.
 */

/** A relative path: one or more `../` steps and what follows, up to a quote, bracket, space or backtick. */
const CLIMBING_PATH = /(?<![\w/.])(?:\.\.\/)+[^\s'"`)\]>,;]*/g;

const { folders, files: allFiles, textFiles } = repositoryTree();
const existing = new Set([...folders, ...allFiles]);

const inside = (target: string): boolean => {
  const relative = path.relative(REPOSITORY, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

/** `file:line: path` for each climbing path in `file` that leaves the repository. */
function climbingPaths(file: string): string[] {
  const found: string[] = [];
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, index) => {
    for (const match of line.matchAll(CLIMBING_PATH)) {
      const given = match[0];
      const target = given.replace(/[#:].*$/, '').replace(/\/$/, '');
      if (inside(path.resolve(path.dirname(file), target))) continue;
      if (folders.some((folder) => existing.has(path.resolve(folder, target)))) continue;
      found.push(`${path.relative(REPOSITORY, file)}:${index + 1}: ${given}`);
    }
  });
  return found;
}

describe('the repository stands on its own', () => {
  it('finds the project files it checks', () => {
    const names = new Set(textFiles.map((file) => path.relative(REPOSITORY, file)));
    for (const expected of ['package.json', 'README.md', 'cli/main.ts', 'scripts/convert-warmaster.ts', 'data/warmaster/source/empire.tsv'])
      expect(names.has(expected), expected).toBe(true);
  });

  it('names no path that climbs out of the repository root', () => {
    expect(textFiles.flatMap(climbingPaths)).toEqual([]);
  });

  it('names no sibling shared/ folder', () => {
    const mentions = textFiles.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          /(^|[^\w-])shared\/(rules|data|rulings|design)/.test(line) ? [`${path.relative(REPOSITORY, file)}:${index + 1}`] : [],
        ),
    );
    expect(mentions).toEqual([]);
  });
});
