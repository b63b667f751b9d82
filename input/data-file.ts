import path from 'pathe';
import {
  Composer,
  CST,
  type Document,
  isAlias,
  isMap,
  isNode,
  isScalar,
  isSeq,
  Lexer,
  LineCounter,
  type Node,
  Parser,
  YAMLParseError,
} from 'yaml';
import type { z } from 'zod';
import type { DataFiles } from '../engine/rule-system.js';
import { bundledDataPath } from './bundled-data.js';
import { formatPath, type Problem, ROOT_PATH, unprintableProblems } from './errors.js';
import { platform } from './platform.js';
import { describeZodIssues } from './zod-issues.js';

/**
 * Reading a YAML or JSON data file (a scenario, a units file, an army list) into plain data, and
 * zod-parsing it, with every problem named by file and place: line and column for syntax, the
 * field path for content.
 */

// Checked on every file read here; also used on values set from the command line (input/scenario-patch.ts).
export { unprintableProblems } from './errors.js';

export const SCENARIO_EXTENSIONS: readonly string[] = ['.yaml', '.yml', '.json'];

export type Parsed = { readonly ok: true; readonly data: unknown } | { readonly ok: false; readonly problems: Problem[] };

/**
 * The largest scenario, units or army file read: the largest bundled one is ~50 KB; 2 MB keeps any
 * file's parse near a second and a few hundred MB (the YAML parser takes ~5 s for 8 MB of one
 * quoted string, and ~25× the text in memory).
 */
export const MAX_DATA_FILE_BYTES = 2 * 1024 * 1024;

/** A file too large to read, or not a regular file (a FIFO would block for good, a device never end). */
class UnreadableFile extends Error {
  constructor(
    readonly code: 'ENOTREG' | 'EFBIG',
    message: string,
  ) {
    super(message);
  }
}

/**
 * A regular file's text, refusing FIFOs, devices and sockets (checked before opening: opening a FIFO
 * waits for a writer, and no signal stops that) and files above `maxBytes`.
 */
