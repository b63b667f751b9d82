import { z } from 'zod';
import type { MetricSpec } from '../engine/kernel.js';
import {
  checkConsistency,
  checksumHolds,
  count,
  hex64,
  type RunIdentity,
  type RunTally,
  runTallyFields,
  runTallyOf,
  sealed,
} from './checkpoint.js';
import { writeAtomically, writeFailure } from './atomic-write.js';
import { fileSystemMessage, jsonNestingProblem, readInputText } from '../input/data-file.js';
import { formatPath, InputError, type Problem, ROOT_PATH, unprintableProblems } from '../input/errors.js';
import type { RulesProvenance } from '../input/provenance.js';
import type { MonteCarloMethod } from './methods.js';
import { SECRET_VARIABLE, sharedSecret, tagHolds, tagOf } from './shared-secret.js';
import { shardCount, type ShardRanges } from './shards.js';
import { CRUCIBLE_VERSION } from '../input/package-info.js';
import { Tally } from '../statistics/tally.js';
import { describeZodIssues } from '../input/zod-issues.js';

/**
 * Part files: one range of a run's shards computed on its own (`crucible run --shards 0-99 --out
 * part-000.json`, one per batch job), merged by `crucible merge part-*.json` into the run's usual
 * output. A part holds what a checkpoint holds (the run's identity, its completed shards and their
 * summed cells, under a checksum) plus what printing the run needs — the report's header and the
 * metrics — so merging needs neither the scenario nor its data. Shard k always draws the seed's
 * stream k, so parts computed anywhere merge to the numbers of one uninterrupted run.
 */

const FORMAT = 'crucible-part';
/** Parts merge only with parts of the same crucible: another version may shard or count differently. */
export { CRUCIBLE_VERSION };

/** What a part says about the run, to print it: the header of `crucible run`'s report. */
export interface PartHeader extends RulesProvenance {
  readonly scenario: string;
  readonly file: string;
}

export interface PartContent {
  readonly identity: RunIdentity & { readonly plan: { readonly trials: number } };
  readonly header: PartHeader;
  readonly metrics: readonly MetricSpec[];
  /** The shards computed, [start, end). */
  readonly shards: readonly [number, number];
  readonly cells: Float64Array;
  readonly trials: number;
}

/** A part is a few KB; 16 MB bounds parsing to well under 300 MB whatever a file claims. */
const MAX_PART_BYTES = 16 * 1024 * 1024;
const MAX_METRICS = 10_000;
const text = z.string().max(1000);

const headerSchema = z.strictObject({
  scenario: text,
  file: z.string().max(4096),
  ruleset: text,
  engineVersion: text,
  mode: text.optional(),
  rulesChanged: z.record(text, z.unknown()).optional(),
  unitsDigest: hex64,
  bundledData: z.record(text, z.string().max(4096)).optional(),
  plugin: z.strictObject({ module: z.string().max(4096), id: text, version: text, codeHash: hex64 }).optional(),
});

const metricSchema = z.strictObject({
  name: text,
  kind: z.enum(['category', 'flag', 'count']),
  max: count.max(1_000_000),
  description: z.string().max(10_000),
  labels: z.array(text).optional(),
});

const partSchema = z.strictObject({
  format: z.literal(FORMAT),
  crucibleVersion: text,
  ...runTallyFields,
  header: headerSchema,
  metrics: z.array(metricSchema).min(1).max(MAX_METRICS),
  /** HMAC-SHA256 under $CRUCIBLE_SECRET of the document without `tag`, as written: only with the secret. */
  tag: hex64.optional(),
});

type PartDocument = z.output<typeof partSchema>;
// zod's output marks absent optional fields `| undefined`; a parsed document never holds one.
const metricsOf = (document: PartDocument): readonly MetricSpec[] => document.metrics as readonly MetricSpec[];
const headerOf = (document: PartDocument): PartHeader => document.header as PartHeader;

const damagedPart = (file: string, where: string, problem: string): InputError =>
  InputError.at(file, where, `not a usable part file: ${problem}`);

