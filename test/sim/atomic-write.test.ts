import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTextFile } from '../../documents/table-files.js';
import { STALE_AFTER_MILLISECONDS } from '../../sim/atomic-write.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * Output files (`--out` of sweep, compare, matchups and balance go through writeTextFile; part
 * files, checkpoints, reports and schemas through the same writeAtomically) are written whole or not
 * at all. A write that fails midway is made real, not mocked: the command runs under a file-size
 * limit (ulimit -f, its signal ignored), so the kernel refuses the write once the file would pass it,
 * as a full disk refuses it once the space is gone.
 */

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'crucible-atomic-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('writing an output file', () => {
  it('a write refused midway (a full disk, a size limit): exit 2 naming the file, the previous file intact, no temporary file left', async () => {
    const out = path.join(directory, 'schemas');
    await mkdir(out);
    const previous = path.join(out, 'heroic-scenario.schema.json');
    await writeFile(previous, 'previous\n');
    // 4 KB at most per file: every schema is larger. SIGXFSZ ignored, so the write fails with EFBIG instead of killing the process.
    const run = spawnSync('bash', ['-c', `trap '' XFSZ; ulimit -f 4; exec "${process.execPath}" bin/crucible.js schema --out "${out}"`], {
      cwd: REPOSITORY,
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr).toBe(
      `${previous}: (root): cannot write: file too large for this system's limit (nothing was written; the previous file, if any, is as it was)\n`,
    );
    expect(await readFile(previous, 'utf8')).toBe('previous\n');
    expect(await readdir(out)).toEqual(['heroic-scenario.schema.json']);
  });

  it("deletes the stale temporary files of a killed writer of the same file, and nobody else's", async () => {
    const out = path.join(directory, 'report.md');
    // Pids above Linux's pid_max (2^22) belong to no process.
    const stale = ['report.md.crucible-9999991.tmp', 'report.md.9999992.tmp'];
    const kept = ['report.md.crucible-9999993.tmp', 'other.md.crucible-9999994.tmp', `report.md.crucible-${process.ppid}.tmp`];
    for (const name of [...stale, ...kept]) await writeFile(path.join(directory, name), 'half a fi');
    const old = (Date.now() - STALE_AFTER_MILLISECONDS - 60_000) / 1000;
    // The first of `kept` is recent (a write may still be in progress on another machine), the others are old.
    for (const name of [...stale, ...kept.slice(1)]) await utimes(path.join(directory, name), old, old);
    await writeTextFile(out, '# report\n');
    expect(await readFile(out, 'utf8')).toBe('# report\n');
    const left = await readdir(directory);
    for (const name of stale) expect(left).not.toContain(name);
    for (const name of kept) expect(left).toContain(name);
  });
});
