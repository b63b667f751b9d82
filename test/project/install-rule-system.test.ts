import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * A rule system plugs in through its folder alone: the example plugin (examples/homebrew), copied
 * to engine/homebrew/ of a copy of the repository's engine, loading, simulation and scripts, with
 * its import and its name added to the list in engine/registry.ts — nothing else — passes the
 * shared kernel contract and loading fuzz (test/sim/, run by vitest in the copy) and has its
 * README's field tables checked by `npm run check:docs` (scripts/docs-tables.ts), all reading it
 * through the registry. What the copy leaves out (analysis/, cli/, web/…) these do not import.
 * KEEP_COPY=1 keeps the copy (its path: the test's error, or /tmp/crucible-install-*).
 */

const run = promisify(execFile);
/** The shared suites run on it: the kernel contract, and the loading fuzz (its examples.ts gives both their scenarios). */
const SUITES = ['test/sim/kernel-contract.test.ts', 'test/sim/fuzz-rule-systems.test.ts'];
/** What the suite and the script import, copied; node_modules is linked. */
const COPIED = [
  'engine',
  'input',
  'statistics',
  'sim',
  'scripts',
  'test/helpers',
  'test/setup.ts',
  ...SUITES,
  'examples/homebrew',
  'package.json',
  'tsconfig.json',
];
const VITEST = path.join(REPOSITORY, 'node_modules', 'vitest', 'vitest.mjs');
const TSX = path.join(REPOSITORY, 'node_modules', 'tsx', 'dist', 'cli.mjs');

/** This process's environment without vitest's own variables, so the inner run is a run of its own. */
const environment = (): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(VITEST|TEST$|NODE_OPTIONS$)/.test(name)));

let copy: string;

beforeAll(async () => {
  copy = await mkdtemp(path.join(os.tmpdir(), 'crucible-install-'));
  for (const entry of COPIED) {
    await mkdir(path.dirname(path.join(copy, entry)), { recursive: true });
    await cp(path.join(REPOSITORY, entry), path.join(copy, entry), { recursive: true });
  }
  await symlink(await realpath(path.join(REPOSITORY, 'node_modules')), path.join(copy, 'node_modules'));
  // The repository's vitest config sets up browsers and builds the workbench: this run needs neither.
  // One fork for both files, sharing their modules: the least CPU.
  await writeFile(
    path.join(copy, 'vitest.config.ts'),
    "export default { test: { include: ['test/**/*.test.ts'], setupFiles: ['test/setup.ts'], pool: 'forks', maxWorkers: 1, isolate: false, testTimeout: 60000 } };\n",
  );

  // The installation: one folder…
  await cp(path.join(REPOSITORY, 'examples', 'homebrew'), path.join(copy, 'engine', 'homebrew'), { recursive: true });
  // …and one line in the list.
  const list = path.join(copy, 'engine', 'registry.ts');
  const text = await readFile(list, 'utf8');
  const installed = text.replace(
    /^(export const BUILT_IN_RULE_SYSTEMS: readonly BuiltInRuleSystem\[\] = \[\n(?:.*\n)*?)\];/m,
    "$1  { id: 'homebrew', module: () => import('./homebrew/index.js') },\n];",
  );
  expect(installed.split('\n').length - text.split('\n').length).toBe(1);
  await writeFile(list, installed);
});

afterAll(async () => {
  if (copy !== undefined && process.env.KEEP_COPY === undefined) await rm(copy, { recursive: true, force: true });
});

describe('the example plugin installed as a built-in (engine/homebrew/ and a line in engine/registry.ts)', () => {
  it('passes the shared kernel contract and loading fuzz, read through the registry', async () => {
    const report = path.join(copy, 'suites.json');
    const args = [VITEST, 'run', ...SUITES, '-t', 'homebrew|covers every rule system', '--reporter=json', `--outputFile=${report}`];
    await run(process.execPath, args, { cwd: copy, env: environment(), maxBuffer: 16 * 2 ** 20 }).catch((error: unknown) => {
      throw new Error(
        `vitest in ${copy} failed: ${String((error as { stdout?: unknown }).stdout ?? '').slice(-3000)}${String((error as { stderr?: unknown }).stderr ?? error).slice(-3000)}`,
      );
    });
    const results = JSON.parse(await readFile(report, 'utf8')) as {
      numFailedTests: number;
      testResults: { assertionResults: { fullName: string; status: string }[] }[];
    };
    const ran = results.testResults.flatMap((file) => file.assertionResults).filter((test) => test.status !== 'skipped');
    expect(results.numFailedTests).toBe(0);
    // Each suite covers the registry, homebrew now in it…
    expect(ran.filter((test) => test.fullName.includes('covers every rule system')).map((test) => test.status)).toEqual([
      'passed',
      'passed',
    ]);
    // …and runs on it what it runs on any built-in: every property of the contract, on its action and its fight, both draw methods; the fuzz's cases.
    const homebrew = ran.filter((test) => test.fullName.includes('homebrew'));
    expect(homebrew.filter((test) => test.fullName.startsWith('kernel contract:')).length).toBeGreaterThanOrEqual(20);
    expect(homebrew.filter((test) => test.fullName.includes('malformed')).length).toBeGreaterThanOrEqual(2);
    expect(homebrew.every((test) => test.status === 'passed')).toBe(true);
  });

  it("has its README's field tables generated and checked with the built-ins'", async () => {
    const { stdout } = await run(process.execPath, [TSX, 'scripts/docs-tables.ts', '--check'], { cwd: copy, env: environment() });
    expect(stdout).toContain('engine/homebrew/README.md');
  });
});
