import type { Command, OptionValueSource } from 'commander';
import type { MaildirTransport } from '../mailbox/maildir.js';
import type { RequestTracker } from '../store/file/request-journal.js';
import type { TeamBus } from '../team/bus.js';
import { openTeam, type OpenTeam } from '../team/open.js';
import { loadTeam } from '../store/file/roster-file.js';
import { memberNames, teamNameProblem, type TeamConfig } from '../store/roster.js';
import { teamPaths, type TeamPaths } from '../team/paths.js';
import { didYouMean } from '../protocol/suggest.js';
import { quoted } from '../lib/terminal-text.js';
import { UsageError } from './errors.js';

export type GlobalOptions = { home: string; team: string };

/** Everything a command needs, opened lazily from the global options. */
export class CliContext {
  readonly paths: TeamPaths;
  private opened: OpenTeam | undefined;

  /** `homeSource` says where --home came from, so an error names what the user actually set. */
  constructor(options: GlobalOptions, homeSource: OptionValueSource = 'cli') {
    // path.resolve('') is the current directory: an empty root would scatter state where the user stands.
    if (options.home.trim() === '') {
      throw new UsageError(`${homeSource === 'env' ? 'TEAMS_HOME' : '--home'} is empty: give the state root directory (the default is ./.teams)`);
    }
    const problem = teamNameProblem(options.team);
    if (problem) throw new UsageError(`--team: ${problem}`);
    this.paths = teamPaths(options.home, options.team);
  }

  /** The team's config, or a usage error saying how to create it. */
  requireTeam(): TeamConfig {
    const team = loadTeam(this.paths);
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
  requireAgent(name: string, known: readonly string[] = memberNames(this.requireTeam())): string {
    if (known.includes(name)) return name;
    const hint = didYouMean(name, known);
    throw new UsageError(`unknown agent ${quoted(name)}: not a member of team '${this.paths.team}'${hint ? `; ${hint}` : ''}`);
  }

  private get team(): OpenTeam {
    this.opened ??= openTeam(this.paths, this.requireTeam());
    return this.opened;
  }

  get tracker(): RequestTracker {
    return this.team.tracker;
  }

  get transport(): MaildirTransport {
    return this.team.transport;
  }

  get bus(): TeamBus {
    return this.team.bus;
  }
}

// Here, not in program.ts, so that the commands program.ts registers need not import it back.
/** Opens the context from the global options of whichever command is running. */
export type ContextFor = (command: Command) => CliContext;
