/**
 * Install a Debian package with apt-get (through sudo unless root), for the tests' real
 * components: Chromium (scripts/setup-browser.mjs) and Redis (scripts/setup-redis.mjs).
 * Returns `executable` once it exists.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export function ensureDebianPackage(packageName, executable) {
  if (existsSync(executable)) return executable;
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const run = (args) =>
    execFileSync(asRoot ? args[0] : 'sudo', asRoot ? args.slice(1) : args, {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  // Wait for dpkg's lock rather than fail at once: another apt-get (a second checkout's tests, the
  // machine's unattended upgrades) may hold it for a while.
  const waitForLock = ['-o', 'DPkg::Lock::Timeout=600'];
  run(['apt-get', ...waitForLock, 'update', '-qq']);
  run(['apt-get', ...waitForLock, 'install', '-y', '-qq', '--no-install-recommends', packageName]);
  if (!existsSync(executable)) throw new Error(`${packageName} was installed but ${executable} is not there`);
  return executable;
}
