import path from 'pathe';
import type { z } from 'zod';
import type { DataFiles } from '../engine/rule-system.js';
import { bundledDataPath } from './bundled-data.js';
import { MAX_DATA_FILE_BYTES, MAX_NESTING, type Parsed, TOO_DEEP } from './data-limits.js';
import { formatPath, type Problem, ROOT_PATH, unprintableProblems } from './errors.js';
import { namedInputs, streamedTexts } from './named-inputs.js';
import { platform } from './platform.js';
import { describeZodIssues } from './zod-issues.js';

/**
 * Reading a YAML or JSON data file (a scenario, a units file, an army list) into plain data, and
 * zod-parsing it, with every problem named by file and place: line and column for syntax, the
 * field path for content.
 */

// Checked on every file read here; also used on values set from the command line (input/scenario-patch.ts).
export { unprintableProblems } from './errors.js';
export { forgetNamedInputs, nameInputs } from './named-inputs.js';

export const SCENARIO_EXTENSIONS: readonly string[] = ['.yaml', '.yml', '.json'];

export { MAX_DATA_FILE_BYTES, MAX_DATA_VALUES, MAX_NESTING, MAX_YAML_ANCHORS_AND_ALIASES } from './data-limits.js';

/** A file too large to read, or not a regular file (a FIFO would block for good, a device never end). */
class UnreadableFile extends Error {
  constructor(
    readonly code: 'ENOTREG' | 'EFBIG',
    message: string,
  ) {
    super(message);
  }
}

/** Standard input, where a command reads a file (`crucible run s.yaml --json | crucible report -`). */
export const STDIN = '-';

/**
 * The folder a file's relative paths (a units file, a plugin module) start from: the file's own, or,
 * for standard input or a pipe, which have none, the current directory.
 */
export const inputFolder = (file: string): string => (file === STDIN || streamedTexts.has(file) ? '.' : path.dirname(file));

/** A file of `bytes` (unknown: a stream that went on past the limit) over `maxBytes`. */
const tooLarge = (bytes: number | undefined, maxBytes: number): UnreadableFile =>
  new UnreadableFile(
    'EFBIG',
    bytes === undefined
      ? `too large: more than ${maxBytes / 2 ** 20} MB, the most crucible reads here`
      : `too large: ${(bytes / 2 ** 20).toFixed(1)} MB (the most crucible reads here is ${maxBytes / 2 ** 20} MB)`,
  );

/** A named stream's text, read once, to its end or until it passes `maxBytes`. */
async function streamText(file: string, maxBytes: number): Promise<string> {
  let read = streamedTexts.get(file);
  if (read === undefined) {
    const readStream = platform().readStream;
    if (readStream === undefined) throw new UnreadableFile('ENOTREG', 'not a regular file: only files can be read here');
    const text = await readStream(file, maxBytes);
    read = text === undefined ? { text: '', bytes: undefined } : { text, bytes: new TextEncoder().encode(text).length };
    streamedTexts.set(file, read);
  }
  if (read.bytes === undefined || read.bytes > maxBytes) throw tooLarge(read.bytes, maxBytes);
  return read.text;
}

/**
 * A regular file's text, refusing FIFOs, devices and sockets (checked before opening: opening a FIFO
 * waits for a writer, and no signal stops that) and files above `maxBytes` — but standard input, a
 * pipe or a device the person named on the command line (`nameInputs`), read within `maxBytes`.
 */
export async function readInputText(file: string, maxBytes: number): Promise<string> {
  if (streamedTexts.has(file) || (file === STDIN && namedInputs.has(STDIN))) return streamText(file, maxBytes);
  const info = await platform().stat(file);
  if (!info.isFile()) {
    if (!info.isDirectory() && namedInputs.has(file)) return streamText(file, maxBytes);
    throw new UnreadableFile(
      'ENOTREG',
      info.isDirectory() ? 'is a directory, not a file' : 'not a regular file (a FIFO, device or socket): crucible reads only files',
    );
  }
  if (info.size > maxBytes) throw tooLarge(info.size, maxBytes);
  return platform().readText(file);
}

export function fileSystemMessage(error: unknown): string {
  if (error instanceof UnreadableFile) return error.message;
  const code = (error as { code?: unknown }).code;
  if (code === 'ENOENT') return 'file not found';
  if (code === 'EISDIR') return 'is a directory, not a file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return error instanceof Error ? error.message : String(error);
}

/**
 * Parsed files by path, with the text they were parsed from. The analysis commands load one
 * template hundreds of times (a matchup matrix, a balance search), each load reading the same unit
 * and faction files; parsing YAML is what costs (~100 ms for a Battle Forge faction), reading the
 * text is cheap. A file is parsed again whenever its text differs; callers get their own copy.
 */
const parsedFiles = new Map<string, { readonly text: string; readonly parsed: Parsed }>();
const PARSED_FILES_KEPT = 64;
/** Larger files are not kept (bundled ones are ≤ 50 KB): a hostile 2 MB file's data would be held twice. */
const LARGEST_FILE_KEPT = 256 * 1024;

/** The yaml library and the checks around it (input/yaml-data.ts), imported when a YAML file is first read. */
let yamlData: Promise<typeof import('./yaml-data.js')> | undefined;

