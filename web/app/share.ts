import { parseTolerance } from '../../analysis/price-verdict.js';
import { MAX_DATA_FILE_BYTES } from '../../input/data-file.js';
import { readNumber, seedFromText, trialsFromText } from '../../input/number-text.js';
import { MAX_REPLAY_TRIAL } from '../../engine/run-limits.js';
import { type Method, METHODS } from '../../sim/methods.js';

/**
 * The workbench's whole setup, as one value: what the URL carries (compressed), so a link opens
 * the same scenario text, settings and view in a fresh page. A link is someone else's data: it is
 * bounded before and after it is inflated, and every field is checked as the CLI checks the same
 * option; a field that fails is dropped, and the page says so.
 */

export const VIEWS = ['odds', 'compare', 'matchups', 'balance', 'replay'] as const;
export type View = (typeof VIEWS)[number];

/** The precisions the roster views offer (each expected score within ±). */
export const ROSTER_PRECISIONS = [0.05, 0.02, 0.01] as const;

export interface Setup {
  /** The scenario's path in the workbench's volume (a bundled scenario's own path: its references resolve as on disk). */
  readonly file: string;
  /** The scenario, as YAML text: the one source of truth every editor changes. */
  readonly text: string;
  /** Files the designer imported beside the scenario (its own units file…), by their path in the volume. */
  readonly files?: Readonly<Record<string, string>>;
  readonly view: View;
  readonly method: Method;
  readonly seed?: number;
  readonly trials?: number;
  /** The metric the charts show (default: the first). */
  readonly metric?: string;
  /** Compare: a variant declared in the file, or the edited copy `against` (its YAML). */
  readonly variant?: string;
  readonly against?: string;
  readonly roster?: string;
  /** The roster's YAML where the designer edited it (else the bundled file's), and the roster it was edited in. */
  readonly rosterText?: string;
  readonly rosterFile?: string;
  /** Balance: one entry to price (else the whole price list). */
  readonly unit?: string;
  readonly budget?: number;
  /** Balance: the tolerance as typed, "10%" or points. */
  readonly tolerance?: string;
  readonly precision?: number;
  readonly trial?: number;
}

const SHARE_VERSION = 1;
/** A link's fragment, at most: a setup deflates to a few KB, the largest sensible one to a few hundred. */
export const MAX_LINK_CHARACTERS = 512 * 1024;
/** A setup once inflated: its texts are data files, each bounded as the CLI bounds one (input/data-file.ts). */
export const MAX_SETUP_BYTES = 4 * MAX_DATA_FILE_BYTES;
/** Files a link may carry beside the scenario. */
export const MAX_EXTRA_FILES = 8;
/** A name (a file path, a metric, a unit id): longer is no name. */
const MAX_NAME_CHARACTERS = 300;
/** Where the page keeps a scenario (web/app/scenarios.ts, scenarioPathFor): a rule system's scenarios folder. */
const SCENARIO_PATH = /^data\/[a-z0-9-]+\/scenarios\/[\w.-]+\.(ya?ml|json)$/;
/** A file imported beside a scenario: in its folder. */
const besideScenario = (scenario: string, file: string): boolean =>
  SCENARIO_PATH.test(file) && file.slice(0, file.lastIndexOf('/')) === scenario.slice(0, scenario.lastIndexOf('/')) && file !== scenario;

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  return Uint8Array.from(binary, (character) => character.charCodeAt(0));
}

class TooLarge extends Error {}

/** `bytes` through `stream`, refusing output beyond `maxBytes` as soon as it is reached (a small link can inflate to gigabytes). */
async function through(
  stream: CompressionStream | DecompressionStream,
  bytes: Uint8Array,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<Uint8Array> {
  const reader = new Blob([bytes as BlobPart]).stream().pipeThrough(stream).getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > maxBytes) {
      await reader.cancel();
      throw new TooLarge();
    }
    chunks.push(value);
  }
  const joined = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return joined;
}

/** The setup as a URL fragment: `#v1.<deflate-raw of its JSON, base64url>`. */
export async function encodeSetup(setup: Setup): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(setup));
  return `#v${SHARE_VERSION}.${toBase64Url(await through(new CompressionStream('deflate-raw'), json))}`;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A link's setup as the page may use it: every field checked as the CLI checks the option it
 * stands for; a field that fails is left out, with a problem saying which and why.
 */
