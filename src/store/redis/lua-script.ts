import { createHash } from 'node:crypto';
import { ErrorReply } from '@redis/client';
import type { RedisClient } from './connection.js';

/**
 * A Lua script run by its SHA1 (EVALSHA), sent whole (EVAL) only when the server does not know
 * it yet: after a restart, a SCRIPT FLUSH, or the first time. Scripts here do only an atomic
 * step (compare-and-set, ack-and-record, dedupe); the rules stay in TypeScript. What a script
 * returns is the caller's to parse: it is a reply from another process like any other.
 */
export type LuaScript = { run(client: RedisClient, keys: readonly string[], args: readonly string[]): Promise<unknown> };

export function luaScript(source: string): LuaScript {
  const sha = createHash('sha1').update(source).digest('hex');
  return {
    async run(client, keys, args) {
      const tail = [String(keys.length), ...keys, ...args];
      try {
        return await client.sendCommand(['EVALSHA', sha, ...tail]);
      } catch (error) {
        if (!(error instanceof ErrorReply && error.message.startsWith('NOSCRIPT'))) throw error;
        return client.sendCommand(['EVAL', source, ...tail]);
      }
    },
  };
}
