// Whether this machine can run sandboxed sessions (bwrap and socat on
// PATH), for the browser tests that need them. On CI a missing tool fails
// the test file: CI installs both.
import { execFileSync } from 'node:child_process';

/**
 * false when bwrap and socat are installed, else the loud reason for
 * node:test's `skip` naming what did not run (outside CI only).
 * @param {string} what the tests that would not run
 */
export function sandboxSkip(what) {
  try {
    execFileSync('sh', ['-c', 'command -v bwrap && command -v socat'], { stdio: 'ignore' });
    return false;
  } catch {
    if (process.env.CI === 'true') throw new Error(`CI must run ${what}: bwrap or socat is missing`);
    return `!!! SKIPPING: bwrap or socat is missing: ${what} did NOT run !!!`;
  }
}
