import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustPlugins, UntrustedPluginError } from '../../input/plugin-trust.js';
import { loadScenarioFile } from '../../input/scenario-file.js';
import { runCli } from '../helpers/capture.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * Issue 31: a scenario file is shared data, so naming a module in it (`ruleset: ../evil.mjs`) must
 * never run that module unless the user trusted it — with --plugin or in the config file
 * $CRUCIBLE_CONFIG names. The module here writes a marker file when imported, and passes for the
 * example plugin (it re-exports it), so a trusted run works end to end.
 */

/** A shared folder as a designer might receive it: evil.mjs, shared/volley.yaml naming ../evil.mjs, and shared/results.json naming that scenario. */
interface Project {
  readonly evil: string;
  readonly marker: string;
  readonly scenario: string;
  readonly results: string;
}

let root: string;
let heroicResult: Record<string, unknown>;
const homebrew = path.join(REPOSITORY, 'examples', 'homebrew');

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'crucible-plugin-trust-'));
  const run = await runCli([
    'run',
    path.join(REPOSITORY, 'data', 'heroic', 'scenarios', 'fire-cannon-skeletons.yaml'),
    '-n',
    '1000',
    '--json',
    '-q',
    '-w',
    '0',
  ]);
  expect(run.status, run.stderr).toBe(0);
  heroicResult = JSON.parse(run.stdout) as Record<string, unknown>;
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Each its own folder: a module is imported once per process, so each import to see needs its own. */
async function project(name: string): Promise<Project> {
  const folder = path.join(root, name);
  await mkdir(path.join(folder, 'shared'), { recursive: true });
  const evil = path.join(folder, 'evil.mjs');
  const marker = path.join(folder, 'imported');
  await writeFile(
    evil,
    `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'imported');\nexport { default } from ${JSON.stringify(path.join(homebrew, 'index.ts'))};\n`,
  );
  const scenario = path.join(folder, 'shared', 'volley.yaml');
  const volley = await readFile(path.join(homebrew, 'scenarios', 'volley.yaml'), 'utf8');
  await writeFile(scenario, `${volley.replace(/^ruleset: .*$/m, 'ruleset: ../evil.mjs')}unitsFile: ${path.join(homebrew, 'units.yaml')}\n`);
  // A results file shipped beside the scenario: `report` reads the scenario it names.
  const results = path.join(folder, 'shared', 'results.json');
  await writeFile(results, JSON.stringify({ ...heroicResult, file: scenario }));
  return { evil, marker, scenario, results };
}

const COMMANDS = ['validate', 'run', 'replay', 'report'] as const;
const argsOf = (command: (typeof COMMANDS)[number], at: Project): string[] =>
  command === 'report'
    ? ['report', at.results, '--out', path.join(root, 'reports')]
    : command === 'run'
      ? ['run', at.scenario, '-q']
      : [command, at.scenario];

