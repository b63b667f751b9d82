import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledDataDirectory } from '../../input/bundled-data.js';
import { InputError } from '../../input/errors.js';
import { provenanceOf } from '../../input/provenance.js';
import { loadScenarioFile } from '../../input/scenario-file.js';
import { runCli } from '../helpers/capture.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * A bundled scenario copied anywhere (scratch/, as the README suggests) still runs: its data fields
 * at their defaults (`armies: ../armies`, `data: ..`, `unitsFile: ../units.yaml`,
 * `armies: ../armies.yaml`) lead nowhere there, so it reads crucible's bundled data, with the same
 * profiles, and its results say so (engine/data-location.ts). A path the scenario sets is never
 * replaced: nothing there is a problem naming the path tried and the line that fixes it.
 */

/** The data field of each built-in, and the bundled data its default reads. */
const SYSTEMS = [
  { id: 'heroic', field: 'unitsFile', bundled: 'data/heroic/units.yaml', missing: 'units file not found' },
  { id: 'warmaster', field: 'armies', bundled: 'data/warmaster/armies', missing: 'army files directory not found' },
  { id: 'battleforge', field: 'data', bundled: 'data/battleforge', missing: 'Battle Forge data not found' },
  { id: 'epic', field: 'armies', bundled: 'data/epic/armies.yaml', missing: 'armies file not found' },
] as const;

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'crucible-anywhere-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const scenariosOf = async (id: string): Promise<string[]> =>
  (await readdir(path.join(REPOSITORY, 'data', id, 'scenarios'))).filter((name) => name.endsWith('.yaml')).sort();

async function problemsOf(file: string): Promise<string[]> {
  try {
    await loadScenarioFile(file);
  } catch (error) {
    if (error instanceof InputError) return error.problems.map((problem) => `${problem.path}: ${problem.message}`);
    throw error;
  }
  return [];
}

describe('a bundled scenario copied out of data/', () => {
  it("is the package root's data/ that holds the bundled data", () => {
    expect(bundledDataDirectory()).toBe(path.join(REPOSITORY, 'data'));
  });

  for (const system of SYSTEMS) {
    it(`${system.id}: loads the same profiles from the bundled ${system.bundled}, and its provenance says so`, async () => {
      const folder = path.join(root, system.id);
      await rm(folder, { recursive: true, force: true });
      await mkdir(folder, { recursive: true });
      for (const name of await scenariosOf(system.id)) {
        const original = path.join(REPOSITORY, 'data', system.id, 'scenarios', name);
        const copy = path.join(folder, name);
        await copyFile(original, copy);
        const [there, here] = [await loadScenarioFile(original), await loadScenarioFile(copy)];
        expect(here.refs, name).toEqual(there.refs);
        expect(there.bundled, name).toBeUndefined();
        expect(provenanceOf(there).bundledData, name).toBeUndefined();
        expect(provenanceOf(here).bundledData, name).toEqual({ [system.field]: system.bundled });
        expect(provenanceOf(here).unitsDigest, name).toBe(provenanceOf(there).unitsDigest);
      }
    });

    it(`${system.id}: a ${system.field} set to a path that holds nothing names it and the line that fixes it`, async () => {
      const [name] = await scenariosOf(system.id);
      const text = await readFile(path.join(REPOSITORY, 'data', system.id, 'scenarios', name as string), 'utf8');
      const file = path.join(root, `${system.id}-elsewhere.yaml`);
      await writeFile(file, `${system.field}: ./nowhere\n${text}`);
      const problems = await problemsOf(file);
      const bundled = path.join(REPOSITORY, system.bundled);
      expect(problems).toEqual([
        `${system.field}: ${system.missing}: ${path.join(root, 'nowhere')} (from ${system.field}: ./nowhere, relative to the scenario's folder); for crucible's bundled one, delete that line or write ${system.field}: ${bundled}`,
      ]);
      await writeFile(file, `${system.field}: ${bundled}\n${text}`);
      expect(await problemsOf(file)).toEqual([]);
    });
  }

  it('prints what the bundled copy prints, but for its file and a data line', async () => {
    const name = 'cavalry-charge-infantry-open.yaml';
    const copy = path.join(root, name);
    await copyFile(path.join(REPOSITORY, 'data/warmaster/scenarios', name), copy);
    const args = ['-n', '2000', '-s', '7', '--workers', '0'];
    const there = await runCli(['run', path.join(REPOSITORY, 'data/warmaster/scenarios', name), ...args]);
    const here = await runCli(['run', copy, ...args]);
    expect(here.status, here.stderr).toBe(0);
    const lines = here.stdout.split('\n');
    expect(lines).toContain(
      "  data     crucible's bundled data/warmaster/armies, for armies (its default finds nothing beside the scenario)",
    );
    const comparable = (text: string): string =>
      text
        .split('\n')
        .filter((line) => !/^ {2}(file|data) {5}/.test(line))
        .join('\n');
    expect(comparable(here.stdout)).toBe(comparable(there.stdout));
    expect(there.stdout).not.toMatch(/^ {2}data {5}/m);
    const json = JSON.parse((await runCli(['run', copy, ...args, '--json'])).stdout) as { bundledData?: unknown };
    expect(json.bundledData).toEqual({ armies: 'data/warmaster/armies' });
  });
});
