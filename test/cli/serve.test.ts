import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exposureWarning, startWorkbench, type Workbench } from '../../cli/commands/serve.js';
import type { Io } from '../../cli/commands/io.js';
import { main } from '../../cli/main.js';
import { ensureWebBuild, WEB_BUILD } from '../../cli/web-build.js';
import { buildInputs, buildIsFresh, inputsDigest, STAMP_FILE } from '../../web/build-stamp.js';
import { pagePolicy, withoutDevSockets } from '../../web/serving.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * `crucible serve` (issue 30): the built page by default, with a Content-Security-Policy and
 * nosniff on every response, built again only when stale (the build test/global-setup.ts made is
 * reused here: no second build); `--dev` without Vite's open-in-editor endpoint and reading only
 * the folders the page imports; a warning before listening beyond loopback.
 */

const BUILT_POLICY = withoutDevSockets(pagePolicy());

function expectHeaders(response: Response, policy: string): void {
  expect(response.headers.get('content-security-policy')).toBe(policy);
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
}

describe('crucible serve: the built page', () => {
  let workbench: Workbench;

  beforeAll(async () => {
    // test/global-setup.ts built dist/web (or found it fresh): a fresh build must be kept as it is.
    expect(await ensureWebBuild()).toMatchObject({ built: false });
    workbench = await startWorkbench({ port: 0, host: '127.0.0.1' }, { logLevel: 'error' });
  });
  afterAll(async () => workbench?.close());

  it('the policy is the page’s own without the development server’s WebSocket sources', () => {
    expect(pagePolicy()).toContain('ws://127.0.0.1:*');
    expect(BUILT_POLICY).toContain("default-src 'self'");
    expect(BUILT_POLICY).toContain("connect-src 'self' data: blob:");
    expect(BUILT_POLICY).not.toContain('ws:');
  });

  it('sends the page, its script and a worker script with both headers; the built page’s <meta> has no ws: either', async () => {
    const page = await fetch(workbench.url);
    expect(page.status).toBe(200);
    expectHeaders(page, BUILT_POLICY);
    const html = await page.text();
    expect(html).toContain(`content="${BUILT_POLICY}"`);
    const script = /<script type="module"[^>]* src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
    const worker = readdirSync(path.join(WEB_BUILD, 'assets')).find((file) => file.startsWith('shard-worker-') && file.endsWith('.js'));
    expect(script).toBeDefined();
    expect(worker).toBeDefined();
    for (const asset of [script, `assets/${worker}`]) {
      const response = await fetch(new URL(asset ?? '', workbench.url));
      expect(response.status, asset).toBe(200);
      expect(response.headers.get('content-type'), asset).toMatch(/javascript/);
      expectHeaders(response, BUILT_POLICY);
      await response.arrayBuffer();
    }
  });

  it('crucible serve --host 0.0.0.0 warns before listening, keeps the fresh build and serves it until interrupted', async () => {
    let stdout = '';
    let stderr = '';
    let interrupt: ((signal: NodeJS.Signals) => void) | undefined;
    const io: Io = {
      stdout: (text) => void (stdout += text),
      stderr: (text) => void (stderr += text),
      onInterrupt: (listener) => {
        interrupt = listener;
        return () => undefined;
      },
    };
    const status = main(['serve', '--port', '0', '--host', '0.0.0.0'], io, {});
    while (!stdout.includes('\n')) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stderr).toContain('warning: --host "0.0.0.0" is not loopback: the page becomes reachable from other machines');
    expect(stderr).not.toContain('building');
    const url = /crucible workbench: (\S+)/.exec(stdout)?.[1] ?? '';
    // Listening on every interface; asked on IPv4 loopback (localhost may mean ::1 first).
    const response = await fetch(url.replace('localhost', '127.0.0.1'));
    expect(response.status).toBe(200);
    expectHeaders(response, BUILT_POLICY);
    await response.text();
    interrupt?.('SIGINT');
    expect(await status).toBe(0);
  });
});

describe('the warning before listening beyond loopback', () => {
  it('is silent on loopback and names the exposure elsewhere, and more loudly for --dev', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', 'localhost', 'LOCALHOST'])
      expect(exposureWarning(host, true), host).toBeUndefined();
    for (const host of ['0.0.0.0', '::', '192.168.1.20', 'my-laptop.local', '']) {
      expect(exposureWarning(host, false), host).toContain('reachable from other machines');
      expect(exposureWarning(host, false), host).not.toContain('development server');
      expect(exposureWarning(host, true), host).toContain('--dev is the development server');
      expect(exposureWarning(host, true), host).toContain('never expose it');
    }
  });
});

