import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { loadBuiltInRuleSystems } from '../../engine/registry.js';
import { capture, type CliRun, runCli } from '../helpers/capture.js';
import { REPOSITORY } from '../helpers/repository.js';

/** The built-ins' descriptors, in the registry's order. */
const RULE_SYSTEMS = await loadBuiltInRuleSystems();

/**
 * The CLI as a user runs it, checking stdout, stderr and the exit status: in process through
 * `main(argv, io)` (the same code the binary runs), and once through `node bin/crucible.js` itself
 * to check the binary's wiring: exit status, streams, no stack trace.
 */

const repository = REPOSITORY;
const binary = path.join(repository, 'bin', 'crucible.js');

/** `crucible …` as a child process. */
function spawned(...args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [binary, ...args],
      { cwd: repository, env: { ...process.env, CRUCIBLE_DEBUG: '' } },
      (error, stdout, stderr) => {
        const status = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ status, stdout, stderr });
      },
    );
  });
}

/** `crucible …` in this process, as the binary would run it (no CRUCIBLE_DEBUG). */
const crucible = (...args: string[]): Promise<CliRun> => runCli(args);

const STACK_LINE = /^ {4}at /m;

const UNITS = `units:
  - { id: sylvan-knight, name: Sylvan Knight, madeUp: true, def: 4, shield: true, might: 2, will: 4, dex: 5,
      weapons: [{ name: Lance, type: melee, atk: 3 }] }
  - { id: ogre, name: Ogre, madeUp: true, def: 3, might: 8, will: 3, regenerates: true,
      weapons: [{ name: Club, type: melee, atk: 4 }] }
`;
const SCENARIO = `ruleset: heroic
name: Knights vs Ogre
mode: engagement
trials: 3000
sides:
  - { name: Knights, groups: [{ id: knights, unit: sylvan-knight, models: 3, formation: true }] }
  - { name: Ogre, groups: [{ id: ogre, unit: ogre, models: 1 }] }
`;

