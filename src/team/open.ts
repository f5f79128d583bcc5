import { MaildirTransport } from '../mailbox/maildir.js';
import type { Signer } from '../protocol/signing.js';
import { RequestTracker } from '../store/file/request-journal.js';
import { TeamBus } from './bus.js';
import type { TeamConfig } from '../store/roster.js';
import type { TeamPaths } from './paths.js';

export type OpenTeam = { bus: TeamBus; tracker: RequestTracker; transport: MaildirTransport };

/** The bus, tracker and transport of a team, configured from its config (deadlines). */
export function openTeam(paths: TeamPaths, config: TeamConfig, signer?: Signer): OpenTeam {
  const tracker = new RequestTracker(paths.requests, { deadlines: config.deadlines_ms });
  const transport = new MaildirTransport(paths.root);
  return { bus: new TeamBus(paths, transport, tracker, signer), tracker, transport };
}
