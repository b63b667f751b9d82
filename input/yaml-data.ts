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
import {
  MAX_DATA_FILE_BYTES,
  MAX_DATA_VALUES,
  MAX_NESTING,
  MAX_YAML_ANCHORS_AND_ALIASES,
  type Parsed,
  TOO_DEEP,
  TOO_MANY_VALUES,
} from './data-limits.js';
import { groupThousands } from './thousands.js';
import { type Problem, ROOT_PATH } from './errors.js';

/**
 * A YAML file's text into plain data, with every problem at its line and column, within the bounds
 * of data-limits.ts. Its own module so that the yaml library is loaded when a YAML file is first
 * read (data-file.ts), not by every command.
 */

const MAX_YAML_ERRORS = 3;

/** The text aliases may repeat, in all: a small file must not expand into gigabytes (an alias bomb of long strings). */
const MAX_ALIASED_CHARACTERS = MAX_DATA_FILE_BYTES;

const TOO_MANY_ANCHORS = `more than ${groupThousands(MAX_YAML_ANCHORS_AND_ALIASES)} anchors and aliases (&name, *name), the most crucible reads`;

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

export function parseYaml(file: string, text: string): Parsed {
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
