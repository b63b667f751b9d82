/**
 * `npm run scenarios`: `crucible run` on every built-in rule system's bundled scenarios, in the
 * registry's order (engine/registry.ts; each folder's examples.ts names its scenarios' folder).
 * Arguments go to `crucible run`: `npm run scenarios -- --trials 10000 --json`.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { builtInExamples, REPOSITORY } from './rule-system-examples.js';

const folders = (await builtInExamples()).map((found) => path.relative(process.cwd(), found.file(found.examples.scenarios)) || '.');
const run = spawnSync(process.execPath, [path.join(REPOSITORY, 'bin', 'crucible.js'), 'run', ...folders, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
if (run.error !== undefined) process.stderr.write(`npm run scenarios: ${run.error.message}\n`);
process.exitCode = run.status ?? 1;
