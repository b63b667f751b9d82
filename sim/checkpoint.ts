import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { MetricSpec } from '../engine/kernel.js';
import { MAX_TRIALS } from '../engine/run-limits.js';
import { writeAtomically, writeFailure } from './atomic-write.js';
import { fileSystemMessage, jsonNestingProblem, readInputText } from '../input/data-file.js';
import { formatPath, InputError, type Problem, ROOT_PATH } from '../input/errors.js';
import { MONTE_CARLO_METHODS } from './methods.js';
import type { CheckpointStore, PluginIdentity, RunIdentity, RunPlanIdentity } from './run-identity.js';
import { SHARD_TRIALS } from './run.js';
import type { ResumePoint, RunSnapshot } from './sharded-run.js';
import { shardCount, trialsInRanges } from './shards.js';
import { histogramProblem } from '../statistics/tally.js';
import { describeZodIssues } from '../input/zod-issues.js';

/**
 * Checkpoint files (`crucible run --checkpoint <file>`): the completed shards of one run and
 * their summed tally cells, so an interrupted run resumes where it stopped and ends with the same
 * numbers as an uninterrupted one. A file is only ever replaced whole (written beside it, flushed,
 * then renamed over it), so a crash leaves the previous checkpoint or the new one, never half of
 * one. On load it is checked three ways: its shape, its checksum, and that its cells add up (each
 * metric's histogram holds exactly `trials` trials); then that it belongs to this very run.
 */

export type { PluginIdentity, RunIdentity, RunPlanIdentity } from './run-identity.js';

const FORMAT = 'crucible-checkpoint';
const VERSION = 1;
export const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
export const hex64 = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 hexadecimal digits');

/**
 * The fields that say which run a tally belongs to and what it holds: a checkpoint's, and a part
 * file's (sim/part-file.ts), which adds what is needed to print the run without its scenario.
 */
export const runTallyFields = {
  version: z.literal(VERSION),
  scenario: z.strictObject({ name: z.string(), digest: hex64 }),
  engineVersion: z.string(),
  plugin: z.strictObject({ id: z.string(), version: z.string(), codeHash: hex64 }).optional(),
  seed: count,
  method: z.enum(MONTE_CARLO_METHODS),
  shardTrials: count,
  // Bounded as --trials is: a larger plan would size its shard table past any array (2^53-1 crashed merge).
  plan: z.union([
    z.strictObject({ trials: count.max(MAX_TRIALS) }),
    z.strictObject({ precision: z.number().positive(), maxTrials: count.max(MAX_TRIALS) }),
  ]),
  /** Sorted, disjoint [start, end) ranges of completed shard indices. */
  completedShards: z.array(z.tuple([count, count])),
  trials: count,
  /** The summed Tally cells of the completed shards (exact integer counts). */
  cells: z.array(count),
  /** SHA-256 of this document without `checksum`, as written (JSON.stringify, no spaces). */
  checksum: hex64,
};

const checkpointSchema = z.strictObject({ format: z.literal(FORMAT), ...runTallyFields });

type CheckpointDocument = z.output<typeof checkpointSchema>;
/** What a checkpoint and a part file both hold (runTallyFields). */
export type RunTally = Omit<CheckpointDocument, 'format'>;

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** `body` with its checksum (SHA-256 of its JSON), as checkpoints and part files are written. */
export const sealed = <Body extends object>(body: Body): Body & { checksum: string } => ({
  ...body,
  checksum: sha256(JSON.stringify(body)),
});

/** True when `document`'s checksum is that of the rest of it. */
export function checksumHolds(document: { readonly checksum: string }): boolean {
  const { checksum, ...body } = document;
  return sha256(JSON.stringify(body)) === checksum;
}

/** The identity and tally fields of a run's document, in the order they are written. */
export function runTallyOf(identity: RunIdentity, snapshot: RunSnapshot): Omit<RunTally, 'checksum'> {
  return {
    version: VERSION,
    scenario: { name: identity.scenarioName, digest: identity.scenarioDigest },
    engineVersion: identity.engineVersion,
    ...(identity.plugin === undefined
      ? {}
      : { plugin: { id: identity.plugin.id, version: identity.plugin.version, codeHash: identity.plugin.codeHash } }),
    seed: identity.seed,
    method: identity.method,
    shardTrials: SHARD_TRIALS,
    plan: identity.plan,
    completedShards: snapshot.completed.map(([start, end]): [number, number] => [start, end]),
    trials: snapshot.trials,
    cells: Array.from(snapshot.cells),
  };
}