/**
 * Write the part atomically (beside it, flushed, renamed), so a batch job killed midway leaves no
 * half file. With `secret` ($CRUCIBLE_SECRET) it carries a tag only holders of the secret can make:
 * the checksum alone catches damage, not forgery (anyone can recompute it).
 */
export async function writePartFile(file: string, part: PartContent, secret?: string): Promise<void> {
  try {
    await writeAtomically(file, partFileText(part, secret));
  } catch (error) {
    throw InputError.at(file, ROOT_PATH, `--out: cannot write the part file: ${writeFailure(error)}`);
  }
}

/** A part file's text (what writePartFile writes; `crucible run --shards … --out -` prints it), tagged when a secret is given. */
export function partFileText(part: PartContent, secret?: string): string {
  const document = sealed({
    format: FORMAT,
    crucibleVersion: CRUCIBLE_VERSION,
    ...runTallyOf(part.identity, {
      completed: part.shards[0] < part.shards[1] ? [part.shards] : [],
      cells: part.cells,
      trials: part.trials,
    }),
    header: part.header,
    metrics: part.metrics,
  });
  const body = JSON.stringify(document);
  const text = secret === undefined ? body : JSON.stringify({ ...document, tag: tagOf(body, secret) });
  return `${text}\n`;
}

/** $CRUCIBLE_SECRET for writing or merging parts; a set but unusable one is bad input (exit 2), not a crash. */
export function partSecret(env: NodeJS.ProcessEnv): string | undefined {
  try {
    return sharedSecret(env);
  } catch (error) {
    throw InputError.at(`$${SECRET_VARIABLE}`, ROOT_PATH, error instanceof Error ? error.message : String(error));
  }
}

const isObject = (raw: unknown): raw is Record<string, unknown> => typeof raw === 'object' && raw !== null && !Array.isArray(raw);

/** A part of another crucible version (or of 0.1.0, which recorded none), named before anything else is held against it. */
function versionProblem(file: string, raw: unknown): InputError | undefined {
  if (!isObject(raw) || raw.format !== FORMAT) return undefined;
  const version = raw.crucibleVersion;
  if (version === CRUCIBLE_VERSION) return undefined;
  const made =
    typeof version === 'string' && version.length <= 100
      ? `crucible ${JSON.stringify(version)}`
      : 'a crucible that records no version (0.1.0)';
  return InputError.at(
    file,
    'crucibleVersion',
    `part made by ${made}, this is crucible ${CRUCIBLE_VERSION}: parts merge only with parts of the same version (compute it again with this one)`,
  );
}

/** With a secret, the part's tag must be that of the rest of it, as written; without one, a tagged part is refused (it cannot be checked). */
function tagProblem(file: string, raw: Record<string, unknown>, secret: string | undefined): InputError | undefined {
  const { tag, ...body } = raw;
  if (secret === undefined) {
    return tag === undefined
      ? undefined
      : InputError.at(
          file,
          'tag',
          `the part carries a tag (made with ${SECRET_VARIABLE}), but ${SECRET_VARIABLE} is not set: set it to the secret the parts were made with`,
        );
  }
  if (tag === undefined)
    return InputError.at(
      file,
      'tag',
      `the part has no tag, and ${SECRET_VARIABLE} is set: it was made without the secret, or its tag was removed (compute it again with ${SECRET_VARIABLE} set)`,
    );
  if (!tagHolds(JSON.stringify(body), tag, secret))
    return InputError.at(
      file,
      'tag',
      `the part's tag does not match its content under ${SECRET_VARIABLE}: it was changed after it was written, or made with another secret`,
    );
  return undefined;
}