let root: string;
let good: string;
let bad: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'crucible-cli-'));
  await mkdir(path.join(root, 'scenarios'));
  await writeFile(path.join(root, 'units.yaml'), UNITS);
  good = path.join(root, 'scenarios', 'knights-vs-ogre.yaml');
  bad = path.join(root, 'scenarios', 'bad.yaml');
  await writeFile(good, SCENARIO);
  await writeFile(bad, SCENARIO.replace('models: 3, formation: true', 'models: -2, formation: true'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('bin/crucible.js (spawned)', () => {
  it('--help exits 0 on stdout; a bad file exits 2 with the file and field on stderr and no stack trace', async () => {
    const [help, invalid] = await Promise.all([spawned('--help'), spawned('validate', good, bad)]);
    expect(help.status).toBe(0);
    for (const word of ['run', 'validate', 'schema', 'Examples:', 'Exit status']) expect(help.stdout).toContain(word);
    expect(invalid.status).toBe(2);
    expect(invalid.stdout).toBe(`ok ${good}\n`);
    expect(invalid.stderr).toBe(`${bad}: sides[0].groups[0].models: must be an integer ≥ 1, got -2\n`);
  });
});

describe('crucible', () => {
  it('--help lists every command with examples', async () => {
    const result = await crucible('--help');
    expect(result.status).toBe(0);
    for (const word of ['run', 'validate', 'schema', 'Examples:', 'Exit status']) expect(result.stdout).toContain(word);
  });

  it('run --help explains every option', async () => {
    const result = await crucible('run', '--help');
    expect(result.status).toBe(0);
    for (const word of ['--trials', '--seed', '--json', '--quiet', '--method', 'mc-dice', 'Examples:'])
      expect(result.stdout).toContain(word);
  });

  it('validate on a bad file: exit 2, the file and field on stderr, no stack trace', async () => {
    const result = await crucible('validate', good, bad);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe(`ok ${good}\n`);
    expect(result.stderr).toContain(`${bad}: sides[0].groups[0].models: must be an integer ≥ 1, got -2`);
    expect(result.stderr).not.toMatch(STACK_LINE);
  });

  it('run --json twice prints identical stdout', async () => {
    const args = ['run', good, '--json', '--trials', '2000', '--seed', '7'];
    const [first, second] = await Promise.all([crucible(...args), crucible(...args)]);
    expect(first.status).toBe(0);
    expect(first.stderr).toBe('');
    expect(second.stdout).toBe(first.stdout);
    const document = JSON.parse(first.stdout) as Record<string, unknown>;
    expect(document).toMatchObject({ scenario: 'Knights vs Ogre', file: good, seed: 7, trials: 2000, ruleset: 'heroic' });
    expect(typeof document.engineVersion).toBe('string');
    const metrics = document.metrics as { name: string }[];
    expect(metrics.map((metric) => metric.name)).toContain('winner');
  });

  it('run prints a readable table; timings only on stderr', async () => {
    const result = await crucible('run', good);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Knights vs Ogre');
    expect(result.stdout).toContain('trials   3,000');
    expect(result.stdout).toMatch(/winner\s+none\s+\d+\.\d+%\s+\[/);
    expect(result.stdout).not.toMatch(/trials\/s/);
    expect(result.stderr).toMatch(/trials\/s/);
  });

  it('a bad --trials is exit 2 with a clear message', async () => {
    const result = await crucible('run', good, '--trials', '-5');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--trials');
    expect(result.stderr).toContain('whole number');
    expect(result.stderr).not.toMatch(STACK_LINE);
  });

  it('run with a missing path or a bad file is exit 2, and nothing is simulated', async () => {
    const missing = path.join(root, 'nope.yaml');
    const [missingResult, badResult] = await Promise.all([crucible('run', good, missing), crucible('run', good, bad)]);
    expect(missingResult.status).toBe(2);
    expect(missingResult.stderr).toBe(`${missing}: (root): no such file or directory\n`);
    expect(missingResult.stdout).toBe('');
    expect(badResult.status).toBe(2);
    expect(badResult.stderr).toBe(`${bad}: sides[0].groups[0].models: must be an integer ≥ 1, got -2\n`);
    expect(badResult.stdout).toBe('');
  });

  it('schema writes the committed schema files', async () => {
    const out = path.join(root, 'schema-out');
    const result = await crucible('schema', '--out', out);
    expect(result.status).toBe(0);
    const names = (await readdir(out)).sort();
    // Every rule system engine/registry.ts lists: its scenario format, and its data files' (heroic's units, epic's armies).
    for (const system of RULE_SYSTEMS)
      for (const name of [`${system.id}-scenario.schema.json`, ...(system.dataSchemas ?? []).map((file) => file.name)])
        expect(names).toContain(name);
    for (const name of names) {
      const written = await readFile(path.join(out, name), 'utf8');
      const committed = await readFile(path.join(repository, 'schema', name), 'utf8');
      expect(written, `schema/${name} is stale: run node bin/crucible.js schema`).toBe(committed);
      // A scenario file may declare variants (crucible compare): its schema must not flag them.
      if (name.endsWith('-scenario.schema.json')) expect(JSON.parse(written).properties, name).toHaveProperty('variants');
    }
  });
});

describe('main (in process)', () => {
  it('an unexpected error is exit 1 with a hint and no stack, unless CRUCIBLE_DEBUG=1', async () => {
    const failingIo = {
      stdout: () => {
        throw new Error('disk on fire');
      },
    };
    const quiet = capture();
    expect(await main(['run', good, '--trials', '10', '--quiet'], { ...quiet.io, ...failingIo }, {})).toBe(1);
    expect(quiet.output().stderr).toContain('crucible: unexpected error: disk on fire');
    expect(quiet.output().stderr).toContain('CRUCIBLE_DEBUG=1');
    expect(quiet.output().stderr).not.toMatch(STACK_LINE);

    const debug = capture();
    expect(await main(['run', good, '--trials', '10', '--quiet'], { ...debug.io, ...failingIo }, { CRUCIBLE_DEBUG: '1' })).toBe(1);
    expect(debug.output().stderr).toMatch(STACK_LINE);
  });

  it('an unknown command is exit 2', async () => {
    const run = capture();
    expect(await main(['run-all', 'x'], run.io, {})).toBe(2);
    expect(run.output().stderr).toContain("unknown command 'run-all'");
  });

  describe('--method', () => {
    const attack = path.join(repository, 'data/heroic/scenarios/sylvan-knights-formation.yaml');
    const run = (...args: string[]) => runCli(['run', ...args]);

    it('auto answers a single attack exactly: "method exact", the paths, the error bound, no seed or trials', async () => {
      const result = await run(attack, '--quiet');
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/method {3}exact: every outcome enumerated \(13 paths; each probability within ±\d\.\de-1\d\)/);
      expect(result.stdout).not.toContain('seed');
      // 3 Knights × 3 dice vs DEF 3 (sixes 2), MIGHT 4: P(fewer than 4 Wounds) is a sum of exact terms.
      expect(result.stdout).toMatch(/Sylvan Knights +74\.51%/);
      const json = JSON.parse((await run(attack, '--json')).stdout) as {
        method: string;
        exact: { paths: number; errorBound: number };
        trials?: number;
      };
      expect(json.method).toBe('exact');
      expect(json.exact.paths).toBe(13);
      expect(json.exact.errorBound).toBeLessThan(1e-12);
      expect(json.trials).toBeUndefined();
    });

    it('--trials (or mc) runs Monte Carlo from tables; mc-dice rolls every die; both say so', async () => {
      const tables = await run(attack, '--quiet', '--trials', '2000');
      expect(tables.stdout).toContain('method   Monte Carlo (outcomes drawn from exact tables)');
      expect(tables.stdout).toContain('trials   2,000');
      const dice = await run(attack, '--quiet', '--trials', '2000', '--method', 'mc-dice');
      expect(dice.stdout).toContain('method   Monte Carlo (every die rolled)');
      expect(JSON.parse((await run(good, '--json', '--method', 'mc')).stdout).method).toBe('mc');
    });

    it('exact on a chain, or with Monte Carlo options, is exit 2 with a clear message', async () => {
      const chain = await run(good, '--method', 'exact');
      expect(chain.status).toBe(2);
      expect(chain.stderr).toContain('draws over its paths): too many to enumerate; run it by Monte Carlo with --method mc');
      const mixed = await run(attack, '--method', 'exact', '--trials', '100');
      expect(mixed.status).toBe(2);
      expect(mixed.stderr).toContain('--method exact enumerates every outcome');
      const unknown = await run(attack, '--method', 'fast');
      expect(unknown.status).toBe(2);
      expect(unknown.stderr).toContain('Allowed choices are auto, exact, mc, mc-dice');
    });
  });

  it('several scenarios give a JSON array', async () => {
    const copy = path.join(root, 'scenarios', 'copy.yaml');
    await writeFile(copy, SCENARIO.replace('Knights vs Ogre', 'Copy'));
    const both = capture();
    expect(await main(['run', good, copy, '--json', '--trials', '50'], both.io, {})).toBe(0);
    const documents = JSON.parse(both.output().stdout) as { scenario: string }[];
    expect(documents.map((document) => document.scenario)).toEqual(['Knights vs Ogre', 'Copy']);
  });
});
