import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * Output redirected to a full disk (`crucible … > /dev/full`, Linux's always-full device): one line
 * saying so and exit 2, not a stack trace (issue 31). The real binary, since the failure is the
 * process's stdout; `--version` is its cheapest output.
 */

describe.runIf(existsSync('/dev/full'))('stdout on a full disk', () => {
  it('says so in one line and exits 2', () => {
    const full = openSync('/dev/full', 'w');
    try {
      const result = spawnSync(process.execPath, [path.join(REPOSITORY, 'bin', 'crucible.js'), '--version'], {
        stdio: ['ignore', full, 'pipe'],
        encoding: 'utf8',
        env: { ...process.env, CRUCIBLE_DEBUG: '' },
      });
      expect(result.stderr).toBe('crucible: cannot write the output to stdout: no space left on the device (ENOSPC)\n');
      expect(result.status).toBe(2);
    } finally {
      closeSync(full);
    }
  });
});
