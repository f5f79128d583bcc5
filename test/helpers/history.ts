import type { Envelope } from '../../src/protocol/messages.js';
import type { Transport } from '../../src/store/transport.js';

/** Everything a mailbox keeps, handled first: observed from its history, then closed at once. */
export async function historyOf(transport: Transport, agent: string): Promise<Envelope[]> {
  const seen: Envelope[] = [];
  const subscription = await transport.observe(agent, (messages) => seen.push(...messages), { from: 'history' });
  await subscription.close();
  return seen;
}
