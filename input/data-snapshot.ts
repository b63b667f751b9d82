import type { z } from 'zod';
import type { DataFiles, ParsedFile, Problem } from '../engine/rule-system.js';
import { fileSystemData } from './data-file.js';

/**
 * One analysis's view of the data files: each file read and each file checked once, each folder
 * listed and each path looked for once, however many scenarios the analysis loads. A 100-unit
 * Warmaster round robin loads 10,000 seated scenarios from the same army lists; reading, checking
 * and listing them again for each was most of a run's set-up (bench/README.md, "A 390 × 390 Warmaster round robin"). Every
 * run of the analysis also sees the same data, even if a file changes while it runs.
 *
 * A checked value is shared by every load that reads it, so it is deeply frozen: a loader that
 * changed one would throw instead of changing the next load's data. Plain data from `read` is
 * copied for each caller instead, as `readDataFile` does, because loaders may edit it.
 */
export function snapshotDataFiles(files: DataFiles = fileSystemData): DataFiles {
  const reads = new Map<string, Promise<ParsedFile>>();
  const checks = new WeakMap<z.ZodType, Map<string, Promise<{ value?: unknown; problems: Problem[] }>>>();
  const listings = new Map<string, Promise<readonly string[] | undefined>>();
  const found = new Map<string, Promise<boolean>>();
  return {
    ...files,
    async read(file) {
      let read = reads.get(file);
      if (read === undefined) reads.set(file, (read = files.read(file)));
      const parsed = await read;
      return parsed.ok ? { ok: true, data: structuredClone(parsed.data) } : parsed;
    },
    readChecked<Schema extends z.ZodType>(file: string, schema: Schema) {
      let bySchema = checks.get(schema);
      if (bySchema === undefined) checks.set(schema, (bySchema = new Map()));
      let checked = bySchema.get(file);
      if (checked === undefined) {
        checked = files.readChecked(file, schema).then((result) => deepFreeze(result));
        bySchema.set(file, checked);
      }
      return checked as Promise<{ value?: z.output<Schema>; problems: Problem[] }>;
    },
    exists(file) {
      let there = found.get(file);
      if (there === undefined) found.set(file, (there = files.exists(file)));
      return there;
    },
    list(directory) {
      let listing = listings.get(directory);
      if (listing === undefined) listings.set(directory, (listing = files.list(directory)));
      return listing;
    },
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
