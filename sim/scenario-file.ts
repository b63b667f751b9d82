import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseDocument } from 'yaml';
import type { z } from 'zod';
import { scenarioSchema, type Scenario, type Unit, unitsFileSchema } from '../engine/heroic/schema.js';
import { validateHeroic, validateUnits } from '../engine/heroic/validate.js';
import { formatPath, InputError, type InputProblem, ROOT_PATH } from './errors.js';
import { describeZodIssues } from './zod-issues.js';

/**
 * Reading scenario and units files from disk. Every problem a user can cause — a missing file,
 * broken YAML, a wrong field, a unit id that does not exist — ends as an InputError naming the
 * file and the field, and listing every problem found, so one run shows everything to fix.
 */
export interface LoadedScenario {
  /** The scenario file, as given. */
  readonly file: string;
  /** The units file it uses, relative to the same place as `file`. */
  readonly unitsFile: string;
  readonly scenario: Scenario;
  readonly units: readonly Unit[];
}

export const SCENARIO_EXTENSIONS: readonly string[] = ['.yaml', '.yml', '.json'];
const DEFAULT_UNITS_FILE = '../units.yaml';

/** Files named units.* (units.yaml, units.json) hold unit profiles rather than a scenario. */
export const isUnitsFileName = (file: string): boolean => /^units\.[^.]+$/i.test(path.basename(file));

type Parsed = { readonly ok: true; readonly data: unknown } | { readonly ok: false; readonly problems: InputProblem[] };

function fileSystemMessage(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === 'ENOENT') return 'file not found';
  if (code === 'EISDIR') return 'is a directory, not a file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return error instanceof Error ? error.message : String(error);
}

/** Read and parse a YAML or JSON file (chosen by extension) into plain data. */
async function readDataFile(file: string): Promise<Parsed> {
  const fail = (where: string, message: string): Parsed => ({ ok: false, problems: [{ file, path: where, message }] });
  const extension = path.extname(file).toLowerCase();
  if (!SCENARIO_EXTENSIONS.includes(extension)) {
    return fail(ROOT_PATH, `unsupported file type ${JSON.stringify(extension || '(none)')}: use .yaml, .yml or .json`);
  }
  let text: string;
  try {
    text = (await readFile(file, 'utf8')).replace(/^\uFEFF/, '');
  } catch (error) {
    return fail(ROOT_PATH, fileSystemMessage(error));
  }
  return extension === '.json' ? parseJson(file, text) : parseYaml(file, text);
}

function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
}

/** V8 quotes 10 characters either side of an unexpected token instead of giving its position. */
const V8_CONTEXT = 10;

/** Where a JSON.parse error happened, from V8's message (Node 20+), if it says. */
function jsonErrorOffset(message: string, text: string): number | undefined {
  const position = /at position (\d+)/.exec(message);
  if (position?.[1] !== undefined) return Number(position[1]);
  if (message.startsWith('Unexpected end of JSON input')) return text.length;
  const quoted = /^Unexpected token .*?, (\.\.\.)?"([\s\S]*)"(\.\.\.)? is not valid JSON$/.exec(message);
  const context = quoted?.[2];
  if (context === undefined) return undefined;
  if (quoted?.[1] !== undefined) {
    const start = text.indexOf(context);
    return start < 0 ? undefined : start + V8_CONTEXT;
  }
  // No leading "...": the quote starts at the top of the file; with a trailing "..." it ends 10 after the token.
  return quoted?.[3] !== undefined ? Math.max(0, context.length - V8_CONTEXT) : undefined;
}

