import type { AgentLoop } from '../agent/index.js';

/**
 * A notice queued just before the stop began may still start a turn after the interrupt:
 * end every turn before the model goes, or such a turn would outlive the stop, retrying a
 * closed model and writing the lead's status afterwards.
 */
export async function endTurns(loop: Pick<AgentLoop, 'subscribe' | 'interrupt' | 'idle'>): Promise<void> {
  const unsubscribe = loop.subscribe((event) => {
    if (event.type === 'turn_start') loop.interrupt();
  });
  try {
    loop.interrupt();
    await loop.idle();
  } finally {
    unsubscribe();
  }
}
