import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/capture.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * The published package as a user gets it (issue 33), after the manner of pure-rand's test-bundle:
 * the compiled build (scripts/build-lib.mjs) packed by `npm pack`, linted by publint and Are the
 * Types Wrong, installed from the registry into an empty folder, then used with plain Node — no
 * tsx, no TypeScript, no repository: the library through its entry point, the `crucible` command
 * through npx (worker threads included), a rule system written against crucible-lab/plugin's
 * types, the workbench's server, and the one-line errors where an optional package is missing.
 * One build, one tarball and one install serve every assertion: about 75 s on 2 busy cores (load
 * 9–12), of which the build (tsc) 20–35 s and the install 6 s with npm's cache warm (packages
 * taken from it without asking the registry again: --prefer-offline), 20–25 s cold. The log says
 * how long each part took.
 */

const SCENARIO = 'data/heroic/scenarios/sylvan-knights-formation.yaml';
const SLOW = 600_000;
const require = createRequire(import.meta.url);

interface Ran {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A child process's environment without what npm or vitest set for this one (NODE_OPTIONS, npm_* settings). */
const cleanEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_') && name !== 'NODE_OPTIONS'));

function run(command: string, args: readonly string[], cwd: string): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env: cleanEnv(), maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ status: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}

async function ok(command: string, args: readonly string[], cwd: string): Promise<string> {
  const result = await run(command, args, cwd);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: exit ${result.status}\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

let work: string;
let app: string;
let tarball: string;
let packedFiles: string[];
let unpackedSize: number;
const seconds: Record<string, number> = {};

async function timed<T>(name: string, step: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const value = await step();
  seconds[name] = (performance.now() - start) / 1000;
  return value;
}

/** `npx crucible …` in the user's folder. */
const crucible = (args: readonly string[]): Promise<Ran> => run('npx', ['--no-install', 'crucible', ...args], app);

/** The installed package's copy of a bundled file, as the user names it from their folder. */
const installed = (file: string): string => path.join('node_modules', 'crucible-lab', file);

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'crucible-packed-'));
  app = path.join(work, 'app');
  await timed('build', () => ok(process.execPath, ['scripts/build-lib.mjs'], REPOSITORY));
  // --ignore-scripts: prepack would build the workbench page again; test/global-setup.ts made dist/web fresh.
  const packed = JSON.parse(
    await timed('pack', () => ok('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], REPOSITORY)),
  ) as { filename: string; unpackedSize: number; files: { path: string }[] }[];
  const [summary] = packed;
  if (summary === undefined) throw new Error('npm pack printed no package');
  tarball = path.join(work, summary.filename);
  packedFiles = summary.files.map((file) => file.path);
  unpackedSize = summary.unpackedSize;
  await mkdir(app);
  await writeFile(
    path.join(app, 'package.json'),
    `${JSON.stringify({ name: 'a-designers-project', private: true, type: 'module' }, null, 2)}\n`,
  );
  await timed('install', () => ok('npm', ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], app));
  console.log(
    `packed test: build ${seconds.build?.toFixed(1)} s, pack ${seconds.pack?.toFixed(1)} s, npm install ${seconds.install?.toFixed(1)} s; tarball ${packedFiles.length} files, ${(unpackedSize / 1e6).toFixed(1)} MB unpacked`,
  );
}, SLOW);

afterAll(async () => {
  if (work !== undefined) await rm(work, { recursive: true, force: true });
});

