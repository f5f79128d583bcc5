import { lookOnChange, createSerial, type Serial, errorMessage as message } from '../lib/index.js';
import { rulesAsText, type PermissionRules, type RulesAsText } from '../policy/index.js';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { settingsFiles } from './settings-layers.js';

export type { RulesAsText } from '../policy/index.js';

const keyOf = (rules: RulesAsText): string => JSON.stringify(rules);

/**
 * Keeps every running teammate's permission rules the project's. A teammate never reads the
 * settings file (it believes only what the lead signs): it gets the rules at spawn (`--rules`),
 * then a signed `rules_set` from here whenever the file says something else than what that
 * teammate was last given. Compared per teammate, so one spawned with rules read just before a
 * change still gets the change. One look at a time: a look waits for the one under way, so
 * whoever awaits `sync()` knows its sends are in the mailboxes (the lead's answers wait so).
 */
export class RulesSync {
  /** What each running teammate holds, as the lead last gave it (spawn or rules_set), by name. */
  private readonly held = new Map<string, string>();
  /** Teammates sent a rules_set by this lead: one may still wait, unread, in the mailbox of one that stopped. */
  private readonly sentTo = new Set<string>();
  private readonly queue: Serial;
  /** The last problem reported, so that a file broken for a while is reported once, not at each look. */
  private reported: string | undefined;

  constructor(
    private readonly home: string,
    /** The project's rules now; throws (naming the file and field) when the file is malformed. */
    private readonly load: () => PermissionRules,
    /** Send one teammate the rules: the lead's bus signs it. */
    private readonly send: (to: string, rules: RulesAsText) => Promise<unknown>,
    /** Shown and audited. */
    private readonly problem: (what: string, reason: string) => void,
  ) {
    this.queue = createSerial((error) => this.problem('the permission rules were not sent', message(error)));
  }

  /** The project's rules now, as a spawn hands them over; throws when the file is malformed. */
  current(): PermissionRules {
    return this.load();
  }

  /**
   * `name` was started with `rules` (its `--rules`), and its mailbox exists: from now on it is
   * kept up to date, starting with a look now for a change made since `rules` were read.
   */
  handedOver(name: string, rules: PermissionRules): Promise<void> {
    return this.queue(async () => {
      // A respawned teammate reads what its last process left unread, after its `--rules`: an
      // older rules_set there would undo them, so it is sent the current rules once more, last.
      this.held.set(name, this.sentTo.has(name) ? '' : keyOf(rulesAsText(rules)));
      await this.look();
    });
  }

  /** `name`'s process is gone: nothing more is sent to it (a respawn hands its rules over again). */
  forget(name: string): void {
    this.held.delete(name);
  }

  /** Read the rules and send each teammate that holds others the new ones; resolves once sent. */
  sync(): Promise<void> {
    return this.queue(() => this.look());
  }

  /**
   * Sync on every change to a settings file, whoever made it (`teams allow` in another shell
   * too). The user's layer is watched when its directory is there at start; made later, its
   * rules reach the teammates with the next change to another layer (the lead itself reads
   * every layer at each call it decides).
   */
  async watch(): Promise<{ close(): Promise<void> }> {
    const files = settingsFiles(this.home).map(({ file }) => file).filter((file) => existsSync(dirname(file)));
    return lookOnChange(files, () => this.sync());
  }

  private async look(): Promise<void> {
    if (this.held.size === 0) return;
    let rules: RulesAsText;
    try {
      rules = rulesAsText(this.load());
    } catch (error) {
      // Nothing is sent: the rules each teammate holds stay until the file reads again.
      const reason = message(error);
      if (reason !== this.reported) this.problem('the permission rules were not sent to the teammates', reason);
      this.reported = reason;
      return;
    }
    this.reported = undefined;
    const key = keyOf(rules);
    for (const [name, held] of [...this.held]) {
      if (held === key) continue;
      try {
        await this.send(name, rules);
        this.sentTo.add(name);
        // Unless it went away meanwhile (a respawn hands its own rules over).
        if (this.held.has(name)) this.held.set(name, key);
      } catch (error) {
        // Not marked as held: the next look tries again.
        this.problem(`the permission rules were not sent to ${name}`, message(error));
      }
    }
  }
}
