import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempHome } from '../helpers/temp.js';
import { filesOf, storeOf } from '../helpers/store.js';
import { teamPaths } from '../../src/team/paths.js';
import type { SessionRecord } from '../../src/store/sessions.js';

const ID = 'session-0123456789';
const say = (text: string): SessionRecord => ({ type: 'user', content: [{ type: 'text', text }] });
const reply = (text: string): SessionRecord => ({ type: 'assistant', content: [{ type: 'text', text }] });

describe('the file store: session journals', () => {
  const temp = tempHome('teams-file-sessions-');
  after(temp.cleanup);

  test('a torn last line (a writer killed mid-append) and a corrupt one are left out and named; the next append is a line of its own', async () => {
    const store = storeOf(temp.home);
    await store.roster.ensure();
    await store.sessions.create({ id: ID, started_at: new Date().toISOString(), first_prompt: 'one' });
    await store.sessions.append(ID, 'alice', say('one'));
    await store.sessions.append(ID, 'alice', reply('two'));
    const journal = join(filesOf(teamPaths(temp.home, 'default')).sessions, ID, 'alice.jsonl');
    appendFileSync(journal, '\n{"at":"2026-01-01T00:00:00.000Z","record":{"type":"user","content":[]}}\n');
    appendFileSync(journal, '\n{"at":"2026-01-01T00:00:00.000Z","record":{"type":"assis');

    const torn = await store.sessions.read(ID, 'alice');
    assert.deepEqual(torn.entries.map((e) => e.record), [say('one'), reply('two')]);
    assert.equal(torn.problems.length, 2);
    const lineOf = (ref: string) => Number(/ line (\d+)$/.exec(ref)?.[1]);
    const [corrupt, tail] = torn.problems;
    assert.equal(corrupt?.ref, `${journal} line ${lineOf(corrupt?.ref ?? '')}`);
    assert.match(corrupt?.reason ?? '', /content/, 'what was wrong with it');
    assert.equal(readFileSync(journal, 'utf8').split('\n')[lineOf(corrupt?.ref ?? '') - 1]?.includes('"content":[]'), true, 'the line named is the corrupt one');
    assert.equal(tail?.ref, `${journal} last line`);
    assert.match(tail?.reason ?? '', /torn/);

    await store.sessions.append(ID, 'alice', say('three'));
    const after = await store.sessions.read(ID, 'alice');
    assert.deepEqual(after.entries.map((e) => e.record), [say('one'), reply('two'), say('three')], 'the append after the torn line was not glued onto it');
    assert.equal(after.problems.length, 2);
    assert.match(after.problems[1]?.ref ?? '', / line \d+$/, 'the torn line is now a whole bad line, named by its number');
    assert.match(after.problems[1]?.reason ?? '', /not valid JSON/);

    const listed = await store.sessions.list();
    assert.equal(listed.sessions[0]?.records, 3, 'only good records are counted');
    assert.equal(listed.problems.length, 2);
  });

  test('a session directory with an unreadable meta.json is reported by list, not fatal', async () => {
    const store = storeOf(temp.home, 'other');
    await store.roster.ensure();
    await store.sessions.create({ id: 'session-aaaaaaaaaa', started_at: new Date().toISOString(), first_prompt: 'fine' });
    await store.sessions.create({ id: 'session-bbbbbbbbbb', started_at: new Date().toISOString(), first_prompt: 'broken' });
    appendFileSync(join(filesOf(teamPaths(temp.home, 'other')).sessions, 'session-bbbbbbbbbb', 'meta.json'), 'garbage');
    const { sessions, problems } = await store.sessions.list();
    assert.deepEqual(sessions.map((s) => s.id), ['session-aaaaaaaaaa']);
    assert.equal(problems.length, 1);
    assert.match(problems[0]?.ref ?? '', /session-bbbbbbbbbb\/meta\.json$/);
    assert.match(problems[0]?.reason ?? '', /not valid JSON/);
    await assert.rejects(store.sessions.get('session-bbbbbbbbbb'), /not valid JSON/);
  });
});
