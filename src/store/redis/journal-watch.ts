import { asError } from '../../lib/index.js';
import type { Subscription, WatchProblem } from '../team-store.js';
import type { RedisTeam } from './redis-team.js';
import { followStreams, streamTail } from './stream-follow.js';

/**
 * Look once, then again after each append to the journal `key`, in order: the stream's end is
 * noted before the first look, so an append made during it is looked at again.
 */
export async function watchJournal(redis: RedisTeam, key: string, look: () => Promise<void>, onProblem: WatchProblem): Promise<Subscription> {
  const after = await streamTail(redis.client, key);
  const safely = async () => {
    try {
      await look();
    } catch (error) {
      onProblem(asError(error));
    }
  };
  await safely();
  return redis.keep(await followStreams(redis.target, [{ key, after }], safely, onProblem));
}
