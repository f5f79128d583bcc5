import { after } from 'node:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mailboxDir, mailboxLayout } from '../../src/store/file/mailbox/layout.js';
import { teamPaths } from '../../src/team/paths.js';
import { fileLayout } from '../../src/store/file/layout.js';
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
  // A line of a log cut short and then ended, as a writer killed mid-write and a torn disk
  // block would leave it: a log of its own, from a writer that has ended.
  async injectUnreadable(descriptor, agent) {
    const { home, team } = FileDescriptor.parse(JSON.parse(descriptor));
    const logs = mailboxLayout(mailboxDir(teamPaths(home, team).root, agent)).logs;
    mkdirSync(logs, { recursive: true });
    writeFileSync(join(logs, '1-1-0123456789.0.log'), '{"type":"message","id":"\n');
  },
  // The task's creation line cut short where it stands, as a torn disk block would leave it.
  async damageTask(descriptor, id) {
    const { home, team } = FileDescriptor.parse(JSON.parse(descriptor));
    const path = fileLayout(teamPaths(home, team).root).tasks;
    const created = `"event":"created"`;
    const lines = readFileSync(path, 'utf8').split('\n');
    const at = lines.findIndex((line) => line.includes(created) && line.includes(`"task":{"id":"${id}"`));
    if (at < 0) throw new Error(`no creation of task ${id} in ${path}`);
    lines[at] = (lines[at] ?? '').slice(0, 30);
    writeFileSync(path, lines.join('\n'));
  },
});
