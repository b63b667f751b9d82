import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEROIC_ENGINE_VERSION } from '../../engine/heroic/index.js';
import { runCli } from '../helpers/capture.js';
import { halfWidths } from '../../statistics/precision.js';
import { loadCheckpoint, type RunIdentity, saveCheckpoint } from '../../sim/checkpoint.js';
import { InputError } from '../../input/errors.js';
import { InProcessExecutor } from '../../sim/in-process-executor.js';
import { runTrials, SHARD_TRIALS } from '../../sim/run.js';
import { type RunSnapshot, runSharded, type ShardedRunOptions } from '../../sim/sharded-run.js';
import type { Tally } from '../../statistics/tally.js';
import { cellBytes, ENGAGEMENT_FILE, engagementFixture, type ShardedFixture, poolCache } from '../helpers/sharded.js';

/**
 * Checkpoints: a run stopped part-way and resumed ends with the very bytes of an uninterrupted
 * run (also across worker counts); a damaged checkpoint, or one of another run, is refused with
 * one line naming the file and what is wrong.
 */

const TRIALS = 7 * SHARD_TRIALS + 999;
const SEED = 77;
let fixture: ShardedFixture;
let directory: string;
const { pool, closeAll: closePools } = poolCache();

beforeAll(async () => {
  fixture = await engagementFixture();
  directory = await mkdtemp(path.join(os.tmpdir(), 'crucible-checkpoint-'));
});

afterAll(async () => {
  await closePools();
  await rm(directory, { recursive: true, force: true });
});

const identity = (overrides: Partial<RunIdentity> = {}): RunIdentity => ({
  scenarioName: 'Knights vs Ogre',
  scenarioDigest: fixture.spec.digest,
  engineVersion: fixture.kernel.engineVersion,
  seed: SEED,
  plan: { trials: TRIALS },
  method: 'mc',
  ...overrides,
});

const plan = (trials = TRIALS) => ({ spec: fixture.spec, metrics: fixture.kernel.metrics, seed: SEED, trials });

/** Run until `stopAfterTrials` trials are done, then ask the run to stop (as Ctrl-C does); returns the checkpoint file. */
async function interruptedRun(
  name: string,
  runIdentity: RunIdentity,
  stopAfterTrials: number,
  extra: ShardedRunOptions,
  hard: boolean,
  workers = 2,
): Promise<string> {
  const file = path.join(directory, name);
  const finish = new AbortController();
  const drop = new AbortController();
  const outcome = await runSharded(pool(workers), plan(extra.stopWhen === undefined ? TRIALS : 40 * SHARD_TRIALS), {
    ...extra,
    finishSignal: finish.signal,
    dropSignal: drop.signal,
    checkpoint: { save: (snapshot: RunSnapshot) => saveCheckpoint(file, runIdentity, snapshot), everyMilliseconds: 0 },
    onProgress: ({ trialsDone }) => {
      if (trialsDone >= stopAfterTrials) {
        finish.abort();
        if (hard) drop.abort();
      }
    },
  });
  expect(outcome.interrupted).toBe(true);
  return file;
}

