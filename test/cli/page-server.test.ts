import { request } from 'node:http';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PageServer, servePage } from '../../cli/page-server.js';

/**
 * The built page's server (cli/page-server.ts; `crucible serve` without --dev, in a clone and in
 * the published package alike): files of its folder only, whatever path a request spells — raw
 * `..`, encoded `%2e%2e`, dotfiles, a symbolic link leading out — with the page's own policy and
 * nosniff on every answer, errors included.
 */

const POLICY = "default-src 'self'; script-src 'self'";

let root: string;
let server: PageServer;

/** A request sent as written (fetch would normalise `..` away), with its status, headers and body. */
function get(
  rawPath: string,
  method = 'GET',
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const sent = request({ hostname: hostname === 'localhost' ? '127.0.0.1' : hostname, port, path: rawPath, method }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => void (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'crucible-page-'));
  const page = path.join(root, 'page');
  await mkdir(path.join(page, 'assets'), { recursive: true });
  await writeFile(
    path.join(page, 'index.html'),
    `<!doctype html><meta http-equiv="Content-Security-Policy" content="${POLICY}"><script type="module" src="./assets/main.js"></script>\n`,
  );
  await writeFile(path.join(page, 'assets', 'main.js'), 'console.log(1);\n');
  await writeFile(path.join(page, '.secret'), 'hidden\n');
  await writeFile(path.join(root, 'outside.txt'), 'outside\n');
  await symlink(path.join(root, 'outside.txt'), path.join(page, 'assets', 'link.txt'));
  server = await servePage(page, { port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
});

describe('the built page server', () => {
  it('serves the page at / and its scripts as JavaScript, each with the page’s policy and nosniff', async () => {
    for (const [url, type] of [
      ['/', /^text\/html/],
      ['/index.html', /^text\/html/],
      ['/assets/main.js?v=1', /^text\/javascript/],
    ] as const) {
      const answer = await get(url);
      expect(answer.status, url).toBe(200);
      expect(answer.headers['content-type'], url).toMatch(type);
      expect(answer.headers['content-security-policy'], url).toBe(POLICY);
      expect(answer.headers['x-content-type-options'], url).toBe('nosniff');
    }
    expect((await get('/assets/main.js', 'HEAD')).body).toBe('');
  });

  it('answers 404 outside its folder, to dotfiles and through a link leading out; 405 to other methods; headers on each', async () => {
    for (const url of [
      '/../outside.txt',
      '/assets/../../outside.txt',
      '/%2e%2e/outside.txt',
      '/assets/%2e%2e%2f%2e%2e%2foutside.txt',
      '/.secret',
      '/assets/link.txt',
      '/missing.js',
      '/%E0%A4%A',
    ])
      expect((await get(url)).status, url).toBe(404);
    const refused = await get('/', 'POST');
    expect(refused.status).toBe(405);
    expect(refused.headers['content-security-policy']).toBe(POLICY);
  });

  it('refuses a folder without a policy in its page, rather than serve it without one', async () => {
    const bare = path.join(root, 'bare');
    await mkdir(bare);
    await writeFile(path.join(bare, 'index.html'), '<!doctype html>\n');
    await expect(servePage(bare, { port: 0, host: '127.0.0.1' })).rejects.toThrow(/no <meta http-equiv="Content-Security-Policy"/);
  });
});