describe('a scenario naming a module nobody trusted', () => {
  it.each([
    ['compare', ['--variant', 'any']],
    ['sweep', ['--set', 'rules.criticalFace=5,6', '-w', '0']],
  ])('is refused by %s too', async (command, rest) => {
    const at = await project('refused');
    const result = await runCli([command, at.scenario, ...rest]);
    expect(existsSync(at.marker)).toBe(false);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('this command was not told to trust: run with --plugin');
  });

  it.each(COMMANDS)('is refused before any import: %s', async (command) => {
    const at = await project('refused');
    const result = await runCli(argsOf(command, at));
    expect(existsSync(at.marker), `${command} imported the module`).toBe(false);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      `${at.scenario}: ruleset: "../evil.mjs" is a plugin module (${at.evil}) this command was not told to trust: run with --plugin`,
    );
    expect(result.stderr).toContain('if you trust its code');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('is refused by matchups and balance, whose roster template names it', async () => {
    const at = await project('refused');
    const roster = path.join(path.dirname(at.scenario), 'roster.yaml');
    const text = await readFile(path.join(homebrew, 'rosters', 'skirmish.yaml'), 'utf8');
    await writeFile(
      roster,
      text
        .replace('ruleset: ../index.ts', 'ruleset: ../evil.mjs')
        .replace('unitsFile: ../units.yaml', `unitsFile: ${path.join(homebrew, 'units.yaml')}`),
    );
    for (const args of [
      ['matchups', roster, '-w', '0'],
      ['balance', '--against', roster, '-w', '0'],
    ]) {
      const result = await runCli(args);
      expect(result.status, args[0]).toBe(2);
      expect(result.stderr).toContain('this command was not told to trust: run with --plugin');
    }
    expect(existsSync(at.marker)).toBe(false);
  });
});

describe('a module the user trusted', () => {
  it.each(COMMANDS)('runs with --plugin: %s', async (command) => {
    const at = await project(`trusted-${command}`);
    const result = await runCli([...argsOf(command, at), '--plugin', at.evil]);
    expect(result.status, `${command}: ${result.stderr}`).toBe(0);
    expect(existsSync(at.marker)).toBe(true);
  });

  it('runs when the config file $CRUCIBLE_CONFIG names lists it (relative to the config)', async () => {
    const at = await project('configured');
    const config = path.join(root, 'configured', 'crucible.config.yaml');
    await writeFile(config, 'plugins:\n  - ./evil.mjs\n');
    const result = await runCli(['validate', at.scenario], { CRUCIBLE_CONFIG: config });
    expect(result.status, result.stderr).toBe(0);
    expect(existsSync(at.marker)).toBe(true);
  });

  it('a config file with a wrong field or a missing module is exit 2 naming the file and the field', async () => {
    const at = await project('misconfigured');
    const config = path.join(root, 'misconfigured', 'crucible.config.yaml');
    await writeFile(config, 'plugin: [./evil.mjs]\n');
    const wrong = await runCli(['validate', at.scenario], { CRUCIBLE_CONFIG: config });
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain(`${config}:`);
    await writeFile(config, 'plugins: [./nowhere.mjs]\n');
    const missing = await runCli(['validate', at.scenario], { CRUCIBLE_CONFIG: config });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain(
      `${config}: plugins[0]: "./nowhere.mjs": no such file ${path.join(root, 'misconfigured', 'nowhere.mjs')}`,
    );
    expect(existsSync(at.marker)).toBe(false);
  });
});

describe('the library: built-ins only unless the caller passes plugins', () => {
  it('loadScenarioFile refuses the module by default, runs it given trustPlugins (by any name of the file)', async () => {
    const at = await project('library');
    const refused = await loadScenarioFile(at.scenario).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(UntrustedPluginError);
    expect(existsSync(at.marker)).toBe(false);
    // Trusted through a symbolic link: a module is matched by its real path.
    const link = path.join(root, 'library-link.mjs');
    await symlink(at.evil, link);
    const loaded = await loadScenarioFile(at.scenario, { plugins: trustPlugins([link]) });
    expect(loaded.plugin?.id).toBe('homebrew');
    expect(existsSync(at.marker)).toBe(true);
  });
});

describe('a package is trusted as the file its name resolves to, not by its name', () => {
  it('a package of the same name in a node_modules beside the scenario is still refused', async () => {
    const folder = path.join(root, 'packages');
    const write = async (where: string, marker: string): Promise<void> => {
      await mkdir(where, { recursive: true });
      await writeFile(path.join(where, 'package.json'), '{ "name": "fake-rules", "type": "module", "main": "index.mjs" }\n');
      await writeFile(
        path.join(where, 'index.mjs'),
        `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'imported');\nexport default {};\n`,
      );
    };
    const installed = path.join(folder, 'installed');
    const shipped = path.join(folder, 'shipped');
    await write(path.join(folder, 'node_modules', 'fake-rules'), installed);
    await write(path.join(folder, 'shared', 'node_modules', 'fake-rules'), shipped);
    const plugins = trustPlugins(['fake-rules'], folder);
    const beside = path.join(folder, 'shared', 'fight.yaml');
    await writeFile(beside, 'ruleset: fake-rules\nname: shipped with its own package\n');
    const refused = await loadScenarioFile(beside, { plugins }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(UntrustedPluginError);
    expect(existsSync(shipped)).toBe(false);
    const own = path.join(folder, 'fight.yaml');
    await writeFile(own, 'ruleset: fake-rules\nname: the installed package\n');
    const loaded = await loadScenarioFile(own, { plugins }).then(
      () => undefined,
      (error: unknown) => error,
    );
    // Imported (then refused as no rule system: it exports none), not refused as untrusted.
    expect(loaded).not.toBeInstanceOf(UntrustedPluginError);
    expect(existsSync(installed)).toBe(true);
  });
});