export function checkedSetup(value: unknown): { setup?: Setup; problems: string[] } {
  if (!isRecord(value) || typeof value.file !== 'string' || typeof value.text !== 'string')
    return { problems: ['this link is missing its scenario'] };
  if (!SCENARIO_PATH.test(value.file) || value.file.length > MAX_NAME_CHARACTERS)
    return { problems: [`this link's scenario path is not a file name the workbench uses: ${JSON.stringify(value.file.slice(0, 80))}`] };
  if (value.text.length > MAX_DATA_FILE_BYTES)
    return {
      problems: [`this link's scenario is larger than ${MAX_DATA_FILE_BYTES / 1024 / 1024} MB, the most crucible reads from a file`],
    };
  const problems: string[] = [];
  const setup: Record<string, unknown> = { file: value.file, text: value.text, view: 'odds', method: 'auto' };
  const refuse = (field: string, why: string): void => void problems.push(`this link's ${field} was left out: ${why}`);
  const shown = (field: unknown): string => JSON.stringify(field)?.slice(0, 80) ?? String(field);

  if (value.view !== undefined) {
    if (VIEWS.includes(value.view as View)) setup.view = value.view;
    else refuse('view', `no view is called ${shown(value.view)}`);
  }
  if (value.method !== undefined) {
    if (METHODS.includes(value.method as Method)) setup.method = value.method;
    else refuse('method', `the methods are ${METHODS.join(', ')}, not ${shown(value.method)}`);
  }
  for (const [field, read] of [
    ['seed', seedFromText],
    ['trials', trialsFromText],
  ] as const) {
    if (value[field] === undefined) continue;
    const result =
      typeof value[field] === 'number'
        ? readNumber(read, String(value[field]))
        : { problem: `${field === 'seed' ? 'The seed' : 'Trials'} must be a number, got ${shown(value[field])}.` };
    if ('value' in result) setup[field] = result.value;
    else refuse(field, result.problem);
  }
  for (const field of ['metric', 'variant', 'roster', 'rosterFile', 'unit'] as const) {
    if (value[field] === undefined) continue;
    if (typeof value[field] === 'string' && value[field].length <= MAX_NAME_CHARACTERS) setup[field] = value[field];
    else refuse(field, 'it is not a name');
  }
  for (const field of ['against', 'rosterText'] as const) {
    if (value[field] === undefined) continue;
    if (typeof value[field] === 'string' && value[field].length <= MAX_DATA_FILE_BYTES) setup[field] = value[field];
    else refuse(field === 'against' ? 'edited copy' : 'roster', 'it is not a text of at most 2 MB');
  }
  if (value.budget !== undefined) {
    if (typeof value.budget === 'number' && value.budget > 0 && Number.isFinite(value.budget)) setup.budget = value.budget;
    else refuse('points a side', `the budget must be a number of points above 0, got ${shown(value.budget)}`);
  }
  if (value.tolerance !== undefined) {
    if (
      typeof value.tolerance === 'string' &&
      value.tolerance.length <= MAX_NAME_CHARACTERS &&
      parseTolerance(value.tolerance) !== undefined
    )
      setup.tolerance = value.tolerance;
    else refuse('tolerance', `a tolerance is a percentage ("10%") or points ("5"), got ${shown(value.tolerance)}`);
  }
  if (value.precision !== undefined) {
    if (ROSTER_PRECISIONS.includes(value.precision as (typeof ROSTER_PRECISIONS)[number])) setup.precision = value.precision;
    else refuse('precision', `the workbench offers ±${ROSTER_PRECISIONS.join(', ±')}, not ${shown(value.precision)}`);
  }
  if (value.trial !== undefined) {
    if (typeof value.trial === 'number' && Number.isSafeInteger(value.trial) && value.trial >= 0 && value.trial <= MAX_REPLAY_TRIAL)
      setup.trial = value.trial;
    else refuse('trial to replay', `it must be a whole number from 0, got ${shown(value.trial)}`);
  }
  if (value.files !== undefined) {
    const entries = isRecord(value.files) ? Object.entries(value.files) : [];
    const good = entries.every(
      ([file, text]) =>
        besideScenario(value.file as string, file) &&
        file.length <= MAX_NAME_CHARACTERS &&
        typeof text === 'string' &&
        text.length <= MAX_DATA_FILE_BYTES,
    );
    if (isRecord(value.files) && entries.length <= MAX_EXTRA_FILES && good) setup.files = value.files;
    else
      refuse(
        'imported files',
        `a link carries at most ${MAX_EXTRA_FILES} YAML or JSON files of at most 2 MB each, in the scenario's folder`,
      );
  }
  return { setup: setup as unknown as Setup, problems };
}

/** The setup a fragment carries, or why not (a cut, foreign or oversized link), and which of its fields were left out. */
export async function decodeSetup(hash: string): Promise<{ setup?: Setup; problems: string[] }> {
  if (hash.length > MAX_LINK_CHARACTERS)
    return { problems: [`this link is longer than ${MAX_LINK_CHARACTERS / 1024} KB: no workbench setup is that large`] };
  const match = /^#v(\d+)\.([A-Za-z0-9_-]+)$/.exec(hash);
  if (match === null) return { problems: hash === '' || hash === '#' ? [] : ['this link does not hold a workbench setup'] };
  if (Number(match[1]) !== SHARE_VERSION)
    return { problems: [`this link was made by another version of the workbench (format ${match[1]})`] };
  let json: string;
  try {
    json = new TextDecoder().decode(await through(new DecompressionStream('deflate-raw'), fromBase64Url(match[2] ?? ''), MAX_SETUP_BYTES));
  } catch (error) {
    return {
      problems: [
        error instanceof TooLarge
          ? `this link unpacks to more than ${MAX_SETUP_BYTES / 1024 / 1024} MB: no workbench setup is that large`
          : 'this link is damaged (cut short when copied?)',
      ],
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { problems: ['this link is damaged (cut short when copied?)'] };
  }
  return checkedSetup(value);
}