function parseJson(file: string, text: string): Parsed {
  try {
    return { ok: true, data: JSON.parse(text) as unknown };
  } catch (error) {
    const message = (error as Error).message;
    const offset = jsonErrorOffset(message, text);
    const where = offset === undefined ? ROOT_PATH : lineAndColumn(text, offset);
    const what = message.replace(/ in JSON at position \d+[\s\S]*$/, '').replace(/, (\.\.\.)?"[\s\S]*$/, '');
    return { ok: false, problems: [{ file, path: where, message: `invalid JSON: ${what}` }] };
  }
}

const MAX_YAML_ERRORS = 3;

function parseYaml(file: string, text: string): Parsed {
  // logLevel 'error': YAML warnings go nowhere rather than to process warnings on stderr.
  const document = parseDocument(text, { prettyErrors: true, logLevel: 'error' });
  if (document.errors.length > 0) {
    const problems = document.errors.map((error): InputProblem => {
      const start = error.linePos?.[0];
      const where = start === undefined ? ROOT_PATH : `line ${start.line}, column ${start.col}`;
      const what = (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
      return { file, path: where, message: `invalid YAML: ${what}` };
    });
    // One syntax slip makes the parser report dozens of follow-on errors: show the first few.
    const shown = problems.slice(0, MAX_YAML_ERRORS);
    const hidden = problems.length - shown.length;
    const next = problems[MAX_YAML_ERRORS];
    if (next !== undefined) shown.push({ ...next, message: `invalid YAML: ${hidden} more error${hidden === 1 ? '' : 's'} from here on, probably caused by the first` });
    return { ok: false, problems: shown };
  }
  try {
    return { ok: true, data: document.toJS({ maxAliasCount: 1000 }) as unknown };
  } catch (error) {
    // toJS throws on an alias with no anchor, or an alias bomb.
    return { ok: false, problems: [{ file, path: ROOT_PATH, message: `invalid YAML: ${(error as Error).message.split('\n')[0]}` }] };
  }
}

/** zod-parse `data`, turning every issue into a problem of `file`. */
function parseWith<Schema extends z.ZodType>(schema: Schema, file: string, data: unknown): { value?: z.output<Schema>; problems: InputProblem[] } {
  if (data === null || data === undefined) return { problems: [{ file, path: ROOT_PATH, message: 'the file is empty' }] };
  const result = schema.safeParse(data);
  if (result.success) return { value: result.data, problems: [] };
  const problems = describeZodIssues(result.error.issues, data, schema).map((issue) => ({ file, path: formatPath(issue.path), message: issue.message }));
  return { problems };
}

/** The units file a scenario names, as a path usable from here (relative stays relative). */
function unitsFilePath(scenarioFile: string, reference: string): string {
  return path.isAbsolute(reference) ? reference : path.join(path.dirname(scenarioFile), reference);
}

/** Load, parse and check a units file on its own. */
export async function loadUnitsFile(file: string): Promise<readonly Unit[]> {
  const result = await readUnits(file, file, []);
  if (result.problems.length > 0) throw new InputError(result.problems);
  return result.units ?? [];
}

/**
 * Problems of a units file. A missing units file is the scenario's problem (its `units` field
 * points nowhere), so `referencedFrom` names the scenario file and the field.
 */
async function readUnits(file: string, referencedFrom: string, referencePath: readonly PropertyKey[]): Promise<{ units?: Unit[]; problems: InputProblem[] }> {
  const parsed = await readDataFile(file);
  if (!parsed.ok) {
    const [first] = parsed.problems;
    if (referencedFrom !== file && first?.path === ROOT_PATH && first.message === 'file not found') {
      return { problems: [{ file: referencedFrom, path: formatPath(referencePath), message: `units file not found: ${file}` }] };
    }
    return { problems: parsed.problems };
  }
  const { value, problems } = parseWith(unitsFileSchema, file, parsed.data);
  if (value === undefined) return { problems };
  const issues = validateUnits(value.units).map((issue) => ({ file, path: formatPath(issue.path), message: issue.message }));
  return issues.length > 0 ? { problems: issues } : { units: value.units, problems: [] };
}

/**
 * Load a scenario file and the units file it names, and check both completely. Throws an
 * InputError listing every problem found (in the scenario file and in its units file).
 */
export async function loadScenarioFile(file: string): Promise<LoadedScenario> {
  const parsed = await readDataFile(file);
  if (!parsed.ok) throw new InputError(parsed.problems);
  const { value: scenario, problems } = parseWith(scenarioSchema, file, parsed.data);

  // Read the units file even when the scenario has problems, so both sets are reported at once.
  const rawUnits = typeof parsed.data === 'object' && parsed.data !== null ? (parsed.data as Record<string, unknown>).units : undefined;
  const reference = scenario?.units ?? (rawUnits === undefined ? DEFAULT_UNITS_FILE : rawUnits);
  let units: readonly Unit[] | undefined;
  let unitsFile = '';
  if (typeof reference === 'string') {
    unitsFile = unitsFilePath(file, reference);
    const loaded = await readUnits(unitsFile, file, ['units']);
    units = loaded.units;
    problems.push(...loaded.problems);
  }
  if (scenario !== undefined && units !== undefined) {
    for (const issue of validateHeroic(scenario, units)) problems.push({ file, path: formatPath(issue.path), message: issue.message });
  }
  if (problems.length > 0 || scenario === undefined || units === undefined) throw new InputError(problems);
  return { file, unitsFile, scenario, units };
}

/**
 * The scenario files named by `paths`: files as given, directories expanded to their
 * .yaml/.yml/.json files (not recursively) sorted by name. Each file appears once.
 */
export async function findScenarioFiles(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  const problems: InputProblem[] = [];
  for (const given of paths) {
    let isDirectory: boolean;
    try {
      isDirectory = (await stat(given)).isDirectory();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      problems.push({ file: given, path: ROOT_PATH, message: code === 'ENOENT' ? 'no such file or directory' : fileSystemMessage(error) });
      continue;
    }
    if (!isDirectory) {
      files.push(given);
      continue;
    }
    const entries = await readdir(given, { withFileTypes: true });
    const found = entries
      .filter((entry) => entry.isFile() && SCENARIO_EXTENSIONS.includes(path.extname(entry.name).toLowerCase()))
      .map((entry) => entry.name)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map((name) => path.join(given, name));
    if (found.length === 0) problems.push({ file: given, path: ROOT_PATH, message: 'no .yaml, .yml or .json files in this directory' });
    files.push(...found);
  }
  if (problems.length > 0) throw new InputError(problems);
  return [...new Set(files)];
}
