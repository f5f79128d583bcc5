import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '../helpers/wait.js';
import type { TeamSession } from './session.js';

/**
 * `worker` waits for the user; their first words have it run a long command, and it answers
 * the words that follow an interrupt only if its request carries the interrupted note.
 */
export function workerRules(marker: string): unknown[] {
  return [
    { name: 'worker resumes after the interrupt', when: { agent: 'worker', last: 'The user interrupted you\\. Wait for their next message\\.\\][\\s\\S]*From the user: carry on' }, reply: { text: 'RESUMED after the interrupt.' } },
    { name: 'worker runs the long command', when: { agent: 'worker', last: 'From the user: run the long one' }, reply: { text: 'Running it.', tool_uses: [{ name: 'bash', input: { command: `sleep ${marker}` } }] } },
    { name: 'worker answers a ping', when: { agent: 'worker', last: 'From the user: ping' }, reply: { text: 'PONG' } },
    // A write in default mode asks the human first: the teammate waits on its permission request.
    { name: 'worker writes a file', when: { agent: 'worker', last: 'From the user: write the file' }, reply: { text: 'Writing it.', tool_uses: [{ name: 'write_file', input: { path: 'asked.md', content: 'x\n' } }] } },
    { name: 'worker waits for the user', when: { agent: 'worker' }, reply: { text: 'Ready when you are.' } },
  ];
}

type LogEvent = { type: string; text?: string; [field: string]: unknown };

/** The events a teammate's harness logged (logs/<name>.log, JSON lines). */
export function logEvents(session: TeamSession, name: string): LogEvent[] {
  let text = '';
  try {
    text = readFileSync(join(session.paths.root, 'logs', `${name}.log`), 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as LogEvent);
}

/** What a teammate's model replied, turn by turn. */
export const replies = (session: TeamSession, name: string): string[] => logEvents(session, name).filter((e) => e.type === 'turn_end').map((e) => e.text ?? '');

/** The demo's alice keeps the run going (her plan waits for the human); `worker` is ours, idle once it said it is ready. */
export async function withIdleWorker(session: TeamSession): Promise<void> {
  await session.pending('plan');
  const spawned = await session.cli(['spawn', 'worker', '--role', 'helper', '--prompt', 'Wait for the user']);
  assert.equal(spawned.code, 0, spawned.stderr);
  await waitFor(() => replies(session, 'worker').includes('Ready when you are.'), 'worker to say it is ready');
  await session.memberStatus('worker', 'idle');
}
