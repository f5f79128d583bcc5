import * as z from 'zod';
import type { RedisClient } from './connection.js';
import { untilAnswered } from './redis-team.js';

const Time = z.tuple([z.string().regex(/^\d+$/), z.string().regex(/^\d+$/)]);

/**
 * The Redis server's clock (TIME): the one clock of a team whose processes run on several
 * machines, so that what they stamp (a decision, an audit entry) compares across machines.
 * Asked again when the connection drops before the answer: a stamp must not fail a write.
 */
export async function serverNow(client: RedisClient): Promise<Date> {
  const [seconds, micros] = Time.parse(await untilAnswered(client, () => client.sendCommand(['TIME'])));
  return new Date(Number(seconds) * 1000 + Math.floor(Number(micros) / 1000));
}