const documentOf = (identity: RunIdentity, snapshot: RunSnapshot): CheckpointDocument =>
  sealed({ format: FORMAT, ...runTallyOf(identity, snapshot) });

/** Replace `file` with the checkpoint of `snapshot`, atomically. */
export async function saveCheckpoint(file: string, identity: RunIdentity, snapshot: RunSnapshot): Promise<void> {
  try {
    await writeAtomically(file, `${JSON.stringify(documentOf(identity, snapshot))}\n`);
  } catch (error) {
    throw InputError.at(file, ROOT_PATH, `--checkpoint: cannot write the checkpoint: ${writeFailure(error)}`);
  }
}

/**
 * A checkpoint's size is its tally's (a few KB for a bundled scenario): 8 MB is far beyond any
 * scenario's metrics and keeps reading one within ~300 MB of memory (parsing multiplies its size
 * about 25-fold); a device or a FIFO is refused whatever its size.
 */
const MAX_CHECKPOINT_BYTES = 8 * 1024 * 1024;

const damagedCheckpoint = (file: string, where: string, problem: string): InputError =>
  InputError.at(file, where, `damaged checkpoint: ${problem} (delete the file to start the run over)`);
const damaged = damagedCheckpoint;

const isCheckpointWithoutMethod = (raw: unknown): boolean =>
  typeof raw === 'object' &&
  raw !== null &&
  !Array.isArray(raw) &&
  (raw as { format?: unknown }).format === FORMAT &&
  !Object.hasOwn(raw, 'method');

/** The checkpoint document in `file`, checked for shape and checksum; undefined if there is no file. */
async function readCheckpoint(file: string): Promise<CheckpointDocument | undefined> {
  let text: string;
  try {
    text = await readInputText(file, MAX_CHECKPOINT_BYTES);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
    throw InputError.at(file, ROOT_PATH, `--checkpoint: cannot read the checkpoint: ${fileSystemMessage(error)}`);
  }
  // Nesting is refused before JSON.parse builds it (a 7.8 MB `[[[…` took 511 MB) and a walk overflows on it.
  const tooDeep = jsonNestingProblem(file, text);
  if (tooDeep !== undefined) throw damaged(file, tooDeep.path, tooDeep.message);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw damaged(file, ROOT_PATH, 'not valid JSON');
  }
  // Checkpoints written before `method` existed cannot be resumed exactly (their checksum covers a
  // document without it, and which tables they used is unknown): say so rather than "damaged".
  if (isCheckpointWithoutMethod(raw)) {
    throw InputError.at(
      file,
      'method',
      'checkpoint made by an older version of crucible (before --method), which this version cannot resume (delete the file to start the run over)',
    );
  }
  const parsed = checkpointSchema.safeParse(raw);
  if (!parsed.success) {
    const [first] = describeZodIssues(parsed.error.issues, raw, checkpointSchema);
    throw damaged(file, first === undefined ? ROOT_PATH : formatPath(first.path), first?.message ?? 'not a crucible checkpoint');
  }
  if (!checksumHolds(parsed.data)) throw damaged(file, 'checksum', 'its content does not match its checksum');
  return parsed.data;
}

/** Ranges sorted and inside the plan; trials and every metric's histogram agree with the ranges. */
export function checkConsistency(
  file: string,
  document: RunTally,
  metrics: readonly MetricSpec[],
  damaged: (file: string, where: string, problem: string) => InputError = damagedCheckpoint,
): void {
  const plannedTrials = 'trials' in document.plan ? document.plan.trials : document.plan.maxTrials;
  const shards = shardCount(plannedTrials);
  let previousEnd = 0;
  for (const [i, [start, end]] of document.completedShards.entries()) {
    if (start >= end || start < previousEnd || end > shards)
      throw damaged(file, `completedShards[${i}]`, `range [${start}, ${end}) is not a sorted range of shards 0..${shards - 1}`);
    previousEnd = end;
  }
  if (document.trials !== trialsInRanges(plannedTrials, document.completedShards)) {
    throw damaged(file, 'trials', `${document.trials} trials do not match the completed shards`);
  }
  const expectedCells = metrics.reduce((total, metric) => total + metric.max + 1, 0);
  if (document.cells.length !== expectedCells)
    throw damaged(file, 'cells', `${document.cells.length} cells, this scenario's tally has ${expectedCells}`);
  const problem = histogramProblem(document.cells, metrics, document.trials);
  if (problem !== undefined) throw damaged(file, 'cells', problem);
}

