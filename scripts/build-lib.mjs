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
import { pathToFileURL } from 'node:url';

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
await bundleDistributions(path.join(out, 'statistics', 'distributions.js'));
await vendorPackages(out);

// A package.json inside dist/lib would become the package scope of the compiled code.
if (existsSync(path.join(out, 'package.json')))
  problems.push('package.json: a source file imports package.json (read it through input/package-info.ts)');
if (problems.length > 0) {
  process.stderr.write(`build-lib: ${problems.join('\nbuild-lib: ')}\n`);
  process.exit(1);
}

/**
 * stdlib's distribution functions (statistics/distributions.ts) come as about 800 small CommonJS
 * files — the t quantile every run's mean intervals need pulls in 130 packages — and resolving and
 * compiling them took about 0.15 s of CPU at every start of the compiled command, most of a short
 * run's own work. The compiled module is bundled with the stdlib code it imports into one file by
 * esbuild (tsx's and Vite's bundler, so always installed here): the same code, so the same numbers,
 * which is checked here on a grid of arguments against stdlib's own packages before the build is kept.
 * The `require` of the banner serves the Node built-ins stdlib's `debug` logging requires.
 */
async function bundleDistributions(file) {
  const esbuild = await import(pathToFileURL(createRequire(import.meta.url).resolve('esbuild')).href);
  await esbuild.build({
    entryPoints: [file],
    outfile: file,
    allowOverwrite: true,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
    banner: {
      js: "import { createRequire as createRequireOfStdlib } from 'node:module'; const require = createRequireOfStdlib(import.meta.url);",
    },
  });
  const bundled = await import(pathToFileURL(file).href);
  const require = createRequire(import.meta.url);
  const stdlib = (name) => require(`@stdlib/${name}`);
  const tQuantile = stdlib('stats-base-dists-t-quantile');
  const tCdf = stdlib('stats-base-dists-t-cdf');
  const normalQuantile = stdlib('stats-base-dists-normal-quantile');
  const normalCdf = stdlib('stats-base-dists-normal-cdf');
  const gammainc = stdlib('math-base-special-gammainc');
  const differences = [];
  const same = (name, got, expected) => {
    if (!Object.is(got, expected)) differences.push(`${name}: ${got} ≠ ${expected}`);
  };
  const probabilities = [1e-12, 1e-6, 0.001, 0.01, 0.025, 0.05, 0.1, 0.3, 0.5, 0.7, 0.9, 0.95, 0.975, 0.99, 0.999, 1 - 1e-9];
  const freedoms = [0.5, 1, 1.5, 2, 3, 5, 9.75, 29, 63, 99, 999, 4095, 65535, 1e6, 4.2e9];
  for (const p of probabilities) {
    same(`normalQuantile(${p})`, bundled.normalQuantile(p), normalQuantile(p, 0, 1));
    for (const df of freedoms) same(`studentTQuantile(${p}, ${df})`, bundled.studentTQuantile(p, df), tQuantile(p, df));
  }
  for (const x of [-40, -8, -3.5, -1.96, -0.5, 0, 0.25, 1, 1.96, 3, 12]) {
    same(`normalCdf(${x})`, bundled.normalCdf(x), normalCdf(x, 0, 1));
    for (const df of freedoms) same(`studentTCdf(${x}, ${df})`, bundled.studentTCdf(x, df), tCdf(x, df));
  }
  for (const x of [0.01, 0.5, 1, 3.84, 10, 50, 400])
    for (const df of [1, 2, 3, 7, 24, 100])
      same(`chiSquareSurvival(${x}, ${df})`, bundled.chiSquareSurvival(x, df), gammainc(x / 2, df / 2, true, true));
  if (differences.length > 0) {
    process.stderr.write(
      `build-lib: the bundled statistics/distributions.js differs from stdlib:\n  ${differences.slice(0, 10).join('\n  ')}\n`,
    );
    process.exit(1);
  }
}

/**
 * Packages of many small modules whose loading was a good part of every start of the compiled
 * command (CPU time of `import`, measured): yaml's Node build, about 40 CommonJS files, took 40 ms,
 * bundled 5 ms; commander 13 ms, bundled 7 ms. Each is bundled into vendor/<name>.js, with its
 * licence, and the compiled modules import that instead of the package (their .d.ts still name the
 * package, which stays a dependency). yaml's bundle is its ES module build — the one Vite gives the
 * workbench, from the same sources — not its CommonJS "node" one. zod is not bundled: a plugin's
 * schemas are built with its own import of zod, and mixing the two copies is the plugin API's risk
 * to avoid, not this build's to add.
 */
async function vendorPackages(outDirectory) {
  const VENDORED = [
    { name: 'yaml', platform: 'browser' },
    { name: 'commander', platform: 'node' },
  ];
  const esbuild = await import(pathToFileURL(createRequire(import.meta.url).resolve('esbuild')).href);
  const require = createRequire(import.meta.url);
  for (const { name, platform } of VENDORED) {
    const vendored = path.join(outDirectory, 'vendor', `${name}.js`);
    let folder = path.dirname(require.resolve(name));
    while (
      !existsSync(path.join(folder, 'package.json')) ||
      JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')).name !== name
    )
      folder = path.dirname(folder);
    const licence = readFileSync(path.join(folder, 'LICENSE'), 'utf8').trim();
    // A CommonJS package's require()s of Node's modules need a require in an ES module.
    const requireShim =
      "import { createRequire as createRequireOfVendored } from 'node:module'; const require = createRequireOfVendored(import.meta.url);";
    await esbuild.build({
      stdin: { contents: `export * from '${name}';`, resolveDir: root, sourcefile: `vendor-${name}.js` },
      outfile: vendored,
      bundle: true,
      format: 'esm',
      platform,
      target: platform === 'node' ? 'node20' : 'es2022',
      logLevel: 'error',
      banner: {
        js: `/*! ${name}, bundled from its package by scripts/build-lib.mjs. Its licence:\n${licence.replaceAll('*/', '* /')}\n*/${platform === 'node' ? `\n${requireShim}` : ''}`,
      },
    });
    const specifier = `from '${name}'`;
    for (const file of filesUnder(outDirectory).filter(
      (found) => found.endsWith('.js') && !found.startsWith(path.join(outDirectory, 'vendor')),
    )) {
      const text = readFileSync(file, 'utf8');
      if (!text.includes(specifier)) continue;
      const relative = path.relative(path.dirname(file), vendored).split(path.sep).join('/');
      writeFileSync(file, text.replaceAll(specifier, `from '${relative.startsWith('.') ? relative : `./${relative}`}'`));
    }
  }
}