function remembered(file: string, text: string, parse: () => Parsed): Parsed {
  if (text.length > LARGEST_FILE_KEPT) return parse();
  const known = parsedFiles.get(file);
  if (known !== undefined && known.text === text)
    return known.parsed.ok ? { ok: true, data: structuredClone(known.parsed.data) } : known.parsed;
  const parsed = parse();
  parsedFiles.delete(file);
  parsedFiles.set(file, { text, parsed });
  // The oldest goes first (a Map keeps insertion order).
  if (parsedFiles.size > PARSED_FILES_KEPT) parsedFiles.delete(parsedFiles.keys().next().value as string);
  return parsed.ok ? { ok: true, data: structuredClone(parsed.data) } : parsed;
}

/** Where a JSON text first nests deeper than MAX_NESTING (the offset of that `[` or `{`), by one scan outside strings. */
function jsonTooDeepAt(text: string): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character (\" does not end the string)
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > MAX_NESTING) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return undefined;
}

/** The problem of a JSON text nested too deeply, at its line and column; undefined if it is not. */
export function jsonNestingProblem(file: string, text: string): Problem | undefined {
  const at = jsonTooDeepAt(text);
  return at === undefined ? undefined : { file, path: lineAndColumn(text, at), message: `invalid JSON: ${TOO_DEEP}` };
}

/**
 * Read and parse a YAML or JSON file (chosen by extension) into plain data. A file named on the
 * command line without an extension (`-`, /dev/stdin, `<(…)`) is JSON when it starts with `{` or
 * `[`, else YAML.
 */
export async function readDataFile(file: string): Promise<Parsed> {
  const fail = (where: string, message: string): Parsed => ({ ok: false, problems: [{ file, path: where, message }] });
  const extension = path.extname(file).toLowerCase();
  const named = extension === '' && namedInputs.has(file);
  if (!SCENARIO_EXTENSIONS.includes(extension) && !named) {
    return fail(ROOT_PATH, `unsupported file type ${JSON.stringify(extension || '(none)')}: use .yaml, .yml or .json`);
  }
  let text: string;
  try {
    text = (await readInputText(file, MAX_DATA_FILE_BYTES)).replace(/^\uFEFF/, '');
  } catch (error) {
    return fail(ROOT_PATH, fileSystemMessage(error));
  }
  const json = named ? /^\s*[[{]/.test(text) : extension === '.json';
  const parseYaml = json ? undefined : (await (yamlData ??= import('./yaml-data.js'))).parseYaml;
  return remembered(file, text, () => {
    const parsed = parseYaml === undefined ? parseJson(file, text) : parseYaml(file, text);
    if (!parsed.ok) return parsed;
    const unprintable = unprintableProblems(file, parsed.data);
    return unprintable.length === 0 ? parsed : { ok: false, problems: unprintable };
  });
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
  const tooDeep = jsonNestingProblem(file, text);
  if (tooDeep !== undefined) return { ok: false, problems: [tooDeep] };
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

/**
 * zod-parse `data`, turning every issue into a problem of `file`; `at`: where `data` sits in the
 * file. `showValues` false: problems say what kind of value is wrong ("got text"), not the value.
 */
export function parseWith<Schema extends z.ZodType>(
  schema: Schema,
  file: string,
  data: unknown,
  at: readonly PropertyKey[] = [],
  showValues = true,
): { value?: z.output<Schema>; problems: Problem[] } {
  if (at.length === 0 && (data === null || data === undefined))
    return { problems: [{ file, path: ROOT_PATH, message: 'the file is empty' }] };
  const result = schema.safeParse(data);
  if (result.success) return { value: result.data, problems: [] };
  const problems = describeZodIssues(result.error.issues, data, schema, showValues).map((issue) => ({
    file,
    path: formatPath([...at, ...issue.path]),
    message: issue.message,
  }));
  return { problems };
}

/**
 * The file access a rule system's loader is given (engine/rule-system.ts): this module over the
 * platform's files (input/platform.ts: the file system, or the workbench's volume). A whole file
 * checked here is one a scenario points at (`unitsFile:`, an army or faction file), which may be
 * any readable file, a secrets file too: its problems name the file and the field but never quote
 * its values. Checked at a place (`at`: overrides in the scenario), they do.
 */
export const fileSystemData: DataFiles = {
  read: readDataFile,
  async readChecked(file, schema) {
    const parsed = await readDataFile(file);
    if (!parsed.ok) return { problems: [...parsed.problems] };
    return parseWith(schema, file, parsed.data, [], false);
  },
  check: (file, schema, data, at = []) => parseWith(schema, file, data, at, at.length > 0),
  async exists(file) {
    try {
      await platform().stat(file);
      return true;
    } catch {
      return false;
    }
  },
  async list(directory) {
    try {
      return (await platform().readDirectory(directory)).map((entry) => entry.name).sort();
    } catch {
      return undefined;
    }
  },
  resolve: (fromFile, reference) => (path.isAbsolute(reference) ? reference : path.join(inputFolder(fromFile), reference)),
  bundled: bundledDataPath,
  join: (...parts) => path.join(...parts),
  formatPath,
};
