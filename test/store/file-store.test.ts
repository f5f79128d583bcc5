import { after } from 'node:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mailboxDir } from '../../src/mailbox/layout.js';
import { newMessageId } from '../../src/protocol/ids.js';
import { teamPaths } from '../../src/team/paths.js';
import { tempHome } from '../helpers/temp.js';
import { storeConformance } from './conformance.js';
import { FileDescriptor, openStore } from './file-store-opener.js';

const temp = tempHome('teams-file-store-');
after(temp.cleanup);
let teams = 0;

storeConformance('the file store', {
  async create() {
    return JSON.stringify({ home: temp.home, team: `t${teams++}` });
  },
  open: openStore,
  opener: fileURLToPath(new URL('./file-store-opener.js', import.meta.url)),
  // A message file cut short, as a writer killed mid-write by hand would leave it.
  async injectUnreadable(descriptor, agent) {
    const { home, team } = FileDescriptor.parse(JSON.parse(descriptor));
    const waiting = join(mailboxDir(teamPaths(home, team).root, agent), 'new');
    mkdirSync(waiting, { recursive: true });
    writeFileSync(join(waiting, `${newMessageId()}.json`), '{"type":"message","id":"');
  },
});