describe('the tarball', () => {
  it('holds the compiled library with its types, the command, the built workbench, the data and its licence; no source, tests or tools', () => {
    for (const file of [
      'package.json',
      'README.md',
      'LICENSE',
      'bin/crucible.js',
      'dist/lib/index.js',
      'dist/lib/index.d.ts',
      'dist/lib/plugin.d.ts',
      'dist/lib/reports.d.ts',
      'dist/lib/cli/bin.js',
      'dist/lib/sim/shard-worker-entry.mjs',
      'dist/lib/engine/heroic/kernel-module.js',
      'dist/web/index.html',
      SCENARIO,
      'data/battleforge/LICENSE',
      'schema/heroic-scenario.schema.json',
    ])
      expect(packedFiles, file).toContain(file);
    const misplaced = packedFiles.filter(
      (file) =>
        /^(test|bench|scratch|scripts|notebooks|examples|web|docs|node_modules)\//.test(file) ||
        /^data\/[^/]+\/source\//.test(file) ||
        (/\.[cm]?tsx?$/.test(file) && !file.endsWith('.d.ts')),
    );
    expect(misplaced).toEqual([]);
    expect(unpackedSize).toBeLessThan(15e6);
  });

  it('passes publint (strict: warnings count) with no suggestion either', async () => {
    const { publint } = await import('publint');
    const bytes = await readFile(tarball);
    const { messages } = await publint({
      pkgDir: 'package',
      pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer },
      strict: true,
      level: 'suggestion',
    });
    expect(messages).toEqual([]);
  });

  it('passes Are the Types Wrong for an ES-module-only package: every entry point typed under node16 and bundler resolution', async () => {
    const attw = path.join(path.dirname(require.resolve('@arethetypeswrong/cli/package.json')), 'dist', 'index.js');
    const result = await run(process.execPath, [attw, tarball, '--profile', 'esm-only', '--format', 'ascii'], REPOSITORY);
    expect(result.status, result.stdout + result.stderr).toBe(0);
  });
});