export async function readInputText(file: string, maxBytes: number): Promise<string> {
  const info = await platform().stat(file);
  if (!info.isFile())
    throw new UnreadableFile(
      'ENOTREG',
      info.isDirectory() ? 'is a directory, not a file' : 'not a regular file (a FIFO, device or socket): crucible reads only files',
    );
  if (info.size > maxBytes)
    throw new UnreadableFile(
      'EFBIG',
      `too large: ${(info.size / 2 ** 20).toFixed(1)} MB (the most crucible reads here is ${maxBytes / 2 ** 20} MB)`,
    );
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

/**
 * How deeply lists and mappings may nest inside one another in a data file, a checkpoint or a
 * report input (a top-level mapping is level 1; bundled files nest 10 deep at most). Checked on
 * the text before anything is built: the YAML parser slows with depth (2 MB of `[[[…` took 9 s and
 * 1.2 GB), and every recursive walk would overflow the stack some thousands deep.
 */
/** 100000 → "100,000", as toLocaleString('en-US') writes it, without starting Intl (about 10 ms of CPU at every start). */
const withCommas = (whole: number): string => String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

export const MAX_NESTING = 64;
const TOO_DEEP = `lists and mappings nested more than ${MAX_NESTING} levels deep (the most crucible reads)`;

/**
 * How many values a YAML data file may hold: mapping keys, list items and scalars, each alias
 * counted as what it repeats. Bundled files hold at most ~4,100 (data/battleforge/index.yaml); the
 * YAML parser takes ~10 µs a value, so 100,000 keeps a file's parse near a second (200,000 keys took
 * 8–11 s and 470 MB). JSON is not counted: V8 parses it about ten times faster (200,000 keys in
 * ~0.5 s), and MAX_DATA_FILE_BYTES bounds it.
 */
export const MAX_DATA_VALUES = 100_000;
const TOO_MANY_VALUES = `the file holds more than ${withCommas(MAX_DATA_VALUES)} values (keys, list items and scalars, an alias counted as what it repeats), the most crucible reads`;

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

const MAX_YAML_ERRORS = 3;

/** The text aliases may repeat, in all: a small file must not expand into gigabytes (an alias bomb of long strings). */
const MAX_ALIASED_CHARACTERS = MAX_DATA_FILE_BYTES;

/**
 * Anchors (`&name`) and aliases (`*name`) a YAML file may hold, together (bundled files hold none).
 * Turning the document into data, the yaml library resolves each alias by a scan of the anchors and
 * aliases before it: quadratic (100,000 aliases ran for minutes, 45,000 anchors and 1,000 aliases
 * took 2 s).
 */
export const MAX_YAML_ANCHORS_AND_ALIASES = 1_000;
const TOO_MANY_ANCHORS = `more than ${withCommas(MAX_YAML_ANCHORS_AND_ALIASES)} anchors and aliases (&name, *name), the most crucible reads`;

const COLLECTION_TOKENS: ReadonlySet<string> = new Set(['block-map', 'block-seq', 'flow-collection']);

type YamlRead =
  | { readonly document: Document.Parsed; readonly lines: LineCounter }
  | { readonly refused: { readonly at: number; readonly message: string }; readonly lines: LineCounter };

/** A lexeme that starts a scalar or an alias (a plain or block scalar comes after the SCALAR marker). */
const startsValue = (lexeme: string): boolean =>
  lexeme === CST.SCALAR || lexeme.startsWith('"') || lexeme.startsWith("'") || lexeme.startsWith('*');

/**
 * yaml's parseDocument, with the parser fed one lexeme at a time (the way the library documents),
 * so that a file is refused as soon as it opens a collection past MAX_NESTING (the parser's stack of
 * open collections is the nesting at that point, whether made by brackets, indentation or `- - -`)
 * or reads more scalars than MAX_DATA_VALUES — before the parser, which slows with both, goes on.
 */
function readYaml(text: string): YamlRead {
  const lines = new LineCounter();
  lines.addNewLine(0);
  const parser = new Parser(lines.addNewLine);
  let refused: { at: number; message: string } | undefined;
  function* tokens(): Generator<CST.Token> {
    let scalars = 0;
    let anchors = 0;
    let inScalar = false;
    for (const lexeme of new Lexer().lex(text)) {
      const start = parser.offset;
      // The text after a SCALAR marker is that scalar's, whatever it starts with.
      const scalarText = inScalar;
      inScalar = lexeme === CST.SCALAR;
      if (!scalarText) {
        // Scalars are some of the values the document holds (collections and aliases' repeats come on top): a safe early refusal.
        if (startsValue(lexeme) && ++scalars > MAX_DATA_VALUES) refused = { at: start, message: TOO_MANY_VALUES };
        if ((lexeme.startsWith('&') || lexeme.startsWith('*')) && ++anchors > MAX_YAML_ANCHORS_AND_ALIASES)
          refused = { at: start, message: TOO_MANY_ANCHORS };
      }
      if (refused === undefined) yield* parser.next(lexeme);
      // The stack also holds the document and a scalar being read: count its collections only when it is that long.
      const collections = parser.stack.length > MAX_NESTING ? parser.stack.filter((token) => COLLECTION_TOKENS.has(token.type)) : [];
      // Named where the collection past the limit starts (a block mapping is known as one only at its first `:`).
      if (collections.length > MAX_NESTING) refused = { at: (collections.at(-1) as CST.Token).offset, message: TOO_DEEP };
      if (refused !== undefined) return;
    }
    yield* parser.end();
  }
  // logLevel 'error': YAML warnings go nowhere rather than to process warnings on stderr.
  // uniqueKeys false: duplicates are found by structureProblems, in linear time.
  const composer = new Composer({ logLevel: 'error', uniqueKeys: false });
  let document: Document.Parsed | undefined;
  for (const next of composer.compose(tokens(), true, text.length)) {
    if (document === undefined) document = next;
    else {
      document.errors.push(
        new YAMLParseError(
          [next.range[0], next.range[1]],
          'MULTIPLE_DOCS',
          'Source contains multiple documents; please use YAML.parseAllDocuments()',
        ),
      );
      break;
    }
  }
  if (refused !== undefined) return { refused, lines };
  // compose(…, forceDoc: true) always yields one document, an empty one for an empty text.
  return { document: document as Document.Parsed, lines };
}

/**
 * What the yaml library's own checks cost too much for, in one pass over the parsed document
 * (recursive: its nesting is at most MAX_NESTING by now): duplicate keys (its check is quadratic in
 * a map's keys — 40,000 keys took 8 s), the values it holds (MAX_DATA_VALUES, an alias counted as
 * what it repeats, so an alias bomb is refused before it is expanded; each alias resolved through
 * one map of anchors here), an alias inside its own anchor (it would repeat for ever), and the text
 * aliases repeat. Each problem with its line and column; the walk stops at the first limit passed.
 */
function structureProblems(file: string, document: Document.Parsed, where: (node: Node) => string): Problem[] {
  const problems: Problem[] = [];
  let stopped = false;
  const stop = (node: Node, message: string): void => {
    problems.push({ file, path: where(node), message: `invalid YAML: ${message}` });
    stopped = true;
  };
  /** The latest node of each anchor name: an alias repeats the last one before it. */
  const anchors = new Map<string, Node>();
  /** What each anchored node holds once complete: its values, and the text its own aliases repeat. */
  const held = new Map<Node, { readonly values: number; readonly repeated: number }>();
  let values = 0;
  /** Text repeated by aliases, counting an alias of a collection with the aliases inside it (else `[*a]` repeated 1,000 times would hide 1,000 copies of a 1 MB `*a`). */
  let repeated = 0;
  const walk = (node: unknown): void => {
    if (stopped || problems.length >= MAX_YAML_ERRORS) return;
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      // An alias with no anchor before it: the yaml library names it when the document is read.
      if (target === undefined) return;
      const inside = held.get(target);
      if (inside === undefined)
        return stop(node, `the alias *${node.source} sits inside its own anchor &${node.source}: it would repeat itself for ever`);
      values += inside.values;
      repeated += (target.range === undefined || target.range === null ? 0 : target.range[1] - target.range[0]) + inside.repeated;
      if (repeated > MAX_ALIASED_CHARACTERS)
        return stop(node, `its aliases repeat more than ${MAX_ALIASED_CHARACTERS / 2 ** 20} MB of text`);
      if (values > MAX_DATA_VALUES) stop(node, TOO_MANY_VALUES);
      return;
    }
    if (!isNode(node)) return;
    values += 1;
    if (values > MAX_DATA_VALUES) return stop(node, TOO_MANY_VALUES);
    const before = { values, repeated };
    if (node.anchor !== undefined) anchors.set(node.anchor, node);
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : isAlias(pair.key) ? `*${pair.key.source}` : undefined;
        if (key !== undefined && seen.has(key) && isNode(pair.key))
          problems.push({ file, path: where(pair.key), message: `invalid YAML: Map keys must be unique (${JSON.stringify(key)} again)` });
        if (key !== undefined) seen.add(key);
        walk(pair.key);
        walk(pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) walk(item);
    }
    if (node.anchor !== undefined) held.set(node, { values: values - before.values + 1, repeated: repeated - before.repeated });
  };
  walk(document.contents);
  return problems.slice(0, MAX_YAML_ERRORS);
}

