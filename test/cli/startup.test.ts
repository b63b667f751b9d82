import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { commandsFor } from '../../cli/main.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * What a command loads before it runs (issue 33): each command's module only when it is chosen,
 * and the heavy packages only where they are used — so `crucible --version` loads no schema or
 * statistics, and a run loads neither the tables (arquero), the charts (vega), the queue (bullmq)
 * nor the workbench's build tools. Checked on the real process, through a module resolution hook
 * that lists every package the process resolves.
 */

/** Registered before tsx: prints each package crucible's own modules import (a bare specifier), one per line, on stderr. */
const HOOK = `data:text/javascript,${encodeURIComponent(`import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify("export async function resolve(specifier, context, next) { if (!/^(\\.|\\/|node:|file:|data:)/.test(specifier) && !/\\/node_modules\\//.test(context.parentURL ?? '')) process.stderr.write('package ' + specifier + '\\n'); return next(specifier, context); }")}));`)}`;

/** Also prints each of crucible's own modules the process imports (its path in the repository), on stderr. */
const MODULES_HOOK = `data:text/javascript,${encodeURIComponent(`import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(`export async function resolve(specifier, context, next) { const found = await next(specifier, context); if (found.url.startsWith(${JSON.stringify(`${pathToFileURL(REPOSITORY).href}/`)}) && !found.url.includes('/node_modules/')) process.stderr.write('module ' + found.url.slice(${pathToFileURL(REPOSITORY).href.length + 1}) + '\\n'); return found; }`)}));`)}`;

/** What `crucible <args>` imports: packages by name (the first one or two path segments), and crucible's own modules by path. */
function importsOf(args: readonly string[]): Promise<{ packages: Set<string>; modules: Set<string> }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_') && name !== 'NODE_OPTIONS'));
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', HOOK, '--import', MODULES_HOOK, 'bin/crucible.js', ...args],
      { cwd: REPOSITORY, env },
      (error, _stdout, stderr) => {
        if (error !== null) reject(new Error(`${args.join(' ')}: ${stderr}`));
        const names = [...stderr.matchAll(/^package (\S+)$/gm)].map((match) => {
          const [first = '', second = ''] = (match[1] ?? '').split('/');
          return first.startsWith('@') ? `${first}/${second}` : first;
        });
        resolve({ packages: new Set(names), modules: new Set([...stderr.matchAll(/^module (\S+)$/gm)].map((match) => match[1] ?? '')) });
      },
    );
  });
}

/** The packages `crucible <args>` imports, by name. */
const packagesLoaded = async (args: readonly string[]): Promise<Set<string>> => (await importsOf(args)).packages;

describe('commands are loaded when chosen', () => {
  it('commandsFor: the named command, none for the version alone, all for help and anything unknown', () => {
    const all = commandsFor(['--help']);
    expect(all).toEqual([
      'run',
      'validate',
      'schema',
      'merge',
      'worker',
      'replay',
      'compare',
      'sweep',
      'matchups',
      'balance',
      'report',
      'serve',
      'completion',
    ]);
    expect(commandsFor(['run', 'x.yaml', '--trials', '5'])).toEqual(['run']);
    // A completion script covers every command.
    expect(commandsFor(['completion', 'bash'])).toEqual(all);
    expect(commandsFor(['help', 'sweep'])).toEqual(['sweep']);
    expect(commandsFor(['--version'])).toEqual([]);
    expect(commandsFor(['-V'])).toEqual([]);
    for (const argv of [[], ['help'], ['rn'], ['--help', '--version'], ['--bogus']]) expect(commandsFor(argv), argv.join(' ')).toEqual(all);
  });

  it('crucible --version resolves commander alone (and tsx, which runs the source)', async () => {
    expect([...(await packagesLoaded(['--version']))].sort()).toEqual(['commander', 'tsx']);
  });

  it('crucible run on a bundled scenario loads no tables, charts, queue or build tools', async () => {
    const loaded = await packagesLoaded(['run', 'data/heroic/scenarios/sylvan-knights-formation.yaml', '--trials', '1000']);
    expect(loaded.has('zod') && loaded.has('yaml')).toBe(true);
    for (const name of ['arquero', 'vega', 'vega-lite', '@resvg/resvg-js', 'bullmq', 'ioredis', 'vite', 'preact'])
      expect(loaded.has(name), name).toBe(false);
  });

  it('a short run on the main thread, not on a terminal, loads neither the worker pool nor the progress bar; and of the rule systems, its own', async () => {
    const { packages, modules } = await importsOf(['run', 'data/heroic/scenarios/sylvan-knights-formation.yaml', '--trials', '1000']);
    for (const name of ['piscina', 'cli-progress']) expect(packages.has(name), name).toBe(false);
    const ruleSystems = new Set([...modules].flatMap((module) => /^engine\/([\w-]+)\/index\.ts$/.exec(module)?.[1] ?? []));
    expect([...ruleSystems].filter((folder) => folder !== 'dice')).toEqual(['heroic']);
  });
});

describe('the notebooks use the public API', () => {
  it('import crucible only through its entry points (../index.js, ../reports.js), so each runs from an installed package', () => {
    const folder = path.join(REPOSITORY, 'notebooks');
    const internal = readdirSync(folder)
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) =>
        [...readFileSync(path.join(folder, file), 'utf8').matchAll(/from '(\.\.\/[^']+)'/g)].map((match) => `${file}: ${match[1]}`),
      )
      .filter((line) => !/: \.\.\/(index|reports)\.js$/.test(line));
    expect(internal).toEqual([]);
  });
});
