/**
 * A named crash point. When TEAMS_FAILPOINT names it, the process SIGKILLs itself right
 * there, so a test can stop a process inside a crash window deterministically instead of
 * hoping a random kill lands in it. Unset (always, outside tests), it costs one comparison.
 */
export function failpoint(name: string): void {
  if (process.env.TEAMS_FAILPOINT === name) process.kill(process.pid, 'SIGKILL');
}
