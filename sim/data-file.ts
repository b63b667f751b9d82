import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { type Document, isScalar, parseDocument, visit } from 'yaml';
import type { z } from 'zod';
import type { DataFiles } from '../engine/rule-system.js';
import { formatPath, type InputProblem, ROOT_PATH } from './errors.js';
import { describeZodIssues } from './zod-issues.js';

/**
 * Reading a YAML or JSON data file (a scenario, a units file, an army list) into plain data, and
 * zod-parsing it, with every problem named by file and place: line and column for syntax, the
 * field path for content.
 */

export const SCENARIO_EXTENSIONS: readonly string[] = ['.yaml', '.yml', '.json'];

export type Parsed = { readonly ok: true; readonly data: unknown } | { readonly ok: false; readonly problems: InputProblem[] };

/**
 * The largest scenario, units or army file read: the largest bundled one is ~50 KB; 2 MB keeps any
 * file's parse near a second and a few hundred MB (the YAML parser takes ~5 s for 8 MB of one
 * quoted string, and ~25× the text in memory).
 */
export const MAX_DATA_FILE_BYTES = 2 * 1024 * 1024;

/** A file too large to read, or not a regular file (a FIFO would block for good, a device never end). */
class UnreadableFile extends Error {
  constructor(readonly code: 'ENOTREG' | 'EFBIG', message: string) {
    super(message);
  }
}

/**
 * A regular file's text, refusing FIFOs, devices and sockets (checked before opening: opening a FIFO
 * waits for a writer, and no signal stops that) and files above `maxBytes`.
 */
export async function readInputText(file: string, maxBytes: number): Promise<string> {
  const info = await stat(file);
  if (!info.isFile()) throw new UnreadableFile('ENOTREG', info.isDirectory() ? 'is a directory, not a file' : 'not a regular file (a FIFO, device or socket): crucible reads only files');
  if (info.size > maxBytes) throw new UnreadableFile('EFBIG', `too large: ${(info.size / 2 ** 20).toFixed(1)} MB (the most crucible reads here is ${maxBytes / 2 ** 20} MB)`);
  return readFile(file, 'utf8');
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

function remembered(file: string, text: string, parse: () => Parsed): Parsed {
  const known = parsedFiles.get(file);
  if (known !== undefined && known.text === text) return known.parsed.ok ? { ok: true, data: structuredClone(known.parsed.data) } : known.parsed;
  const parsed = parse();
  parsedFiles.delete(file);
  parsedFiles.set(file, { text, parsed });
  // The oldest goes first (a Map keeps insertion order).
  if (parsedFiles.size > PARSED_FILES_KEPT) parsedFiles.delete(parsedFiles.keys().next().value as string);
  return parsed.ok ? { ok: true, data: structuredClone(parsed.data) } : parsed;
}

/**
 * Characters no name or text of a data file may hold: control characters (tab and line breaks
 * aside) and the bidirectional overrides — on a terminal they move the cursor, recolour or reorder
 * what crucible prints, so a name could make an output say something other than it does.
 */
const UNPRINTABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const MAX_UNPRINTABLE_PROBLEMS = 3;

export function unprintableProblems(file: string, data: unknown): InputProblem[] {
  const problems: InputProblem[] = [];
  const walk = (node: unknown, at: PropertyKey[]): void => {
    if (problems.length >= MAX_UNPRINTABLE_PROBLEMS) return;
    if (typeof node === 'string') {
      const found = UNPRINTABLE.exec(node);
      if (found !== null) problems.push({ file, path: formatPath(at), message: `holds the control character U+${(found[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}: names and texts may not move the cursor, recolour or reorder what is printed` });
      return;
    }
    if (Array.isArray(node)) node.forEach((item, i) => walk(item, [...at, i]));
    else if (node !== null && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (UNPRINTABLE.test(key)) problems.push({ file, path: formatPath(at), message: `a field name holds a control character (${JSON.stringify(key)})` });
        walk(value, [...at, key]);
      }
    }
  };
  walk(data, []);
  return problems;
}

