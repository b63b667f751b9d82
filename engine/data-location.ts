import type { BundledData, DataFiles, Problem } from './rule-system.js';

/**
 * Where a built-in scenario's data is: the field that names it (`armies: ../armies`, `data: ..`,
 * `unitsFile: ../units.yaml`) is read relative to the scenario file, and its default is the layout of
 * data/<rule system>/ seen from its scenarios/ folder. A scenario elsewhere — copied to scratch/, as
 * the README suggests — that leaves the field at its default would find nothing there; it reads
 * crucible's bundled data instead (`DataFiles.bundled`: the default as a bundled scenario reads it),
 * and its results say so (input/provenance.ts). A value the scenario sets is never replaced: when
 * nothing is there, the problem names the path tried and the line that fixes it.
 */

/** A scenario field naming data by a path relative to the scenario file. */
export interface DataField {
  /** The field, e.g. `armies`. */
  readonly name: string;
  /** Its value in the scenario (the default when the scenario does not set it). */
  readonly value: string;
  /** The schema's default. */
  readonly defaultValue: string;
  /** What it names, in words, starting a problem's message: "army files directory". */
  readonly what: string;
}

export type DataLocation = { readonly path: string; readonly bundled?: BundledData } | { readonly problem: Problem };

/** Whether a folder can be listed. */
export const folderExists =
  (files: DataFiles) =>
  async (directory: string): Promise<boolean> =>
    (await files.list(directory)) !== undefined;

/**
 * The path `field` leads to from `file` (the scenario), or the bundled data of `ruleSystem` when the
 * field is at its default and nothing is beside the scenario; a problem when neither is there.
 */
export async function locateData(
  files: DataFiles,
  file: string,
  ruleSystem: string,
  field: DataField,
  exists: (path: string) => Promise<boolean>,
): Promise<DataLocation> {
  const tried = files.resolve(file, field.value);
  if (await exists(tried)) return { path: tried };
  const bundled = files.bundled(ruleSystem, field.defaultValue);
  if (field.value !== field.defaultValue) {
    const relative = tried === field.value ? '' : `, relative to the scenario's folder`;
    const message = `${field.what} not found: ${tried} (from ${field.name}: ${field.value}${relative}); for crucible's bundled one, delete that line or write ${field.name}: ${bundled}`;
    return { problem: { file, path: field.name, message } };
  }
  if (await exists(bundled)) return { path: bundled, bundled: { field: field.name, path: bundled } };
  const message = `${field.what} not found: neither ${tried} (from the default ${field.name}: ${field.value}, relative to the scenario's folder) nor crucible's bundled ${bundled}; write ${field.name}: <the path of yours, relative to the scenario's folder>`;
  return { problem: { file, path: field.name, message } };
}