const describePlan = (plan: RunPlanIdentity): string =>
  'trials' in plan ? `--trials ${plan.trials}` : `--precision ${plan.precision} --max-trials ${plan.maxTrials}`;

/** Every way the checkpoint's run differs from this one, one problem each. */
function mismatches(file: string, document: CheckpointDocument, identity: RunIdentity): Problem[] {
  const problems: Problem[] = [];
  const differs = (path: string, message: string): void => {
    problems.push({ file, path, message: `${message}; use another --checkpoint file, or delete this one to start over` });
  };
  const plugin = (entry: PluginIdentity | undefined): string =>
    entry === undefined ? 'no plugin' : `plugin ${entry.id} ${entry.version} (code sha256 ${entry.codeHash.slice(0, 12)}…)`;
  // The digest covers the method and a plugin's code too: name whichever of those differs, else the scenario.
  if (plugin(document.plugin) !== plugin(identity.plugin)) {
    const changed =
      document.plugin !== undefined && document.plugin.id === identity.plugin?.id ? ": the plugin's code has changed since" : '';
    differs('plugin', `checkpoint made with ${plugin(document.plugin)}, this run uses ${plugin(identity.plugin)}${changed}`);
  } else if (document.method !== identity.method)
    differs('method', `checkpoint of a --method ${document.method} run, this run is --method ${identity.method}`);
  else if (document.scenario.digest !== identity.scenarioDigest) {
    differs(
      'scenario',
      `checkpoint of another scenario or units file ("${document.scenario.name}", ${document.scenario.digest.slice(0, 12)}…), this run is "${identity.scenarioName}" (${identity.scenarioDigest.slice(0, 12)}…)`,
    );
  }
  if (document.engineVersion !== identity.engineVersion)
    differs('engineVersion', `checkpoint made by engine ${document.engineVersion}, this is ${identity.engineVersion}`);
  if (document.seed !== identity.seed) differs('seed', `checkpoint made with seed ${document.seed}, this run has seed ${identity.seed}`);
  if (document.shardTrials !== SHARD_TRIALS)
    differs('shardTrials', `checkpoint made with ${document.shardTrials} trials per shard, this crucible uses ${SHARD_TRIALS}`);
  if (describePlan(document.plan) !== describePlan(identity.plan))
    differs('plan', `checkpoint made with ${describePlan(document.plan)}, this run has ${describePlan(identity.plan)}`);
  return problems;
}

/**
 * The completed work saved in `file` for the run `identity`, or undefined when the file does not
 * exist. A damaged file, or one from another scenario, seed, engine or plan, is an InputError.
 */
export async function loadCheckpoint(
  file: string,
  identity: RunIdentity,
  metrics: readonly MetricSpec[],
): Promise<ResumePoint | undefined> {
  const document = await readCheckpoint(file);
  if (document === undefined) return undefined;
  // Another run's checkpoint is named as such before its counts are held against this kernel.
  const problems = mismatches(file, document, identity);
  if (problems.length > 0) throw new InputError(problems);
  checkConsistency(file, document, metrics);
  const ranges = document.completedShards;
  // A --precision run merges in shard order, so its checkpoints only ever hold shards 0..n-1.
  if ('precision' in document.plan && (ranges.length > 1 || (ranges[0] !== undefined && ranges[0][0] !== 0))) {
    throw damaged(file, 'completedShards', 'a --precision checkpoint must hold shards 0..n-1 only');
  }
  return { completed: ranges, cells: Float64Array.from(document.cells), trials: document.trials };
}

/** The checkpoint kept in `file` (runScenario's `checkpoint`). */
export function checkpointFile(file: string): CheckpointStore {
  return {
    load: (identity, metrics) => loadCheckpoint(file, identity, metrics),
    save: (identity, snapshot) => saveCheckpoint(file, identity, snapshot),
  };
}