/**
 * A key written with brackets (`sides[0].plan`, the path form of variants, situations and `--set`)
 * inside `{ }` without quotes: YAML reads its `[` as the start of a list, and the parser's errors
 * (`Missing , or : between flow map items`) say nothing of the cause. The key, when the line the
 * first error is on has one.
 */
function unquotedBracketKey(text: string, offset: number): string | undefined {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const end = text.indexOf('\n', offset);
  const line = text.slice(start, end < 0 ? text.length : end);
  return /[{,]\s*([A-Za-z_$][\w.$-]*(?:\[[^\]\s]*\][\w.$-]*)+)\s*:/.exec(line)?.[1];
}

function parseYaml(file: string, text: string): Parsed {
  const read = readYaml(text);
  const at = (offset: number | undefined): string => {
    if (offset === undefined || offset < 0) return ROOT_PATH;
    const { line, col } = read.lines.linePos(offset);
    return `line ${line}, column ${col}`;
  };
  if ('refused' in read)
    return { ok: false, problems: [{ file, path: at(read.refused.at), message: `invalid YAML: ${read.refused.message}` }] };
  const { document } = read;
  if (document.errors.length > 0) {
    const problems = document.errors.map((error): Problem => {
      const what = (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
      return { file, path: at(error.pos[0]), message: `invalid YAML: ${what}` };
    });
    const key = unquotedBracketKey(text, document.errors[0]?.pos[0] ?? 0);
    const first = problems[0];
    if (key !== undefined && first !== undefined)
      problems[0] = { ...first, message: `${first.message} (inside { }, a key with brackets must be quoted: "${key}": …)` };
    // One syntax slip makes the parser report dozens of follow-on errors: show the first few.
    const shown = problems.slice(0, MAX_YAML_ERRORS);
    const hidden = problems.length - shown.length;
    const next = problems[MAX_YAML_ERRORS];
    if (next !== undefined)
      shown.push({
        ...next,
        message: `invalid YAML: ${hidden} more error${hidden === 1 ? '' : 's'} from here on, probably caused by the first`,
      });
    return { ok: false, problems: shown };
  }
  const structure = structureProblems(file, document, (node) => at(node.range?.[0]));
  if (structure.length > 0) return { ok: false, problems: structure };
  try {
    // maxAliasCount -1: structureProblems has bounded what aliases expand to; the library's own
    // count re-scans the whole document for every alias inside an aliased collection (1,000 took 7 s).
    return { ok: true, data: document.toJS({ maxAliasCount: -1 }) as unknown };
  } catch (error) {
    // toJS throws on an alias with no anchor before it.
    return { ok: false, problems: [{ file, path: ROOT_PATH, message: `invalid YAML: ${(error as Error).message.split('\n')[0]}` }] };
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
  resolve: (fromFile, reference) => (path.isAbsolute(reference) ? reference : path.join(path.dirname(fromFile), reference)),
  bundled: bundledDataPath,
  join: (...parts) => path.join(...parts),
  formatPath,
};
