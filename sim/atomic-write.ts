import { open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * The one way crucible writes a file it is asked for (--out, checkpoints, part files, reports,
 * schemas): whole or not at all. A full disk or a kill midway must leave the previous file as it
 * was, never a 0-byte or cut-short one that a later step reads as real.
 *
 * The temporary file is `<file>.crucible-<pid>.tmp`, beside the target (a rename is atomic only
 * within one file system). One left by a killed process is safe to delete; the next write of the
 * same file deletes those whose process is gone, once they are STALE_AFTER_MILLISECONDS old.
 */

/** Old enough that no write is still in progress, even one from another machine on a shared folder (whose pid means nothing here). */
export const STALE_AFTER_MILLISECONDS = 10 * 60 * 1000;

const temporaryOf = (file: string, pid: number): string => `${file}.crucible-${pid}.tmp`;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether process `pid` runs on this machine (EPERM: it does, as another user). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

/**
 * Delete the temporary files of `file` that killed writers left: ours (`.crucible-<pid>.tmp`) and
 * those of crucible 0.1.0 (`.<pid>.tmp`). Best effort: an unreadable folder just keeps them.
 */
export async function removeStaleTemporaries(file: string, now: number = Date.now()): Promise<void> {
  const directory = path.dirname(file);
  const pattern = new RegExp(`^${escapeRegExp(path.basename(file))}\\.(?:crucible-)?(\\d+)\\.tmp$`);
  const names = await readdir(directory).catch(() => [] as string[]);
  for (const name of names) {
    const pid = Number(pattern.exec(name)?.[1]);
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || processAlive(pid)) continue;
    const candidate = path.join(directory, name);
    const info = await stat(candidate).catch(() => undefined);
    if (info?.isFile() === true && now - info.mtimeMs >= STALE_AFTER_MILLISECONDS) await rm(candidate, { force: true }).catch(() => {});
  }
}

/** Why a write failed, in words (ENOENT on writing: the folder, not the file, is missing). */
export function writeFailure(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === 'ENOENT') return 'its directory does not exist';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'is a directory';
  if (code === 'ENOSPC') return 'no space left on the device (nothing was written; the previous file, if any, is as it was)';
  if (code === 'EDQUOT') return 'disk quota exceeded (nothing was written; the previous file, if any, is as it was)';
  if (code === 'EROFS') return 'read-only file system';
  if (code === 'EFBIG') return "file too large for this system's limit (nothing was written; the previous file, if any, is as it was)";
  return error instanceof Error ? error.message : String(error);
}

/**
 * Replace `file` with `content`, atomically: written beside it, flushed (or a power cut could leave
 * the new name on empty data), then renamed over it; the temporary file is removed if anything
 * fails, and the error (ENOSPC, EACCES…) is thrown for the caller to name the file.
 */
export async function writeAtomically(file: string, content: string | Uint8Array): Promise<void> {
  await removeStaleTemporaries(file);
  const temporary = temporaryOf(file, process.pid);
  try {
    const handle = await open(temporary, 'w');
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => {});
    throw error;
  }
}
