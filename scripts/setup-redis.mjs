#!/usr/bin/env node
/**
 * Makes sure a Redis server for the queue tests (and for trying `crucible worker` locally) is on
 * the machine: Debian's `redis-server` package, installed with apt-get when it is missing. The
 * tests start their own server on a free port of 127.0.0.1, with nothing saved to disk.
 * Prints the executable's path. Run: node scripts/setup-redis.mjs
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const REDIS_SERVER = process.env.CRUCIBLE_REDIS_SERVER ?? '/usr/bin/redis-server';

export function ensureRedisServer() {
  if (existsSync(REDIS_SERVER)) return REDIS_SERVER;
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const run = (args) => execFileSync(asRoot ? args[0] : 'sudo', asRoot ? args.slice(1) : args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  run(['apt-get', 'update', '-qq']);
  run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'redis-server']);
  if (!existsSync(REDIS_SERVER)) throw new Error(`redis-server was installed but ${REDIS_SERVER} is not there`);
  return REDIS_SERVER;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(ensureRedisServer());
