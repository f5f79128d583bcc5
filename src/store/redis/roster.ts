import * as z from 'zod';
import { Refused, asError, errorMessage, inertLine } from '../../lib/index.js';
import { newTeam, rosterIssues, TeamConfig, type CreateTeamOptions } from '../roster.js';
import type { RosterStore, Subscription, WatchProblem } from '../team-store.js';
import { luaScript } from './lua-script.js';
import type { RedisTeam } from './redis-team.js';
import { followStreams, streamTail } from './stream-follow.js';

/**
 * Write the roster if its version is still the one read, bump the version, and note the change
 * in the change stream watches follow (trimmed: a watch only needs to hear that something
 * changed). Returns the new version, or 0 when another writer got in first.
 */
const COMPARE_AND_SET = luaScript(`
local version = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if version ~= tonumber(ARGV[1]) then return 0 end
version = version + 1
redis.call('HSET', KEYS[1], 'json', ARGV[2], 'version', version)
redis.call('XADD', KEYS[2], 'MAXLEN', '~', '1000', '*', 'version', version)
return version
`);

const Written = z.number().int().nonnegative();
/** HMGET json version: both absent when there is no team. */
const Stored = z.tuple([z.string().nullable(), z.string().nullable()]);

/** Tries an update makes against other writers before it gives up: each lost try is another writer's success. */
const MAX_TRIES = 1_000;

/** The roster as JSON and a version in one hash, changed only by compare-and-set. */
export class RedisRoster implements RosterStore {
  /** This process's updates, one at a time: they would only make each other try again. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly redis: RedisTeam) {}

  private get where(): string {
    return `the roster at ${this.redis.target.shown} ${this.redis.keys.roster}`;
  }

  /** The roster and its version, or undefined with no team. One that cannot be read is an error saying why. */
  private async read(): Promise<{ config: TeamConfig; version: number } | undefined> {
    const reply: unknown = await this.redis.client.sendCommand(['HMGET', this.redis.keys.roster, 'json', 'version']);
    const [json, version] = Stored.parse(reply);
    if (json === null && version === null) return undefined;
    if (json === null || version === null || !/^[1-9]\d*$/.test(version)) throw new Error(`${this.where} is not a team config: it lacks its JSON or its version`);
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch (error) {
      throw new Error(`${this.where} is not valid JSON (${inertLine(errorMessage(error))})`);
    }
    const parsed = TeamConfig.safeParse(value);
    if (!parsed.success) throw new Error(`${this.where} is not a valid team config: ${rosterIssues(parsed.error)}`);
    return { config: parsed.data, version: Number(version) };
  }

  /** Write `config` over `version`: the config as written, or undefined when another writer got in first. */
  private async write(config: TeamConfig, version: number): Promise<TeamConfig | undefined> {
    const parsed = TeamConfig.safeParse(config);
    if (!parsed.success) throw new Error(`refusing to write an invalid team config to ${this.where}: ${rosterIssues(parsed.error)}`);
    const keys = [this.redis.keys.roster, this.redis.keys.rosterChanges];
    const written = Written.parse(await COMPARE_AND_SET.run(this.redis.client, keys, [String(version), JSON.stringify(parsed.data)]));
    return written > 0 ? parsed.data : undefined;
  }

  private queued<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  async load(): Promise<TeamConfig | undefined> {
    return (await this.read())?.config;
  }

  async ensure(options: CreateTeamOptions = {}): Promise<TeamConfig> {
    return this.queued(async () => {
      const existing = await this.read();
      if (existing) return existing.config;
      const made = await this.write(newTeam(this.redis.team, options), 0);
      if (made) return made;
      // Another process made the team first: theirs stands.
      const theirs = await this.read();
      if (!theirs) throw new Error(`${this.where} was created and deleted at once; try again`);
      return theirs.config;
    });
  }

  async update<T>(mutate: (draft: TeamConfig) => T): Promise<{ config: TeamConfig; result: T }> {
    return this.queued(async () => {
      for (let tries = 0; tries < MAX_TRIES; tries++) {
        const stored = await this.read();
        if (!stored) throw new Refused(`no team '${this.redis.team}' (${this.where} does not exist); create it first`);
        // A fresh draft each try: what a lost try's mutate did is thrown away with it.
        const draft = stored.config;
        const result = mutate(draft);
        const config = await this.write(draft, stored.version);
        if (config) return { config, result };
      }
      throw new Error(`gave up changing ${this.where}: ${MAX_TRIES} tries in a row lost to other writers`);
    });
  }

  async watch(listener: (config: TeamConfig) => void, onProblem: WatchProblem): Promise<Subscription> {
    // The change stream's end first: a change made after it, even during the first look, is seen.
    const after = await streamTail(this.redis.client, this.redis.keys.rosterChanges);
    const look = async () => {
      let config: TeamConfig | undefined;
      try {
        config = await this.load();
      } catch (error) {
        onProblem(asError(error));
        return;
      }
      if (config) listener(config);
    };
    await look();
    return this.redis.keep(await followStreams(this.redis.target, [{ key: this.redis.keys.rosterChanges, after }], look, onProblem));
  }
}
