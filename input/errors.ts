/**
 * Bad input from a user's file or command line. Its message has exactly one line per problem,
 * `<file>: <path>: <what is wrong>`, so a user (or an editor's problem matcher) can jump to it.
 * The CLI prints the message without a stack trace and exits with status 2.
 */
import type { Problem } from '../engine/rule-system.js';

/** The one type of a problem with a user's input (engine/rule-system.ts): `<file>: <path>: <message>`. */
export type { Problem };

export const ROOT_PATH = '(root)';

const SIMPLE_KEY = /^[A-Za-z_$][\w$-]*$/;

/** Is the field path `path` the field `field` itself or inside it (`field.x`, `field[0]`)? */
export function withinField(path: string, field: string): boolean {
  return path === field || path.startsWith(`${field}.`) || path.startsWith(`${field}[`);
}

/** `['sides', 0, 'groups', 1, 'unit']` → `sides[0].groups[1].unit`; empty → `(root)`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else {
      const name = String(key);
      text += SIMPLE_KEY.test(name) ? (text === '' ? name : `.${name}`) : `[${JSON.stringify(name)}]`;
    }
  }
  return text === '' ? ROOT_PATH : text;
}

/**
 * One problem as one line: line breaks (and a lone CR, which would overwrite the line) in
 * user-supplied text are escaped rather than printed, and so are the other control characters and
 * the bidirectional overrides (a name read from a checkpoint or a part may hold an escape sequence).
 */
export function formatProblem(problem: Problem): string {
  const oneLine = (text: string): string => escapeUnprintable(text.replace(/\r?\n/g, '\\n').replace(/\r/g, '\\r'));
  return `${oneLine(problem.file)}: ${oneLine(problem.path || ROOT_PATH)}: ${oneLine(problem.message)}`;
}

/**
 * The most problems listed for one file: a file with 40,000 unknown keys printed 40,000 lines (535 MB
 * of text), and 200,000 overflowed the stack. A hundred lines still show every problem of a real
 * file (a damaged result's metrics, each with a few fields) on one screenful or two.
 */
export const MAX_PROBLEMS_PER_FILE = 100;

/** `problems` with at most MAX_PROBLEMS_PER_FILE of each file, the rest counted in one closing line per file. */
export function boundedProblems(problems: readonly Problem[]): readonly Problem[] {
  if (problems.length <= MAX_PROBLEMS_PER_FILE) return problems;
  const shown = new Map<string, number>();
  const kept: Problem[] = [];
  for (const problem of problems) {
    const count = (shown.get(problem.file) ?? 0) + 1;
    shown.set(problem.file, count);
    if (count <= MAX_PROBLEMS_PER_FILE) kept.push(problem);
  }
  for (const [file, count] of shown) {
    const more = count - MAX_PROBLEMS_PER_FILE;
    if (more > 0)
      kept.push({
        file,
        path: ROOT_PATH,
        message: `… and ${more.toLocaleString('en-US')} more problem${more === 1 ? '' : 's'} (only the first ${MAX_PROBLEMS_PER_FILE} of a file are listed)`,
      });
  }
  return kept;
}

export class InputError extends Error {
  override readonly name = 'InputError';
  /** At most MAX_PROBLEMS_PER_FILE per file, then one line counting the rest (boundedProblems). */
  readonly problems: readonly Problem[];

  constructor(problems: readonly Problem[]) {
    if (problems.length === 0) throw new RangeError('an InputError needs at least one problem');
    const bounded = boundedProblems(problems);
    super(bounded.map(formatProblem).join('\n'));
    this.problems = bounded;
  }

  /** One problem in one file. */
  static at(file: string, path: string, message: string): InputError {
    return new InputError([{ file, path, message }]);
  }

  /** The file of the first problem (most errors concern a single file). */
  get file(): string {
    return (this.problems[0] as Problem).file;
  }

  /** The path of the first problem. */
  get path(): string {
    return (this.problems[0] as Problem).path;
  }
}

/**
 * Characters no name or text of a data file may hold: control characters (tab and line feed
 * aside) and the bidirectional overrides — on a terminal they move the cursor, recolour or reorder
 * what crucible prints, so a name could make an output say something other than it does. A
 * carriage return is one of them (it sends the cursor back over the line); a line feed is allowed
 * in texts (a description) but not in names (NAME_FIELD).
 */
