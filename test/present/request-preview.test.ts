import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { previewRequest } from '../../src/present/request-preview.js';
import { RequestRecord } from '../../src/protocol/request-records.js';
import { tempHome } from '../helpers/temp.js';

const temp = tempHome('teams-request-preview-');
after(() => temp.cleanup());
const root = realpathSync(temp.home);
const cwd = join(root, 'w');
const state = join(cwd, '.teams');
mkdirSync(state, { recursive: true });
mkdirSync(join(root, 'elsewhere'));
writeFileSync(join(root, 'elsewhere', 'secret'), 'SECRET\n');
writeFileSync(join(cwd, 'a.txt'), 'old\n');
writeFileSync(join(state, 'config.json'), '{}\n');
symlinkSync(join(root, 'elsewhere'), join(cwd, 'out'));
execFileSync('mkfifo', [join(cwd, 'fifo')]);
const place = { cwd, hidden: [state] };

function permission(path: string): RequestRecord {
  return RequestRecord.parse({
    request_id: 'permission-1',
    kind: 'permission',
    from: 'alice',
    to: 'lead',
    created_at: '2026-01-01T00:00:00Z',
    deadline_at: '2026-01-01T01:00:00Z',
    state: 'pending',
    summary: `write ${path}`,
    tool: { name: 'write_file', input: { path, content: 'new\n' }, reason: `write ${path}` },
  });
}

async function noteOf(path: string): Promise<string | undefined> {
  const lines = await previewRequest(permission(path), place);
  return lines?.find((line) => line.kind === 'note' && line.text.includes('current file'))?.text;
}

describe('the preview of a write reads the current file only as the file tools would', { timeout: 10_000 }, () => {
  test('a FIFO in place of the file is named, not opened for reading: the preview does not hang', async () => {
    assert.equal(await noteOf('fifo'), "the current file cannot be read ('fifo' is a FIFO, not a regular file; the file tools only read and write regular files); its new content:");
  });

  test('a file through a link out of the working directory, or in the team state, is not read', async () => {
    assert.match((await noteOf('out/secret')) ?? '', /cannot be read \(path 'out\/secret' is outside the working directory .* \(through a symbolic link/);
    assert.match((await noteOf('.teams/config.json')) ?? '', /cannot be read \(path '\.teams\/config\.json' is inside the team's state directory/);
    const lines = JSON.stringify(await previewRequest(permission('out/secret'), place));
    assert.doesNotMatch(lines, /SECRET/);
  });

  test('a regular file is diffed against, a missing one shown as new', async () => {
    const diff = JSON.stringify(await previewRequest(permission('a.txt'), place));
    assert.match(diff, /-old/);
    assert.equal(await noteOf('new/b.txt'), undefined);
  });
});
