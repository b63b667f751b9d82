/**
 * Bad input from a user's file or command line. Its message has exactly one line per problem,
 * `<file>: <path>: <what is wrong>`, so a user (or an editor's problem matcher) can jump to it.
 * The CLI prints the message without a stack trace and exits with status 2.
 */
export interface InputProblem {
  /** The file at fault, as the user named it (or as derived from a name they gave). */
  readonly file: string;
  /** Where inside the file, e.g. `sides[0].groups[1].unit`, `line 3, column 5`, or `(root)`. */
  readonly path: string;
  readonly message: string;
}

export const ROOT_PATH = '(root)';

const SIMPLE_KEY = /^[A-Za-z_$][\w$-]*$/;

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

/** One problem as one line: newlines in user-supplied text are escaped rather than printed. */
export function formatProblem(problem: InputProblem): string {
  const oneLine = (text: string): string => text.replace(/\r?\n/g, '\\n');
  return `${oneLine(problem.file)}: ${oneLine(problem.path || ROOT_PATH)}: ${oneLine(problem.message)}`;
}

export class InputError extends Error {
  override readonly name = 'InputError';
  readonly problems: readonly InputProblem[];

  constructor(problems: readonly InputProblem[]) {
    if (problems.length === 0) throw new RangeError('an InputError needs at least one problem');
    super(problems.map(formatProblem).join('\n'));
    this.problems = problems;
  }

  /** One problem in one file. */
  static at(file: string, path: string, message: string): InputError {
    return new InputError([{ file, path, message }]);
  }

  /** The file of the first problem (most errors concern a single file). */
  get file(): string {
    return (this.problems[0] as InputProblem).file;
  }

  /** The path of the first problem. */
  get path(): string {
    return (this.problems[0] as InputProblem).path;
  }
}