describe('a build is stale when its inputs changed', () => {
  let root: string;
  const write = async (file: string, text: string): Promise<void> => {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  };

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'crucible-stamp-'));
    const files = [
      'web/index.html',
      'web/app/app.css',
      'engine/heroic/kernel.ts',
      'engine/heroic/README.md',
      'reports/charts.ts',
      'reports/page.html',
      'documents/format.ts',
      'data/heroic/units.yaml',
      'package-lock.json',
      'docs/commands.md',
    ];
    for (const file of files) await write(file, `${file}\n`);
    await write('dist/web/index.html', '<!doctype html>');
  });
  afterAll(async () => rm(root, { recursive: true, force: true }));

  it('counts every file of web/ and data/, source elsewhere, and the lock file; not docs or generated pages', async () => {
    expect(await buildInputs(root)).toEqual([
      'data/heroic/units.yaml',
      'documents/format.ts',
      'engine/heroic/kernel.ts',
      'package-lock.json',
      'reports/charts.ts',
      'web/app/app.css',
      'web/index.html',
    ]);
  });

  it('is fresh with the stamp of its inputs, stale when one is edited or touched, not when a README or a generated page is', async () => {
    const outDir = path.join(root, 'dist/web');
    expect(await buildIsFresh(outDir, root)).toBe(false);
    await writeFile(path.join(outDir, STAMP_FILE), `${await inputsDigest(root)}\n`);
    expect(await buildIsFresh(outDir, root)).toBe(true);
    await write('engine/heroic/README.md', 'changed');
    await write('reports/page.html', 'regenerated');
    expect(await buildIsFresh(outDir, root)).toBe(true);
    await write('engine/heroic/kernel.ts', 'edited');
    expect(await buildIsFresh(outDir, root)).toBe(false);
    await writeFile(path.join(outDir, STAMP_FILE), await inputsDigest(root));
    expect(await buildIsFresh(outDir, root)).toBe(true);
    // Same size, later modification time: a save of the same length counts.
    const lock = path.join(root, 'package-lock.json');
    await utimes(lock, new Date(), new Date(statSync(lock).mtimeMs + 5000));
    expect(await buildIsFresh(outDir, root)).toBe(false);
  });

  it('the repository’s own build is fresh after global setup, and its stamp is the inputs’ digest', async () => {
    expect(readFileSync(path.join(WEB_BUILD, STAMP_FILE), 'utf8').trim()).toBe(await inputsDigest(REPOSITORY));
  });
});

describe('crucible serve --dev', () => {
  let workbench: Workbench;
  let cacheDir: string;
  const status = async (url: string): Promise<number> => {
    const response = await fetch(new URL(url, workbench.url));
    await response.arrayBuffer();
    return response.status;
  };

  beforeAll(async () => {
    cacheDir = await mkdtemp(path.join(os.tmpdir(), 'crucible-vite-cache-'));
    // A private dependency cache, no dependency scan and no file watcher: these requests need none.
    workbench = await startWorkbench(
      { port: 0, host: '127.0.0.1', dev: true },
      { logLevel: 'silent', cacheDir, optimizeDeps: { noDiscovery: true }, server: { watch: null } },
    );
  });
  afterAll(async () => {
    await workbench?.close();
    await rm(cacheDir, { recursive: true, force: true });
  });

  it('answers /__open-in-editor with 404 before Vite’s handler (which would start an editor, or say the file is missing)', async () => {
    for (const url of ['/__open-in-editor?file=/etc/hostname', '/__open-in-editor']) {
      const response = await fetch(new URL(url, workbench.url));
      expect(response.status, url).toBe(404);
      expect(await response.text(), url).toBe('');
    }
  });

  it('refuses files outside the page’s folders and dotfiles inside them', async () => {
    const dotGit = existsSync(path.join(REPOSITORY, '.git/config')) ? '.git/config' : '.git';
    const nodeModules = realpathSync(path.join(REPOSITORY, 'node_modules'));
    expect(existsSync(path.join(nodeModules, '.package-lock.json'))).toBe(true);
    for (const file of [
      '/etc/passwd',
      path.join(REPOSITORY, 'package.json'),
      path.join(REPOSITORY, dotGit),
      path.join(nodeModules, '.package-lock.json'),
    ])
      expect(await status(`/@fs${file}`), file).toBe(403);
  });

  it('serves the page’s modules, from web/ and from the folders it imports, with the headers (WebSocket sources kept)', async () => {
    const entry = await fetch(new URL('/main.tsx', workbench.url));
    expect(entry.status).toBe(200);
    expect(entry.headers.get('content-type')).toMatch(/javascript/);
    expectHeaders(entry, pagePolicy());
    expect(await entry.text()).toContain('/app/app.tsx');
    expect(await status(`/@fs${path.join(REPOSITORY, 'engine/registry.ts')}`)).toBe(200);
  });
});