describe('resume', () => {
  it.each([
    ['finishing the shards in flight', false],
    ['dropping the shards in flight', true],
  ])('an interrupted run (%s), resumed on another worker count, equals an uninterrupted one', async (_, hard) => {
    const reference = runTrials(fixture.kernel, { seed: SEED, trials: TRIALS });
    const file = await interruptedRun(`fixed-${hard}.json`, identity(), 2 * SHARD_TRIALS, {}, hard);
    const resumeFrom = await loadCheckpoint(file, identity(), fixture.kernel.metrics);
    expect(resumeFrom).toBeDefined();
    expect(resumeFrom?.trials).toBeGreaterThanOrEqual(2 * SHARD_TRIALS);
    expect(resumeFrom?.trials).toBeLessThan(TRIALS);
    for (const executor of [pool(1), new InProcessExecutor()]) {
      const outcome = await runSharded(executor, plan(), resumeFrom === undefined ? {} : { resumeFrom });
      expect(outcome.tally.trials).toBe(TRIALS);
      expect(cellBytes(outcome.tally.cells).equals(cellBytes(reference.cells))).toBe(true);
    }
  });

  it('a --precision run resumed stops at the same shard with the same tally', async () => {
    const stopWhen = (tally: Tally): boolean => halfWidths(tally).widest <= 0.0018;
    const precisionIdentity = identity({ plan: { precision: 0.0018, maxTrials: 40 * SHARD_TRIALS } });
    const uninterrupted = await runSharded(new InProcessExecutor(), plan(40 * SHARD_TRIALS), { stopWhen });
    // One worker completes shards in order, and dropping (not finishing) the shards in flight
    // stops well before the rule could hold: the checkpoint holds exactly shards 0 and 1.
    const file = await interruptedRun('precision.json', precisionIdentity, 2 * SHARD_TRIALS, { stopWhen }, true, 1);
    const resumeFrom = await loadCheckpoint(file, precisionIdentity, fixture.kernel.metrics);
    expect(resumeFrom?.completed).toEqual([[0, 2]]);
    expect(resumeFrom?.trials).toBeLessThan(uninterrupted.tally.trials);
    const resumed = await runSharded(pool(2), plan(40 * SHARD_TRIALS), { stopWhen, ...(resumeFrom === undefined ? {} : { resumeFrom }) });
    expect(resumed.stopRuleMet).toBe(true);
    expect(resumed.tally.trials).toBe(uninterrupted.tally.trials);
    expect(cellBytes(resumed.tally.cells).equals(cellBytes(uninterrupted.tally.cells))).toBe(true);
  });
});

