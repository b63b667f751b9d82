import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPOSITORY, repositoryTree } from '../helpers/repository.js';

/**
 * The test files of one vitest fork share their modules (vitest.config.ts: `isolate: false`), so a
 * test that mocks a module, spies on one, stubs a global or the environment, or sets process state
 * would change what the next file sees. None may.
 */

const SHARED_STATE_CHANGES = [
  /\bvi\.(mock|doMock|spyOn|stubGlobal|stubEnv|useFakeTimers)\(/,
  /\bprocess\.(chdir|umask)\(/,
  /\bprocess\.env\.\w+\s*=[^=]/,
  /\bprocess\.env\[[^\]]+\]\s*=[^=]/,
  /\bObject\.prototype\.\w+\s*=[^=]/,
];

describe('tests share modules safely', () => {
  it('no test file mocks, spies, stubs globals or the environment, or changes process state', () => {
    const testFiles = repositoryTree().textFiles.filter(
      (file) => file.startsWith(path.join(REPOSITORY, 'test')) && file.endsWith('.ts') && file !== import.meta.filename,
    );
    expect(testFiles.length).toBeGreaterThan(40);
    const found = testFiles.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          SHARED_STATE_CHANGES.some((pattern) => pattern.test(line))
            ? [`${path.relative(REPOSITORY, file)}:${index + 1}: ${line.trim()}`]
            : [],
        ),
    );
    expect(found).toEqual([]);
  });
});
