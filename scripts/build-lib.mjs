// `npm run build:lib`: the compiled package — ES modules and their .d.ts in dist/lib, from the
// entry points tsconfig.build.json names (the library, crucible-lab/plugin and /reports, the CLI,
// the worker's handler, each built-in's kernel module). Then what tsc does not do: the worker
// entry (plain JavaScript) is copied beside its handler, and a module URL a source file builds
// from its own .ts name (`new URL('./kernel-module.ts', import.meta.url)`) is pointed at the
// compiled .js. Plain JavaScript, so that it runs without tsx. Usage: node scripts/build-lib.mjs [--out dir]
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const outIndex = process.argv.indexOf('--out');
const out = outIndex === -1 ? path.join(root, 'dist', 'lib') : path.resolve(process.argv[outIndex + 1] ?? '');

rmSync(out, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json'), '--outDir', out], {
  cwd: root,
  stdio: 'inherit',
});
if (compiled.status !== 0) process.exit(compiled.status ?? 1);

copyFileSync(path.join(root, 'sim', 'shard-worker-entry.mjs'), path.join(out, 'sim', 'shard-worker-entry.mjs'));

/** Every file under `directory`. */
const filesUnder = (directory) =>
  readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));

const TS_URL = /new URL\('(\.{1,2}\/[^']+)\.ts', import\.meta\.url\)/g;
const problems = [];
for (const file of filesUnder(out).filter((name) => name.endsWith('.js'))) {
  const text = readFileSync(file, 'utf8');
  const rewritten = text.replace(TS_URL, (whole, stem) => {
    if (existsSync(path.resolve(path.dirname(file), `${stem}.js`))) return `new URL('${stem}.js', import.meta.url)`;
    problems.push(`${path.relative(out, file)}: ${whole} names a module the build did not compile`);
    return whole;
  });
  if (rewritten !== text) writeFileSync(file, rewritten);
}
// A package.json inside dist/lib would become the package scope of the compiled code.
if (existsSync(path.join(out, 'package.json')))
  problems.push('package.json: a source file imports package.json (read it through input/package-info.ts)');
if (problems.length > 0) {
  process.stderr.write(`build-lib: ${problems.join('\nbuild-lib: ')}\n`);
  process.exit(1);
}
