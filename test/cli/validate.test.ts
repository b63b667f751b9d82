import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/capture.js';

/**
 * `crucible validate` on every kind of file the project reads (issue 34): scenarios, rosters and each
 * rule system's data files, told apart by name or content — never "ruleset: missing" for an army or
 * faction file — and `--json`, one document of every file's kind and every problem.
 */

const folder = mkdtemp(path.join(tmpdir(), 'crucible-validate-'));
afterAll(async () => rm(await folder, { recursive: true, force: true }));

interface ValidateDocument {
  readonly files: readonly { readonly file: string; readonly kind: string; readonly ok: boolean }[];
  readonly problems: readonly { readonly file: string; readonly path: string; readonly message: string }[];
}

describe('validate: every kind of data file', () => {
  it('knows each bundled data file and roster for what it is, and finds all of them good', async () => {
    const files = [
      'data/heroic/units.yaml',
      'data/heroic/rosters/core.yaml',
      'data/warmaster/armies/empire.yaml',
      'data/warmaster/combat-flags.yaml',
      'data/battleforge/index.yaml',
      'data/battleforge/factions/orcs_and_goblins.yaml',
      'data/epic/armies.yaml',
      'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml',
    ];
    const result = await runCli(['validate', ...files, '--json']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const document = JSON.parse(result.stdout) as ValidateDocument;
    expect(document.problems).toEqual([]);
    expect(document.files.map(({ kind }) => kind)).toEqual([
      'heroic units file',
      'roster',
      'warmaster army file',
      'warmaster combat flags table',
      'battleforge index file',
      'battleforge faction file',
      'epic armies file',
      'scenario',
    ]);
    expect(document.files.every(({ ok }) => ok)).toBe(true);
  });

  it('checks an army or faction file by its own format, whatever its name, and names its problems', async () => {
    const army = path.join(await folder, 'my-army.yaml');
    await writeFile(army, (await readFile('data/warmaster/armies/orcs.yaml', 'utf8')).replace(/^source: .*$/m, 'source: ""'));
    const faction = path.join(await folder, 'elves.yaml');
    await writeFile(faction, (await readFile('data/battleforge/factions/high_elves.yaml', 'utf8')).replace(/^units:/m, 'unitz:'));
    const result = await runCli(['validate', army, faction, '--json']);
    expect(result.status).toBe(2);
    const document = JSON.parse(result.stdout) as ValidateDocument;
    expect(document.files).toEqual([
      { file: army, kind: 'warmaster army file', ok: false },
      { file: faction, kind: 'battleforge faction file', ok: false },
    ]);
    expect(document.problems.map(({ file, path: at }) => [file, at])).toEqual([
      [army, 'source'],
      [faction, 'units'],
      [faction, 'unitz'],
    ]);
    expect(result.stdout).not.toContain('ruleset');
  });

  it('run on a data file says what the file is, not that its ruleset is missing', async () => {
    const result = await runCli(['run', 'data/warmaster/armies/empire.yaml']);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      'data/warmaster/armies/empire.yaml: (root): this is a warmaster army file (data scenarios read), not a scenario: crucible validate checks it on its own\n',
    );
  });
});

describe('validate --json', () => {
  it('lists a missing path as a problem and no file; a scenario and its variants in one pass', async () => {
    const missing = await runCli(['validate', 'nowhere.yaml', '--json']);
    expect(missing.status).toBe(2);
    expect(JSON.parse(missing.stdout)).toEqual({
      files: [],
      problems: [{ file: 'nowhere.yaml', path: '(root)', message: 'no such file or directory' }],
    });
    const scenario = path.join(await folder, 'variants.yaml');
    await writeFile(
      scenario,
      (await readFile('data/heroic/scenarios/knights-vs-regenerating-ogre.yaml', 'utf8'))
        .replace('rounds: 20', 'rounds: 0')
        .replace('set: { "sides[0].groups[0].unit": ogre }', 'set: { "sides[0].groups[0].unit": nobody }'),
    );
    const result = await runCli(['validate', scenario, '--json']);
    const document = JSON.parse(result.stdout) as ValidateDocument;
    expect(document.files).toEqual([{ file: scenario, kind: 'scenario', ok: false }]);
    // The scenario's own problem once, and the variant's, though the scenario itself fails.
    expect(document.problems.map(({ path: at }) => at)).toEqual(['rounds', 'sides[0].groups[0].unit']);
  });

  it("lists a field's bad value and the loader's unknown unit together, and no problem the mending itself caused", async () => {
    const scenario = path.join(await folder, 'one-pass.yaml');
    // The knights' group is a formation: mended to 1 model it would be too few for one, to 2 enough — not the file's problem.
    await writeFile(
      scenario,
      (await readFile('data/heroic/scenarios/knights-vs-regenerating-ogre.yaml', 'utf8'))
        .replace('models: 3', 'models: -3')
        .replace('unit: ogre-regenerating', 'unit: ogre-regenerated'),
    );
    const result = await runCli(['validate', scenario]);
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      `${scenario}: sides[1].groups[0].models: must be an integer ≥ 1, got -3`,
      expect.stringMatching(
        new RegExp(`^${scenario.replaceAll('.', '\\.')}: sides\\[0\\]\\.groups\\[0\\]\\.unit: unknown unit "ogre-regenerated"`),
      ),
    ]);
  });
});
