import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadModeLayers, modeNamed, startMode, startModeLine, type ModeLayer } from '../../src/lead/start-mode.js';
import { Refused } from '../../src/lib/refused.js';
import { tempHome } from '../helpers/temp.js';

const layer = (scope: ModeLayer['scope'], defaultMode?: string, disablesBypass = false): ModeLayer => ({ scope, file: `/${scope}/settings.json`, defaultMode, disablesBypass });

test("mode names: ours and Claude Code's for the same modes; anything else is none", () => {
  assert.equal(modeNamed('acceptEdits'), 'accept-edits');
  assert.equal(modeNamed('bypassPermissions'), 'bypass');
  assert.equal(modeNamed('accept-edits'), 'accept-edits');
  assert.equal(modeNamed('plan'), 'plan');
  assert.equal(modeNamed('dontAsk'), undefined);
  assert.equal(modeNamed('constructor'), undefined, 'no name inherited from Object');
});

test('the starting mode: the flag, else the most specific layer that sets one, else default', () => {
  assert.deepEqual(startMode(undefined, [layer('user'), layer('project'), layer('local')]), { mode: 'default', from: undefined, notes: [] });
  assert.deepEqual(startMode(undefined, [layer('user', 'plan'), layer('project', 'acceptEdits'), layer('local')]), { mode: 'accept-edits', from: '/project/settings.json', notes: [] });
  assert.deepEqual(startMode(undefined, [layer('user', 'plan'), layer('project', 'acceptEdits'), layer('local', 'default')]).mode, 'default');
  assert.deepEqual(startMode('plan', [layer('user', 'acceptEdits'), layer('project', 'acceptEdits'), layer('local')]), { mode: 'plan', from: '--permission-mode', notes: [] });
});

test("bypass from a file only from the user's own layer; a project's or local one's is passed over with a line, never silently", () => {
  assert.deepEqual(startMode(undefined, [layer('user', 'bypassPermissions'), layer('project'), layer('local')]), { mode: 'bypass', from: '/user/settings.json', notes: [] });
  const project = startMode(undefined, [layer('user'), layer('project', 'bypassPermissions'), layer('local')]);
  assert.equal(project.mode, 'default');
  assert.match(project.notes.join('\n'), /^\/project\/settings\.json: permissions\.defaultMode "bypassPermissions" passed over: approvals are turned off only by the user's own settings or --permission-mode bypass/);
  // Passed over, the next layer down still counts.
  const local = startMode(undefined, [layer('user', 'acceptEdits'), layer('project'), layer('local', 'bypass')]);
  assert.equal(local.mode, 'accept-edits');
  assert.equal(local.notes.length, 1);
});

test('disableBypassPermissionsMode in any layer: bypass from the user layer is passed over, and the flag is refused', () => {
  const disabled = startMode(undefined, [layer('user', 'bypassPermissions'), layer('project', undefined, true), layer('local')]);
  assert.equal(disabled.mode, 'default');
  assert.match(disabled.notes[0] ?? '', /bypass is disabled by permissions\.disableBypassPermissionsMode in \/project\/settings\.json/);
  assert.throws(() => startMode('bypass', [layer('user'), layer('project', undefined, true), layer('local')]), (error: unknown) => error instanceof Refused && /--permission-mode bypass is disabled/.test(error.message));
  assert.equal(startMode('accept-edits', [layer('user'), layer('project', undefined, true), layer('local')]).mode, 'accept-edits');
});

test('read from the settings files: a bad value names the file and the field; the line /permissions shows', (t) => {
  const { home, cleanup } = tempHome('teams-start-mode-');
  t.after(cleanup);
  mkdirSync(home, { recursive: true });
  const settings = join(home, 'settings.json');
  writeFileSync(settings, JSON.stringify({ permissions: { defaultMode: 'acceptEdits', allow: [] } }));
  assert.equal(startMode(undefined, loadModeLayers(home)).mode, 'accept-edits');
  assert.match(startModeLine(home), new RegExp(`^the lead starts in mode accept-edits \\(permissions\\.defaultMode in ${settings}; --permission-mode overrides it\\)$`));
  writeFileSync(settings, JSON.stringify({ permissions: { defaultMode: 'yolo' } }));
  assert.throws(() => loadModeLayers(home), (error: unknown) => error instanceof Refused && error.message.startsWith(`${settings}: `) && /permissions\.defaultMode/.test(error.message) && /not a mode/.test(error.message));
});