describe('installed from the registry into an empty folder', () => {
  it('installs the library’s dependencies and none of the optional or build-time ones', () => {
    for (const name of ['crucible-lab', 'zod', 'arquero', '@uwdata/flechette', 'piscina'])
      expect(existsSync(path.join(app, 'node_modules', name)), name).toBe(true);
    for (const name of ['tsx', 'vite', 'preact', 'vega', 'vega-lite', '@resvg/resvg-js', 'bullmq', 'typescript'])
      expect(existsSync(path.join(app, 'node_modules', name)), name).toBe(false);
  });

  it('the library runs a bundled scenario in plain Node, with the numbers a run from source gives', async () => {
    const script = path.join(app, 'api.mjs');
    await writeFile(
      script,
      `import path from 'node:path';
import { BUNDLED_DATA, CRUCIBLE_VERSION, loadScenarioFile, runScenario } from 'crucible-lab';
const loaded = await loadScenarioFile(path.join(BUNDLED_DATA, 'heroic/scenarios/sylvan-knights-formation.yaml'));
const result = await runScenario(loaded, { trials: 20000, seed: 7 });
console.log(JSON.stringify({ version: CRUCIBLE_VERSION, summary: result.summary }));
`,
    );
    const printed = JSON.parse(await ok(process.execPath, [script], app)) as { version: string; summary: unknown };
    const { loadScenarioFile, runScenario } = await import('../../index.js');
    const fromSource = await runScenario(await loadScenarioFile(path.join(REPOSITORY, SCENARIO)), { trials: 20000, seed: 7 });
    expect(printed.version).toBe(JSON.parse(await readFile(path.join(REPOSITORY, 'package.json'), 'utf8')).version);
    expect(printed.summary).toEqual(JSON.parse(JSON.stringify(fromSource.summary)));
  });

  it('npx crucible run prints what crucible run prints from source, on the main thread and on 2 worker threads', async () => {
    for (const options of [
      ['--trials', '20000'],
      ['--trials', '300000', '--workers', '2'],
    ]) {
      const packed = await crucible(['run', installed(SCENARIO), '--seed', '3', '--json', ...options]);
      expect(packed.status, packed.stderr).toBe(0);
      const fromSource = await runCli(['run', path.join(REPOSITORY, SCENARIO), '--seed', '3', '--json', ...options]);
      expect(fromSource.status, fromSource.stderr).toBe(0);
      const withoutFile = (text: string): unknown => ({ ...(JSON.parse(text) as Record<string, unknown>), file: undefined });
      expect(withoutFile(packed.stdout)).toEqual(withoutFile(fromSource.stdout));
    }
  });

  it('npx crucible --version is the package’s version', async () => {
    const printed = await crucible(['--version']);
    expect(printed.stdout.trim()).toBe(JSON.parse(await readFile(path.join(REPOSITORY, 'package.json'), 'utf8')).version);
  });

  it('a rule system written against crucible-lab/plugin type-checks with its types and runs in plain Node, workers included; as TypeScript it asks for tsx', async () => {
    // examples/homebrew as a user's own project would have it: its imports from the package.
    const plugin = path.join(app, 'homebrew');
    await cp(path.join(REPOSITORY, 'examples', 'homebrew'), plugin, { recursive: true });
    for (const name of (await readdir(plugin)).filter((file) => file.endsWith('.ts'))) {
      const file = path.join(plugin, name);
      await writeFile(file, (await readFile(file, 'utf8')).replace(/'(\.\.\/)+engine\/[\w/.-]+'/g, "'crucible-lab/plugin'"));
    }
    const typescript = await run(
      'npx',
      ['--no-install', 'crucible', 'run', path.join('homebrew', 'scenarios', 'volley.yaml'), '--plugin', path.join('homebrew', 'index.ts')],
      app,
    );
    expect(typescript.status).toBe(2);
    expect(typescript.stderr).toContain('needs the tsx package');
    // The JavaScript a user's build would make: compiled by tsc against the installed .d.ts files.
    // lib DOM: its ImportMeta declares resolve(), which the plugin's index.ts uses to name its kernel module (a Node project would have @types/node).
    await writeFile(
      path.join(plugin, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', lib: ['ES2022', 'DOM'], module: 'nodenext', strict: true, skipLibCheck: true, types: [] },
        include: ['*.ts'],
      }),
    );
    await ok(process.execPath, [path.join(path.dirname(require.resolve('typescript/package.json')), 'bin', 'tsc'), '-p', plugin], app);
    const scenario = path.join(plugin, 'scenarios', 'volley.yaml');
    await writeFile(scenario, (await readFile(scenario, 'utf8')).replace('ruleset: ../index.ts', 'ruleset: ../index.js'));
    const compiled = await crucible([
      'run',
      path.join('homebrew', 'scenarios', 'volley.yaml'),
      '--plugin',
      path.join('homebrew', 'index.js'),
      '--trials',
      '200000',
      '--workers',
      '2',
      '--json',
    ]);
    expect(compiled.status, compiled.stderr).toBe(0);
    const examples = path.join(REPOSITORY, 'examples', 'homebrew');
    const fromSource = await runCli([
      'run',
      path.join(examples, 'scenarios', 'volley.yaml'),
      '--plugin',
      path.join(examples, 'index.ts'),
      '--trials',
      '200000',
      '--workers',
      '2',
      '--json',
    ]);
    expect(fromSource.status, fromSource.stderr).toBe(0);
    const metricsOf = (text: string): unknown => (JSON.parse(text) as { metrics: unknown }).metrics;
    expect(metricsOf(compiled.stdout)).toEqual(metricsOf(fromSource.stdout));
  });

  it('crucible report without the drawing packages says which to install, in one line, exit 2', async () => {
    const saved = path.join(app, 'run.json');
    await writeFile(saved, (await crucible(['run', installed(SCENARIO), '--trials', '1000', '--json'])).stdout);
    const report = await crucible(['report', 'run.json']);
    expect(report.status).toBe(2);
    expect(report.stderr.trim()).toMatch(
      /^crucible: report pages .* need the packages .*: npm install vega vega-lite vega-embed @resvg\/resvg-js @expo-google-fonts\/inter$/,
    );
  });

  it('crucible serve serves the shipped workbench page, with its policy, without Vite', async () => {
    let server: ChildProcess | undefined;
    try {
      server = spawn(path.join(app, 'node_modules', '.bin', 'crucible'), ['serve', '--port', '0'], {
        cwd: app,
        env: cleanEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      server.stdout?.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
      const started = Date.now();
      while (!/crucible workbench: \S+/.test(stdout) && Date.now() - started < 30_000)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const url = /crucible workbench: (\S+)/.exec(stdout)?.[1];
      expect(url, stdout).toBeDefined();
      const page = await fetch(url ?? '');
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
      const script = /<script type="module"[^>]* src="\.\/(assets\/[^"]+\.js)"/.exec(await page.text())?.[1];
      const asset = await fetch(new URL(script ?? 'missing', url));
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toMatch(/javascript/);
      await asset.arrayBuffer();
    } finally {
      server?.kill('SIGINT');
    }
  });
});
