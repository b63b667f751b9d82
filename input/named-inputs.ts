/**
 * Which inputs a person named on the command line, and the streams among them already read: the
 * state behind input/data-file.ts's reading of standard input and pipes, kept in a module of its
 * own so that the CLI's entry can reset it without loading the file readers (`crucible --version`
 * loads no YAML).
 */

/**
 * The inputs a person named on the command line (a command's file arguments, `--against`): only
 * these may be standard input (`-`), a pipe or a device (`/dev/stdin`, `<(…)`), each read to its
 * end within the same size limit as a file. A file a scenario points at (`unitsFile:`, a checkpoint)
 * never may: opening a FIFO waits for a writer for good, and /dev/zero never ends.
 */
export const namedInputs = new Set<string>();

/**
 * The text of each stream read, by name: a pipe can be read once, and a command may read its file
 * several times. `bytes` undefined: it went on past the first reader's limit (nothing kept).
 */
export const streamedTexts = new Map<string, { readonly text: string; readonly bytes: number | undefined }>();

/** Start a command afresh: nothing named, no stream read (the CLI's `main` calls it first). */
export function forgetNamedInputs(): void {
  namedInputs.clear();
  streamedTexts.clear();
}

/** Mark `files` as named by the person running the command: each may be `-`, a pipe or a device. */
export function nameInputs(files: readonly string[]): void {
  for (const file of files) namedInputs.add(file);
}