describe('refused checkpoints', () => {
  let good: string;
  let goodText: string;

  beforeAll(async () => {
    good = path.join(directory, 'good.json');
    const tally = runTrials(fixture.kernel, { seed: SEED, trials: 2 * SHARD_TRIALS });
    await saveCheckpoint(good, identity(), { completed: [[0, 2]], cells: tally.cells, trials: tally.trials });
    goodText = await readFile(good, 'utf8');
  });

  /** The one problem loading `text` (as a checkpoint of `runIdentity`) reports. */
  async function refusal(text: string, runIdentity: RunIdentity = identity(), metrics = fixture.kernel.metrics): Promise<string> {
    const file = path.join(directory, 'candidate.json');
    await writeFile(file, text);
    try {
      await loadCheckpoint(file, runIdentity, metrics);
    } catch (error) {
      expect(error).toBeInstanceOf(InputError);
      return (error as InputError).message;
    }
    throw new Error('the checkpoint was accepted');
  }

  it('accepts its own checkpoint, and no file means a fresh start', async () => {
    expect((await loadCheckpoint(good, identity(), fixture.kernel.metrics))?.trials).toBe(2 * SHARD_TRIALS);
    expect(await loadCheckpoint(path.join(directory, 'absent.json'), identity(), fixture.kernel.metrics)).toBeUndefined();
  });

  it('refuses a damaged file', async () => {
    expect(await refusal(goodText.slice(0, 100))).toMatch(/candidate\.json: \(root\): damaged checkpoint: not valid JSON/);
    // One count changed: the checksum no longer matches.
    const document = JSON.parse(goodText) as { cells: number[]; checksum: string };
    const tampered = { ...document, cells: document.cells.map((count, i) => (i === 0 ? count + 1 : count)) };
    expect(await refusal(JSON.stringify(tampered))).toMatch(/checksum: damaged checkpoint: its content does not match its checksum/);
    expect(await refusal(JSON.stringify({ ...document, cells: 'lots' }))).toMatch(/cells: damaged checkpoint: must be a list/);
    expect(await refusal('{}')).toMatch(/damaged checkpoint/);
    // Counts changed consistently with a recomputed checksum still have to add up.
    const { checksum: _, ...body } = document;
    const inconsistent = { ...body, cells: body.cells.map((count, i) => (i === 1 ? count + 1 : count)) };
    const resealed = { ...inconsistent, checksum: createHash('sha256').update(JSON.stringify(inconsistent)).digest('hex') };
    expect(await refusal(JSON.stringify(resealed))).toMatch(
      /cells: damaged checkpoint: the histogram of winner holds 131073 trials, not 131072/,
    );
  });

  it('refuses a checkpoint from before --method as made by an older version, not as damaged (issue 17 L11)', async () => {
    const { checksum: _, method: __, ...old } = JSON.parse(goodText) as { checksum: string; method: string };
    const sealed = { ...old, checksum: createHash('sha256').update(JSON.stringify(old)).digest('hex') };
    const message = await refusal(JSON.stringify(sealed));
    expect(message).toMatch(/candidate\.json: method: checkpoint made by an older version of crucible/);
    expect(message).not.toMatch(/damaged|checksum/);
  });

  it('refuses, one line each, a checkpoint of another seed, scenario, engine or plan', async () => {
    expect(await refusal(goodText, identity({ seed: 78 }))).toMatch(
      /candidate\.json: seed: checkpoint made with seed 77, this run has seed 78; use another --checkpoint file/,
    );
    const otherScenario = identity({ scenarioDigest: 'f'.repeat(64), scenarioName: 'Other' });
    expect(await refusal(goodText, otherScenario)).toMatch(/scenario: checkpoint of another scenario or units file/);
    // Another scenario has other metrics: the mismatch is named, not the counts that cannot fit.
    expect(await refusal(goodText, otherScenario, fixture.kernel.metrics.slice(1))).toMatch(
      /^[^\n]*scenario: checkpoint of another scenario or units file \("Knights vs Ogre"[^\n]*this run is "Other"/,
    );
    expect(await refusal(goodText, identity({ engineVersion: 'heroic-9.9.9' }))).toContain(
      `engineVersion: checkpoint made by engine ${HEROIC_ENGINE_VERSION}, this is heroic-9.9.9`,
    );
    expect(await refusal(goodText, identity({ plan: { trials: TRIALS + 1 } }))).toMatch(
      /plan: checkpoint made with --trials \d+, this run has --trials \d+/,
    );
    expect(await refusal(goodText, identity({ method: 'mc-dice' }))).toMatch(
      /candidate\.json: method: checkpoint of a --method mc run, this run is --method mc-dice; use another --checkpoint file/,
    );
    const twoProblems = await refusal(goodText, identity({ seed: 1, engineVersion: 'x' }));
    expect(twoProblems.split('\n')).toHaveLength(2);
  });

  it('the CLI refuses a mismatched or damaged checkpoint: exit 2, one line naming the file, no stack', async () => {
    const checkpoint = path.join(directory, 'cli.json');
    const run = (...args: string[]) =>
      runCli(['run', ENGAGEMENT_FILE, '--checkpoint', checkpoint, '--trials', '70000', '--quiet', ...args]);
    const first = await run('--seed', '5');
    expect(first.status).toBe(0);
    const rerun = await run('--seed', '5');
    expect(rerun.stdout).toBe(first.stdout);
    const otherSeed = await run('--seed', '6');
    expect(otherSeed).toMatchObject({ status: 2, stdout: '' });
    expect(otherSeed.stderr).toBe(
      `${checkpoint}: seed: checkpoint made with seed 5, this run has seed 6; use another --checkpoint file, or delete this one to start over\n`,
    );
    await writeFile(checkpoint, '{"format": "crucible-checkpoint"');
    const damaged = await run('--seed', '5');
    expect(damaged.status).toBe(2);
    expect(damaged.stderr).toBe(`${checkpoint}: (root): damaged checkpoint: not valid JSON (delete the file to start the run over)\n`);
  });
});
