import type { Command, OptionValueSource } from 'commander';
import { TeamBus, teamPaths, type TeamPaths } from '../team/index.js';
import { openStore } from '../store/open-store.js';
import { describeStoreStatus, memberNames, teamNameProblem, type StoreStatus, type TeamConfig, type TeamStore } from '../store/index.js';
import { didYouMean } from '../protocol/index.js';
import { EventStream, quoted } from '../lib/index.js';
import { UsageError } from './errors.js';

/** `store` absent: the file store under `home`. */
export type GlobalOptions = { home: string; team: string; store?: string };

/** Everything a command needs, opened lazily from the global options; `close` lets go of it. */
export class CliContext {
  readonly paths: TeamPaths;
  /** The store's descriptor as given (--store, TEAMS_STORE), handed on to the teammates the lead starts. */
  readonly storeDescriptor: string;
  private opened: TeamStore | undefined;
  private sender: TeamBus | undefined;
  /** A store across the network (Redis) going down and coming back; on stderr until a UI takes it (takeStoreStatus). */
  private readonly storeStatus = new EventStream<StoreStatus>();
  private untakenStatus: (() => void) | undefined = this.storeStatus.subscribe((status) => process.stderr.write(`teams: ${describeStoreStatus(status)}\n`));

  /** `homeSource` says where --home came from, so an error names what the user actually set. */
  constructor(options: GlobalOptions, homeSource: OptionValueSource = 'cli') {
    // path.resolve('') is the current directory: an empty root would scatter state where the user stands.
    if (options.home.trim() === '') {
      throw new UsageError(`${homeSource === 'env' ? 'TEAMS_HOME' : '--home'} is empty: give the state root directory (the default is ./.teams)`);
    }
    const problem = teamNameProblem(options.team);
    if (problem) throw new UsageError(`--team: ${problem}`);
    this.paths = teamPaths(options.home, options.team);
    this.storeDescriptor = options.store ?? '';
  }

  /** Open the team's store, once (the program does, before a command's action runs). */
  async open(): Promise<void> {
    // A store across the network (Redis) that goes down is said plainly, once, and again when it is back.
    const onStatus = (status: StoreStatus) => this.storeStatus.emit(status);
    this.opened ??= await openStore(this.storeDescriptor, { home: this.paths.home, team: this.paths.team, onStatus });
  }

  /** The store's reachability for a UI that owns the terminal: from now on it says it, not stderr. */
  takeStoreStatus(): EventStream<StoreStatus> {
    this.untakenStatus?.();
    this.untakenStatus = undefined;
    return this.storeStatus;
  }

  /** The team's shared state: this process's one store. */
  get store(): TeamStore {
    if (!this.opened) throw new Error('the team store is used before it was opened (CliContext.open)');
    return this.opened;
  }

  /** The team's config, or a usage error saying how to create it. */
  async requireTeam(): Promise<TeamConfig> {
    const team = await this.store.roster.load();
    if (!team) {
      throw new UsageError(
        `no team '${this.paths.team}' in ${this.paths.home} yet; create it with \`teams member add <name> --role <role>\``,
      );
    }
    return team;
  }

  /**
   * `name` if it is one of `known` (the roster unless given), else a usage error naming the
   * closest: a mistyped agent fails loudly rather than showing nothing.
   */
  async requireAgent(name: string, known?: readonly string[]): Promise<string> {
    const names = known ?? memberNames(await this.requireTeam());
    if (names.includes(name)) return name;
    const hint = didYouMean(name, names);
    throw new UsageError(`unknown agent ${quoted(name)}: not a member of team '${this.paths.team}'${hint ? `; ${hint}` : ''}`);
  }

  /** Sends as no agent (unsigned): only what the human records with no lead running. */
  get bus(): TeamBus {
    this.sender ??= new TeamBus(this.store);
    return this.sender;
  }

  async close(): Promise<void> {
    await this.opened?.close();
  }
}

// Here, not in program.ts, so that the commands program.ts registers need not import it back.
/** Opens the context from the global options of whichever command is running. */
export type ContextFor = (command: Command) => CliContext;