async function readPart(file: string, secret: string | undefined): Promise<PartDocument> {
  let text: string;
  try {
    text = await readInputText(file, MAX_PART_BYTES);
  } catch (error) {
    throw InputError.at(file, ROOT_PATH, `cannot read the part file: ${fileSystemMessage(error)}`);
  }
  // Nesting is refused before JSON.parse builds it, as for checkpoints and report inputs.
  const tooDeep = jsonNestingProblem(file, text);
  if (tooDeep !== undefined) throw damagedPart(file, tooDeep.path, tooDeep.message);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw damagedPart(file, ROOT_PATH, 'not valid JSON');
  }
  const otherVersion = versionProblem(file, raw);
  if (otherVersion !== undefined) throw otherVersion;
  const parsed = partSchema.safeParse(raw);
  if (!parsed.success) {
    const [first] = describeZodIssues(parsed.error.issues, raw, partSchema);
    throw damagedPart(file, first === undefined ? ROOT_PATH : formatPath(first.path), first?.message ?? 'not a crucible part file');
  }
  // The tag and checksum cover the text as written (zod's output orders keys by the schema, not the file).
  const badTag = tagProblem(file, raw as Record<string, unknown>, secret);
  if (badTag !== undefined) throw badTag;
  const { tag: _tag, ...sealedBody } = raw as { checksum: string; tag?: unknown };
  if (!checksumHolds(sealedBody))
    throw damagedPart(file, 'checksum', 'its content does not match its checksum (the file was changed or cut short)');
  if (!('trials' in parsed.data.plan)) throw damagedPart(file, 'plan', 'a part belongs to a run of fixed --trials');
  // Its names are printed by merge (the report's header, the command for missing shards): none may drive the terminal.
  const [unprintable] = unprintableProblems(file, raw);
  if (unprintable !== undefined) throw damagedPart(file, unprintable.path, unprintable.message);
  checkConsistency(file, parsed.data, metricsOf(parsed.data), damagedPart);
  return parsed.data;
}

/** `--shards`: a range of shard indices "A-B" (both included), or "i/n": slice i of n equal slices (a batch array's index). */
export type ShardSelection =
  | { readonly kind: 'range'; readonly first: number; readonly last: number }
  | { readonly kind: 'slice'; readonly index: number; readonly of: number };

export function parseShardSelection(text: string): ShardSelection | undefined {
  const range = /^(\d{1,9})(?:-(\d{1,9}))?$/.exec(text.trim());
  if (range !== null) {
    const first = Number(range[1]);
    const last = range[2] === undefined ? first : Number(range[2]);
    return last >= first ? { kind: 'range', first, last } : undefined;
  }
  const slice = /^(\d{1,9})\/(\d{1,9})$/.exec(text.trim());
  if (slice !== null && Number(slice[1]) < Number(slice[2])) return { kind: 'slice', index: Number(slice[1]), of: Number(slice[2]) };
  return undefined;
}

/** The shards [start, end) a selection names in a run of `shards` shards, or a problem in words. */
export function selectedShards(selection: ShardSelection, shards: number): readonly [number, number] | string {
  if (selection.kind === 'slice')
    return [Math.floor((selection.index * shards) / selection.of), Math.floor(((selection.index + 1) * shards) / selection.of)];
  if (selection.last >= shards)
    return `this run has ${shards} shard${shards === 1 ? '' : 's'} (0-${shards - 1}), so shard ${selection.last} is not one of them`;
  return [selection.first, selection.last + 1];
}

/** Everything that must be equal for two parts to belong to one run, field by field (the first that differs is named). */
const RUN_FIELDS = [
  'scenario',
  'plugin',
  'method',
  'engineVersion',
  'seed',
  'plan',
  'shardTrials',
  'header',
  'metrics',
] as const satisfies readonly (keyof PartDocument)[];

const describeShards = (start: number, end: number): string => (end - start === 1 ? `shard ${start}` : `shards ${start}-${end - 1}`);

export interface MergedRun {
  readonly header: PartHeader;
  readonly method: MonteCarloMethod;
  readonly seed: number;
  readonly tally: Tally;
}

/**
 * The run the parts make up: every part checked (shape, checksum, counts), all of one run, and
 * every shard of it in exactly one part; then their cells summed. Every problem found is reported.
 */