const UNPRINTABLE_CHARACTERS = '[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069]';
const UNPRINTABLE = new RegExp(UNPRINTABLE_CHARACTERS);
const EVERY_UNPRINTABLE = new RegExp(UNPRINTABLE_CHARACTERS, 'g');

/** `text` with every UNPRINTABLE character as a \u escape (a name from a part or checkpoint printed safely). */
export const escapeUnprintable = (text: string): string =>
  text.replace(EVERY_UNPRINTABLE, (character) => `\\u${(character.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`);
/**
 * The one rule for line breaks: names and ids are one line — every mapping key, and the value of
 * every field called `name`, `id` or `label` or ending in `Name`, `Id` or `Label` (a side's name
 * heads a table row); other texts (`description`, `source`, `note`) may span lines.
 */
const NAME_FIELD = /^(name|id|label)$|(Name|Id|Label)$/;
const MAX_UNPRINTABLE_PROBLEMS = 3;

/** Any character UNPRINTABLE holds, or a line feed: what no mapping key (a name) may hold. */
const UNPRINTABLE_IN_NAME = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const codePoint = (character: string): string => `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

/** What is wrong with the string `value` of the field `field`, if anything. */
function stringProblem(value: string, field: string | undefined): string | undefined {
  const found = UNPRINTABLE.exec(value)?.[0];
  if (found !== undefined)
    return `holds the control character ${codePoint(found)}: names and texts may not move the cursor, recolour or reorder what is printed`;
  if (field !== undefined && NAME_FIELD.test(field) && value.includes('\n'))
    return 'holds a line break: names and ids are one line (only texts such as a description may span lines)';
  return undefined;
}

/** A mapping or list being walked by unprintableProblems, at its `index`-th entry. */
interface Frame {
  readonly node: object;
  /** A mapping's keys; undefined for a list. */
  readonly keys: readonly string[] | undefined;
  readonly length: number;
  index: number;
  /** The field the mapping or list is the value of (a list's items are named by it). */
  readonly field: string | undefined;
}

/**
 * Unprintable characters anywhere in `data` (UNPRINTABLE, and line breaks in names: NAME_FIELD), and
 * fields called `__proto__`, in the file's order. A loop over a stack of the open mappings and lists, not recursion, so any
 * depth is safe; `field`: the field `data` is the value of, when it is one (a `--set` value).
 */
export function unprintableProblems(file: string, data: unknown, field?: string): Problem[] {
  const problems: Problem[] = [];
  const frames: Frame[] = [];
  const segments = (): PropertyKey[] =>
    frames.map((frame) => (frame.keys === undefined ? frame.index : (frame.keys[frame.index] as string)));
  const here = (): string => formatPath(segments());
  const enter = (value: unknown, name: string | undefined): void => {
    if (typeof value === 'string') {
      const problem = stringProblem(value, name);
      if (problem !== undefined) problems.push({ file, path: here(), message: problem });
    } else if (value !== null && typeof value === 'object') {
      const keys = Array.isArray(value) ? undefined : Object.keys(value);
      for (const key of keys ?? []) {
        if (UNPRINTABLE_IN_NAME.test(key))
          problems.push({ file, path: here(), message: `a field name holds a control character or a line break (${JSON.stringify(key)})` });
        // JSON.parse and YAML keep it as a field, but the checks and merges that follow drop it without a word.
        else if (key === '__proto__')
          problems.push({
            file,
            path: formatPath([...segments(), key]),
            message: 'a field may not be called __proto__ (it would be ignored without a word): rename or remove it',
          });
      }
      frames.push({ node: value, keys, length: keys === undefined ? (value as unknown[]).length : keys.length, index: -1, field: name });
    }
  };
  enter(data, field);
  while (frames.length > 0 && problems.length < MAX_UNPRINTABLE_PROBLEMS) {
    const frame = frames[frames.length - 1] as Frame;
    frame.index += 1;
    if (frame.index >= frame.length) {
      frames.pop();
      continue;
    }
    const key = frame.keys?.[frame.index];
    enter(
      key === undefined ? (frame.node as readonly unknown[])[frame.index] : (frame.node as Readonly<Record<string, unknown>>)[key],
      key ?? frame.field,
    );
  }
  return problems.slice(0, MAX_UNPRINTABLE_PROBLEMS);
}
