import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/capture.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * What `crucible merge` trusts in a part file (issue 31): its checksum catches damage but anyone can
 * recompute it, so with $CRUCIBLE_SECRET parts carry an HMAC tag; parts of another crucible version,
 * impossible plans, and names that would drive the terminal are refused; missing shards are
 * summarised once. Parts here are forged the way an attacker would: counts changed, checksum redone.
 */

const SCENARIO = path.join(REPOSITORY, 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml');
const SECRET = { CRUCIBLE_SECRET: 'a-fleet-secret-of-24-chars' };
// Two shards, ~0.1 s each: the cheapest run that has parts.
const run = (out: string, shards: string, env: NodeJS.ProcessEnv = {}) =>
  runCli(['run', SCENARIO, '--trials', '70000', '--seed', '5', '--workers', '0', '--quiet', '--shards', shards, '--out', out], env);

type Part = Record<string, unknown> & { cells: number[]; checksum: string; tag?: string };
let directory: string;
const file = (name: string): string => path.join(directory, name);
const readPart = async (name: string): Promise<Part> => JSON.parse(await readFile(file(name), 'utf8')) as Part;
/** The part with its checksum recomputed, as anyone can: SHA-256 of the rest, as written. */
async function writeForged(name: string, part: Part): Promise<void> {
  const { checksum: _old, tag, ...body } = part;
  const checksum = createHash('sha256').update(JSON.stringify(body)).digest('hex');
  await writeFile(file(name), JSON.stringify({ ...body, checksum, ...(tag === undefined ? {} : { tag }) }));
}
/** Two counts of the first metric swapped: every histogram still sums to the trials, the numbers are wrong. */
const swapped = (part: Part): Part => {
  const cells = [...part.cells];
  [cells[1], cells[2]] = [cells[2] as number, cells[1] as number];
  expect(cells).not.toEqual(part.cells);
  return { ...part, cells };
};

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'crucible-part-trust-'));
  for (const [name, shards, env] of [
    ['plain-0.json', '0', {}],
    ['plain-1.json', '1', {}],
    ['tagged-0.json', '0', SECRET],
    ['tagged-1.json', '1', SECRET],
  ] as const) {
    expect((await run(file(name), shards, env)).status).toBe(0);
  }
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('merge and $CRUCIBLE_SECRET', () => {
  it('merges tagged parts with the secret to the numbers of untagged ones', async () => {
    const plain = await runCli(['merge', file('plain-0.json'), file('plain-1.json')]);
    const tagged = await runCli(['merge', file('tagged-0.json'), file('tagged-1.json')], SECRET);
    expect(tagged.stderr).toBe('');
    expect(tagged.status).toBe(0);
    expect(tagged.stdout).toBe(plain.stdout);
    expect((await readPart('tagged-0.json')).tag).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a forged part (counts changed, checksum recomputed), an untagged part, and a tagged one without the secret', async () => {
    await writeForged('forged.json', swapped(await readPart('tagged-1.json')));
    const forged = await runCli(['merge', file('tagged-0.json'), file('forged.json')], SECRET);
    expect(forged.status).toBe(2);
    expect(forged.stderr).toMatch(/forged\.json: tag: the part's tag does not match its content under CRUCIBLE_SECRET/);

    const { tag: _tag, ...untagged } = swapped(await readPart('tagged-1.json'));
    await writeForged('untagged.json', untagged as Part);
    const withoutTag = await runCli(['merge', file('tagged-0.json'), file('untagged.json')], SECRET);
    expect(withoutTag.status).toBe(2);
    expect(withoutTag.stderr).toMatch(/untagged\.json: tag: the part has no tag, and CRUCIBLE_SECRET is set/);

    const noSecret = await runCli(['merge', file('tagged-0.json'), file('tagged-1.json')]);
    expect(noSecret.status).toBe(2);
    expect(noSecret.stderr).toMatch(/tagged-0\.json: tag: the part carries a tag .* but CRUCIBLE_SECRET is not set/);

    const short = await runCli(['merge', file('plain-0.json')], { CRUCIBLE_SECRET: 'short' });
    expect(short.status).toBe(2);
    expect(short.stderr).toMatch(/^\$CRUCIBLE_SECRET: \(root\): CRUCIBLE_SECRET must be at least 16 characters/);
  });

  it('refuses parts of another crucible version, or of one that recorded none', async () => {
    await writeForged('newer.json', { ...(await readPart('plain-1.json')), crucibleVersion: '0.2.0' });
    const { crucibleVersion: _version, ...old } = await readPart('plain-1.json');
    await writeForged('old.json', old as Part);
    const result = await runCli(['merge', file('plain-0.json'), file('newer.json'), file('old.json')]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(
      /newer\.json: crucibleVersion: part made by crucible "0\.2\.0", this is crucible \d+\.\d+\.\d+: parts merge only with parts of the same version/,
    );
    expect(result.stderr).toMatch(/old\.json: crucibleVersion: part made by a crucible that records no version/);
  });
});

describe('what merge takes from a part, and what it prints', () => {
  it('refuses names holding escape sequences or bidi overrides, and never prints them raw (parts and checkpoints)', async () => {
    const hostile = 'Ogre \u001b]0;owned\u0007 \u202eevil';
    for (const name of ['plain-0.json', 'plain-1.json']) {
      const part = await readPart(name);
      await writeForged(`hostile-${name}`, { ...part, header: { ...(part.header as object), scenario: hostile } });
    }
    const merged = await runCli(['merge', file('hostile-plain-0.json'), file('hostile-plain-1.json')]);
    expect(merged.status).toBe(2);
    expect(merged.stderr).toMatch(/hostile-plain-0\.json: header\.scenario: not a usable part file: holds the control character U\+001B/);
    expect(`${merged.stdout}${merged.stderr}`).not.toMatch(/[\u001b\u0007\u202e]/);

    // A checkpoint's scenario name is printed when it belongs to another run: escaped.
    const checkpoint = file('hostile.ckpt');
    const args = ['run', SCENARIO, '--trials', '70000', '--seed', '5', '--workers', '0', '--quiet', '--checkpoint', checkpoint];
    expect((await runCli(args)).status).toBe(0);
    const document = JSON.parse(await readFile(checkpoint, 'utf8')) as Part;
    await writeForged('hostile.ckpt', { ...document, scenario: { name: hostile, digest: 'f'.repeat(64) } });
    const resumed = await runCli(args);
    expect(resumed.status).toBe(2);
    expect(resumed.stderr).toContain('checkpoint of another scenario or units file ("Ogre \\u001b]0;owned\\u0007 \\u202eevil"');
    expect(resumed.stderr).not.toMatch(/[\u001b\u0007\u202e]/);
  });

  it('refuses a plan of more trials than a run may have, rather than failing to size it', async () => {
    await writeForged('huge.json', { ...(await readPart('plain-0.json')), plan: { trials: Number.MAX_SAFE_INTEGER } });
    const result = await runCli(['merge', file('huge.json')]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^\S+huge\.json: plan\.trials: not a usable part file: .*1000000000000/);
    expect(result.stderr).not.toContain('Invalid typed array length');
  });

  it('names the missing shards once, as a few ranges and a count, whatever their number', async () => {
    // One part holding every other shard of 10,000: 5,000 ranges missing.
    const part = await readPart('plain-0.json');
    const ranges = Array.from({ length: 5000 }, (_, i) => [2 * i, 2 * i + 1]);
    await writeForged('sparse.json', {
      ...part,
      plan: { trials: 65536 * 10_000 },
      completedShards: ranges,
      trials: 65536 * 5000,
      cells: part.cells.map((cell) => cell * 5000),
    });
    const result = await runCli(['merge', file('sparse.json')]);
    expect(result.status).toBe(2);
    expect(result.stderr.split('\n').filter((line) => line.includes('in no part'))).toHaveLength(1);
    expect(result.stderr).toMatch(
      /sparse\.json: completedShards: 5,000 shards of 10000 are in no part, in 5,000 ranges \(1, 3, 5, .*, 19, … and 4,990 more ranges\): compute each range with crucible run \S+ --seed 5 --trials 655360000 --shards 1-1 --out <file>, and so on/,
    );
    expect(result.stderr.length).toBeLessThan(1000);
  });
});
