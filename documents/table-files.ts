import type { ColumnTable } from 'arquero';
import { InputError, ROOT_PATH } from '../input/errors.js';
import { writeAtomically, writeFailure } from '../sim/atomic-write.js';
import { formatOfFile, formatTable } from './tables.js';

/** Tables and texts written to the files a command is given (`--out`): Node only, kept apart from tables.ts, which the workbench shares. */

export async function writeTable(table: ColumnTable, file: string): Promise<void> {
  await writeTextFile(file, formatTable(table, formatOfFile(file)));
}

/** Write an output file whole or not at all (a full disk leaves the previous file); a failure is the user's bad path (exit 2), named. */
export async function writeTextFile(file: string, text: string): Promise<void> {
  try {
    await writeAtomically(file, text);
  } catch (error) {
    throw InputError.at(file, ROOT_PATH, `cannot write: ${writeFailure(error)}`);
  }
}
