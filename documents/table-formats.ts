import path from 'pathe';
import { InputError } from '../input/errors.js';

/** The table formats and how a file's name picks one: apart from tables.ts, whose arquero a command loads only when it writes a table. */

/** The formats `--out` writes, by the file's extension: tables for programs (csv, json) and pages for people (md, html). */
export const TABLE_FORMATS = ['csv', 'json', 'md', 'html'] as const;
export type TableFormat = (typeof TABLE_FORMATS)[number];

/** The format an output file's extension asks for (.csv, .json, .md, .html). */
export function formatOfFile(file: string): TableFormat {
  const extension = path.extname(file).toLowerCase().slice(1);
  const format = extension === 'markdown' ? 'md' : extension === 'htm' ? 'html' : extension;
  if (!(TABLE_FORMATS as readonly string[]).includes(format)) {
    throw InputError.at(
      file,
      '--out',
      `cannot tell the table format from ${JSON.stringify(path.extname(file) || '(no extension)')}: use .csv, .json, .md or .html`,
    );
  }
  return format as TableFormat;
}