export async function mergeParts(files: readonly string[], secret?: string): Promise<MergedRun> {
  const problems: Problem[] = [];
  const parts: { readonly file: string; readonly document: PartDocument }[] = [];
  for (const file of files) {
    try {
      parts.push({ file, document: await readPart(file, secret) });
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      problems.push(...error.problems);
    }
  }
  if (problems.length > 0) throw new InputError(problems);
  const [first] = parts;
  if (first === undefined) throw InputError.at('merge', ROOT_PATH, 'no part files given');

  for (const { file, document } of parts.slice(1)) {
    const field = RUN_FIELDS.find((name) => JSON.stringify(document[name]) !== JSON.stringify(first.document[name]));
    if (field !== undefined) {
      problems.push({
        file,
        path: field,
        message: `part of another run than ${first.file} ("${document.header.scenario}", ${document.header.file}, seed ${document.seed}): its ${field} differs`,
      });
    }
  }
  if (problems.length > 0) throw new InputError(problems);

  // Which part holds each shard: a shard in two parts, or in none, is named with its files.
  const plannedTrials = (first.document.plan as { trials: number }).trials;
  const shards = shardCount(plannedTrials);
  const owner = new Int32Array(shards).fill(-1);
  parts.forEach(({ file, document }, index) => {
    for (const [start, end] of document.completedShards as ShardRanges) {
      for (let shard = start; shard < end; shard++) {
        const previous = owner[shard] as number;
        if (previous >= 0) {
          problems.push({
            file,
            path: 'completedShards',
            message: `${describeShards(shard, Math.min(end, rangeEndIn(parts[previous]?.document, shard)))} also in ${parts[previous]?.file}: each shard must be in one part only`,
          });
          shard = Math.min(end, rangeEndIn(parts[previous]?.document, shard)) - 1;
          continue;
        }
        owner[shard] = index;
      }
    }
  });
  const missing: [number, number][] = [];
  for (let shard = 0; shard < shards; shard++) {
    if (owner[shard] !== -1) continue;
    let end = shard;
    while (end < shards && owner[end] === -1) end++;
    missing.push([shard, end]);
    shard = end;
  }
  if (missing.length > 0) problems.push(missingShardsProblem(files, missing, shards, first.document));
  if (problems.length > 0) throw new InputError(problems);

  const tally = new Tally(metricsOf(first.document));
  for (const { document } of parts) tally.addCells(Float64Array.from((document as RunTally).cells), document.trials);
  return { header: headerOf(first.document), method: first.document.method, seed: first.document.seed, tally };
}

/** How many missing ranges are listed: the rest are counted (5,000 of them printed 8.6 MB). */
const MISSING_RANGES_LISTED = 10;

/** The shards in no part as one problem: the ranges (the first few), and the command that computes one. */
function missingShardsProblem(
  files: readonly string[],
  missing: readonly (readonly [number, number])[],
  shards: number,
  document: PartDocument,
): Problem {
  const [start, end] = missing[0] as readonly [number, number];
  const plannedTrials = (document.plan as { trials: number }).trials;
  const command = `crucible run ${document.header.file} --seed ${document.seed} --trials ${plannedTrials}${document.method === 'mc-dice' ? ' --method mc-dice' : ''} --shards ${start}-${end - 1} --out <file>`;
  const file = files.length <= 3 ? files.join(', ') : `${files[0]} and ${files.length - 1} other parts`;
  if (missing.length === 1)
    return {
      file,
      path: 'completedShards',
      message: `${describeShards(start, end)} of ${shards} are in no part: compute them with ${command}`,
    };
  const missingShards = missing.reduce((total, [from, to]) => total + to - from, 0);
  const listed = missing.slice(0, MISSING_RANGES_LISTED).map(([from, to]) => (to - from === 1 ? `${from}` : `${from}-${to - 1}`));
  const more =
    missing.length > MISSING_RANGES_LISTED ? `, … and ${(missing.length - MISSING_RANGES_LISTED).toLocaleString('en-US')} more ranges` : '';
  return {
    file,
    path: 'completedShards',
    message: `${missingShards.toLocaleString('en-US')} shards of ${shards} are in no part, in ${missing.length.toLocaleString('en-US')} ranges (${listed.join(', ')}${more}): compute each range with ${command}, and so on`,
  };
}

/** The end of the range of `document` that holds `shard` (for naming an overlap once per range). */
function rangeEndIn(document: PartDocument | undefined, shard: number): number {
  for (const [start, end] of document?.completedShards ?? []) if (shard >= start && shard < end) return end;
  return shard + 1;
}
