import { newRequestId } from '../protocol/ids.js';

/** What the human is told of a respawn, wherever it was asked for (/respawn, `teams respawn`, the spawn tool). */
export function describeRespawn(name: string, started: { pid: number; cancelled: readonly string[]; planMode: boolean }): string {
  const { pid, cancelled } = started;
  return `respawned ${name} (pid ${pid}${started.planMode ? ', plan mode' : ''}) with its conversation; ${cancelled.length === 0 ? 'no request of its was cancelled' : `told its cancelled requests: ${cancelled.join(', ')}`}`;
}

/**
 * What a respawned teammate finds in its mailbox: a task whose words are its first input after
 * its old conversation, saying it was restarted and which of its requests were cancelled, by
 * id, so that it asks again for what it still needs rather than wait for an answer.
 */
export function respawnTask(cancelled: readonly string[]): { task_id: string; subject: string; description: string } {
  const requests =
    cancelled.length === 0
      ? 'None of your requests was cancelled.'
      : `These requests of yours (or to you) were cancelled when your process ended, and will get no answer: ${cancelled.join(', ')}. Ask again for what you still need.`;
  return {
    task_id: newRequestId('task'),
    subject: 'respawned: go on with your task',
    description: `Your process ended (it crashed or was shut down) and the lead started it again. Your conversation so far is above; anything you were doing when it ended may not have finished. ${requests}`,
  };
}
