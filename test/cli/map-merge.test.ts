import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/capture.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * Map/merge for batch schedulers (`crucible run --shards … --out part.json`, `crucible merge`):
 * parts computed apart merge to the very bytes of the run on one machine, and a part that is
 * missing, duplicated, foreign or damaged is refused with exit 2 naming it.
 */

const SCENARIO = path.join(REPOSITORY, 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml');
// Five shards, the last one short: slices cut unevenly and a partial shard must both merge exactly.
const TRIALS = '300000';
const SEED = '20261122';
const run = (...args: string[]) => runCli(['run', SCENARIO, '--trials', TRIALS, '--seed', SEED, '--workers', '0', '--quiet', ...args]);

let directory: string;
const part = (name: string): string => path.join(directory, name);

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'crucible-merge-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('crucible run --shards and crucible merge', () => {
  it('merges parts (slices i/n and a range, given in any order) into the bytes of the run on one machine, text and JSON', async () => {
    const local = await run();
    const localJson = await run('--json');
    expect(local.status).toBe(0);
    // 3 slices of 5 shards: 0-0, 1-2, 3-4.
    for (const index of [0, 1, 2]) expect((await run('--shards', `${index}/3`, '--out', part(`slice-${index}.json`))).status).toBe(0);
    const merged = await runCli(['merge', part('slice-2.json'), part('slice-0.json'), part('slice-1.json')]);
    expect(merged.stderr).toBe('');
    expect(merged.status).toBe(0);
    expect(merged.stdout).toBe(local.stdout);
    expect((await runCli(['merge', '--json', part('slice-0.json'), part('slice-1.json'), part('slice-2.json')])).stdout).toBe(
      localJson.stdout,
    );
    // Ranges cut elsewhere merge the same; a slice past the shards is an empty part.
    expect((await run('--shards', '0-3', '--out', part('range-a.json'))).status).toBe(0);
    expect((await run('--shards', '4', '--out', part('range-b.json'))).status).toBe(0);
    expect((await run('--shards', '0/8', '--out', part('empty.json'))).status).toBe(0);
    expect((await runCli(['merge', part('range-a.json'), part('range-b.json'), part('empty.json')])).stdout).toBe(local.stdout);
  });

  it('refuses missing, duplicated, foreign and damaged parts: exit 2, one line each naming the file', async () => {
    const missing = await runCli(['merge', part('slice-0.json'), part('slice-2.json')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(
      /completedShards: shards 1-2 of 5 are in no part: compute them with crucible run \S+knights-vs-regenerating-ogre\.yaml --seed 20261122 --trials 300000 --shards 1-2 --out <file>/,
    );

    const duplicated = await runCli(['merge', part('slice-0.json'), part('slice-1.json'), part('slice-2.json'), part('range-b.json')]);
    expect(duplicated.status).toBe(2);
    expect(duplicated.stderr).toMatch(
      /range-b\.json: completedShards: shard 4 also in \S+slice-2\.json: each shard must be in one part only/,
    );

    expect(
      (
        await runCli([
          'run',
          SCENARIO,
          '--trials',
          TRIALS,
          '--seed',
          '7',
          '-w',
          '0',
          '-q',
          '--shards',
          '1-2',
          '--out',
          part('other-seed.json'),
        ])
      ).status,
    ).toBe(0);
    const foreign = await runCli(['merge', part('slice-0.json'), part('other-seed.json'), part('slice-2.json')]);
    expect(foreign.status).toBe(2);
    expect(foreign.stderr).toMatch(/other-seed\.json: seed: part of another run than \S+slice-0\.json .*seed 7\): its seed differs/);

    // One count changed: the checksum no longer holds, whatever else is right.
    const document = JSON.parse(await readFile(part('slice-1.json'), 'utf8')) as { cells: number[] };
    document.cells[0] = (document.cells[0] ?? 0) + 1;
    await writeFile(part('tampered.json'), JSON.stringify(document));
    await writeFile(part('cut.json'), (await readFile(part('slice-1.json'), 'utf8')).slice(0, 200));
    await writeFile(part('nested.json'), `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    const damaged = await runCli([
      'merge',
      part('slice-0.json'),
      part('tampered.json'),
      part('cut.json'),
      part('nested.json'),
      part('slice-2.json'),
    ]);
    expect(damaged.status).toBe(2);
    expect(damaged.stderr).toMatch(/tampered\.json: checksum: not a usable part file: its content does not match its checksum/);
    expect(damaged.stderr).toMatch(/cut\.json: \(root\): not a usable part file: not valid JSON/);
    // Refused before parsing: JSON.parse of deep nesting costs memory, and a walk of it the stack.
    expect(damaged.stderr).toMatch(
      /nested\.json: line 1, column \d+: not a usable part file: invalid JSON: .*nested more than 64 levels deep/,
    );
    expect(damaged.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses --shards outside the run, without --out, or with --precision', async () => {
    const outside = await run('--shards', '5-9', '--out', part('x.json'));
    expect(outside.status).toBe(2);
    expect(outside.stderr).toContain('this run has 5 shards (0-4), so shard 9 is not one of them');
    expect((await run('--shards', '0-1')).stderr).toContain('--shards needs --out: --shards 0-99 --out part-000.json');
    expect((await run('--shards', '3/2', '--out', part('x.json'))).stderr).toContain('--shards wants a range such as 0-99');
    const precision = await runCli(['run', SCENARIO, '--precision', '0.01', '--shards', '0-1', '--out', part('x.json')]);
    expect(precision.stderr).toContain('--shards computes part of a run of fixed --trials');
  });
});