/** Read and parse a YAML or JSON file (chosen by extension) into plain data. */
export async function readDataFile(file: string): Promise<Parsed> {
  const fail = (where: string, message: string): Parsed => ({ ok: false, problems: [{ file, path: where, message }] });
  const extension = path.extname(file).toLowerCase();
  if (!SCENARIO_EXTENSIONS.includes(extension)) {
    return fail(ROOT_PATH, `unsupported file type ${JSON.stringify(extension || '(none)')}: use .yaml, .yml or .json`);
  }
  let text: string;
  try {
    text = (await readInputText(file, MAX_DATA_FILE_BYTES)).replace(/^\uFEFF/, '');
  } catch (error) {
    return fail(ROOT_PATH, fileSystemMessage(error));
  }
  return remembered(file, text, () => {
    const parsed = extension === '.json' ? parseJson(file, text) : parseYaml(file, text);
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

/** The text aliases may repeat, in all: a small file must not expand into gigabytes (an alias bomb of long strings). */
const MAX_ALIASED_CHARACTERS = MAX_DATA_FILE_BYTES;

/**
 * What the yaml library's own checks cost too much for: duplicate keys (its check is quadratic in a
 * map's keys — 40,000 keys took 8 s; this one is linear) and the text aliases repeat. Each problem
 * with its line and column.
 */
function structureProblems(file: string, text: string, document: Document.Parsed): InputProblem[] {
  const problems: InputProblem[] = [];
  const where = (node: { range?: readonly number[] | null | undefined }): string => {
    const start = node.range?.[0];
    return start === undefined ? ROOT_PATH : lineAndColumn(text, start);
  };
  let aliased = 0;
  visit(document, {
    Map(_key, map) {
      const seen = new Set<string>();
      for (const pair of map.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : JSON.stringify(pair.key);
        if (seen.has(key)) problems.push({ file, path: isScalar(pair.key) ? where(pair.key) : ROOT_PATH, message: `invalid YAML: Map keys must be unique (${JSON.stringify(key)} again)` });
        seen.add(key);
      }
    },
    Alias(_key, alias) {
      const target = alias.resolve(document);
      const range = target?.range;
      if (range !== undefined && range !== null) aliased += range[1] - range[0];
      if (aliased > MAX_ALIASED_CHARACTERS && problems.every((problem) => !problem.message.includes('aliases'))) {
        problems.push({ file, path: where(alias), message: `invalid YAML: its aliases repeat more than ${MAX_ALIASED_CHARACTERS / 2 ** 20} MB of text` });
      }
    },
  });
  return problems.slice(0, MAX_YAML_ERRORS);
}

function parseYaml(file: string, text: string): Parsed {
  // logLevel 'error': YAML warnings go nowhere rather than to process warnings on stderr.
  // uniqueKeys false: duplicates are found by structureProblems, in linear time.
  const document = parseDocument(text, { prettyErrors: true, logLevel: 'error', uniqueKeys: false });
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
  const structure = structureProblems(file, text, document);
  if (structure.length > 0) return { ok: false, problems: structure };
  try {
    return { ok: true, data: document.toJS({ maxAliasCount: 1000 }) as unknown };
  } catch (error) {
    // toJS throws on an alias with no anchor, or an alias bomb.
    return { ok: false, problems: [{ file, path: ROOT_PATH, message: `invalid YAML: ${(error as Error).message.split('\n')[0]}` }] };
  }
}

/** zod-parse `data`, turning every issue into a problem of `file`; `at`: where `data` sits in the file. */
export function parseWith<Schema extends z.ZodType>(schema: Schema, file: string, data: unknown, at: readonly PropertyKey[] = []): { value?: z.output<Schema>; problems: InputProblem[] } {
  if (at.length === 0 && (data === null || data === undefined)) return { problems: [{ file, path: ROOT_PATH, message: 'the file is empty' }] };
  const result = schema.safeParse(data);
  if (result.success) return { value: result.data, problems: [] };
  const problems = describeZodIssues(result.error.issues, data, schema).map((issue) => ({ file, path: formatPath([...at, ...issue.path]), message: issue.message }));
  return { problems };
}

/** The file access a rule system's loader is given (engine/rule-system.ts): this module over the file system. */
export const fileSystemData: DataFiles = {
  read: readDataFile,
  async readChecked(file, schema) {
    const parsed = await readDataFile(file);
    if (!parsed.ok) return { problems: [...parsed.problems] };
    return parseWith(schema, file, parsed.data);
  },
  check: (file, schema, data, at = []) => parseWith(schema, file, data, at),
  async list(directory) {
    try {
      return (await readdir(directory)).sort();
    } catch {
      return undefined;
    }
  },
  resolve: (fromFile, reference) => (path.isAbsolute(reference) ? reference : path.join(path.dirname(fromFile), reference)),
  join: (...parts) => path.join(...parts),
  formatPath,
};
