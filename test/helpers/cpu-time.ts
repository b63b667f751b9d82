/**
 * CPU milliseconds this process has used so far. A test that bounds how long some work may take
 * (a hostile input refused "at once", a fuzz case run "quickly") measures that work by it, not by
 * the clock: with several test files on 2 shared cores the clock also counts the time other files
 * held the cores (a 317 ms case once took 2 s by the clock), while a real slowdown still shows. A
 * hang is caught by the test's own timeout.
 */
export function cpuMilliseconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
