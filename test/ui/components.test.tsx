import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cleanup, render } from 'ink-testing-library';
import { ApprovalQueue } from '../../src/ui/components/ApprovalQueue.js';
import { Header } from '../../src/ui/components/Header.js';
import { InputLine } from '../../src/ui/components/InputLine.js';
import { TeamPanel } from '../../src/ui/components/TeamPanel.js';
import { LiveTurn, Transcript } from '../../src/ui/components/Transcript.js';
import type { TranscriptItem } from '../../src/ui/state/types.js';
import { member, NOW, request, task } from './fixtures.js';
import { currentTasks } from '../../src/ui/state/selectors.js';
import { formatMembers } from '../../src/present/format.js';
import { plain } from './terminal.js';

afterEach(cleanup);

const frame = (element: React.JSX.Element) => plain(render(element).lastFrame());

describe('Header', () => {
  const props = { team: 'default', modelLabel: 'offline-demo (scripted offline demo model, not Claude)', offline: true, cwd: '/w', sandbox: 'sandboxed (bubblewrap, network on)', sandboxBinding: true, tokens: 12_345, cost: 0, phase: 'running' as const, waitingFor: '', view: 'lead', storeDown: undefined };

  test('team, the offline model clearly labelled, tokens and cost', () => {
    const text = frame(<Header {...props} />).replace(/\s+/g, " ");
    assert.match(text, /team default/);
    assert.match(text, /offline-demo \(scripted offline demo model, not Claude\)/);
    assert.match(text, /12\.3k tokens/);
    assert.match(text, /\$0\.0000/);
    assert.match(frame(<Header {...props} cost={undefined} />), /cost n\/a/);
  });

  test('the shutdown under way, and whom it waits for', () => {
    assert.match(frame(<Header {...props} phase="stopping" waitingFor="alice,bob" />), /Shutting the team down: waiting for alice, bob… \(Ctrl\+C again to force\)/);
    assert.match(frame(<Header {...props} phase="forcing" waitingFor="" />), /Ending every teammate now/);
    assert.match(frame(<Header {...props} phase="stopped" waitingFor="" />), /The team has stopped/);
  });

  test('whose session is shown, the key that switches, and what typing and Esc do in a teammate view', () => {
    const lead = frame(<Header {...props} />).replace(/\s+/g, ' ');
    assert.match(lead, /view lead \(Shift\+↑\/↓\)/);
    assert.doesNotMatch(lead, /Viewing/);
    const alice = frame(<Header {...props} view="alice" />).replace(/\s+/g, ' ');
    assert.match(alice, /view alice/);
    assert.match(alice, /Viewing alice: what you type goes to alice as your message · Esc interrupts alice/);
  });

  test('a team store that cannot be reached is said in the header while it lasts', () => {
    assert.doesNotMatch(frame(<Header {...props} />), /Team store down/);
    const down = frame(<Header {...props} storeDown="Redis at redis://127.0.0.1:6390 cannot be reached (ECONNREFUSED); retrying (calls wait until it is back)" />).replace(/\s+/g, ' ');
    assert.match(down, /Team store down: Redis at redis:\/\/127\.0\.0\.1:6390 cannot be reached \(ECONNREFUSED\); retrying/);
  });
});

describe('TeamPanel', () => {
  test('name, role, model, status, time in state, pending requests, activity', () => {
    const members = [member('lead', 'idle', { model: 'claude-sonnet-5-5' }), member('alice', 'awaiting_approval', { model: 'claude-haiku-4-5' }), member('bob', 'working', { role: 'tester' })];
    const text = frame(<TeamPanel members={members} activity={{ alice: 'asks to approve a plan', bob: 'running the tests' }} pending={new Map([["alice", 2]])} current={new Map()} now={NOW} view="lead" />);
    const alice = text.split('\n').find((l) => l.startsWith('alice')) ?? '';
    assert.match(alice, /^alice\s+coder\s+claude-haiku-4-5\s+awaiting_approval\s+30s\s+2 pending\s+asks to approve a plan$/);
    assert.match(text, /^lead\s+lead\s+claude-sonnet-5-5\s+idle\s+30s\s*$/m);
    assert.match(text, /^bob\s+tester\s+-\s+working\s+30s\s+running the tests$/m, 'no model known yet');
    assert.doesNotMatch(text, /No teammates yet/);
  });

  test("each teammate's task in progress from the board: id and subject, cut to fit, further ones by id", () => {
    const members = [member('lead'), member('alice', 'working'), member('bob', 'idle')];
    const board = [
      task('5', 'in_progress', { owner: 'alice', subject: 'Second thing' }),
      task('2', 'in_progress', { owner: 'alice', subject: 'Write the tokenizer for here-documents and every quoting rule of the shell' }),
      task('3', 'pending', { owner: 'bob', subject: 'Not begun' }),
      task('4', 'completed', { owner: 'bob', subject: 'Done already' }),
    ];
    const current = currentTasks({ tasks: board });
    const text = frame(<TeamPanel members={members} activity={{ alice: 'editing' }} pending={new Map()} current={current} now={NOW} view="lead" />);
    assert.match(text, /^alice\s+coder\s+-\s+working\s+30s\s+#2 Write the tokenizer for here… \+#5\s+editing$/m);
    assert.match(text, /^bob\s+coder\s+-\s+idle\s+30s\s*$/m, 'a pending or finished task is not current');
    const none = frame(<TeamPanel members={members} activity={{ alice: 'editing' }} pending={new Map()} current={new Map()} now={NOW} view="lead" />);
    assert.match(none, /^alice\s+coder\s+-\s+working\s+30s\s+editing$/m, 'no column while nobody has a task in progress');
  });

  test("each teammate's permission mode, where the roster records one", () => {
    const members = [member('lead'), member('alice', 'working', { model: 'm', permission_mode: 'accept-edits' }), member('bob', 'idle', { model: 'm', permission_mode: 'plan' })];
    const text = frame(<TeamPanel members={members} activity={{}} pending={new Map()} current={new Map()} now={NOW} view="lead" />);
    assert.match(text, /^alice\s+coder\s+m\s+accept-edits\s+working/m);
    assert.match(text, /^bob\s+coder\s+m\s+plan\s+idle/m);
    assert.match(formatMembers(members, NOW), /^alice\s+coder\s+working\s+-\s+\S+\s+accept-edits\s+m\s+-$/m);
  });

  test("each member's host, once one runs on another machine; a one-machine team shows no host column", () => {
    const local = [member('lead'), member('alice', 'working', { model: 'm' })];
    const placed = [...local, member('bob', 'idle', { model: 'm', host: 'build' })];
    const text = frame(<TeamPanel members={placed} activity={{}} pending={new Map()} current={new Map()} now={NOW} view="lead" />);
    assert.match(text, /^alice\s+coder\s+m\s+-\s+working/m, "'-': the lead's machine");
    assert.match(text, /^bob\s+coder\s+m\s+build\s+idle/m);
    assert.match(frame(<TeamPanel members={local} activity={{}} pending={new Map()} current={new Map()} now={NOW} view="lead" />), /^alice\s+coder\s+m\s+working/m);
    assert.match(formatMembers(placed, NOW), /^NAME\s+ROLE\s+STATUS\s+PID\s+HOST\s+SINCE/m);
    assert.match(formatMembers(placed, NOW), /^bob\s+coder\s+idle\s+-\s+build\s+\S+\s+-\s+m\s+-$/m);
    assert.doesNotMatch(formatMembers(local, NOW), /HOST/);
  });

  test('a big team: the panel stays short and says where the rest is', () => {
    const members = [member('lead'), ...Array.from({ length: 20 }, (_, i) => member(`m${i}`))];
    const text = frame(<TeamPanel members={members} activity={{}} pending={new Map()} current={new Map()} now={NOW} view="lead" />);
    assert.equal(text.split('\n').length, 12);
    assert.match(text, /… 10 more: \/team lists them all/);
  });

  test('an empty team says how to get one', () => {
    assert.match(frame(<TeamPanel members={[member('lead')]} activity={{}} pending={new Map()} current={new Map()} now={NOW} view="lead" />), /No teammates yet: ask the lead, or \/spawn <name> <role>/);
  });
});

describe('ApprovalQueue', () => {
  const plan = request('plan-1', 'plan', 'alice');
  const perm = request('perm-2', 'permission', 'bob');
  const base = { queue: [plan, perm], selected: 0, expanded: false, deciding: [], focus: 'input' as const, reason: undefined, now: NOW };

  test('nothing when empty and not focused; a note when focused', () => {
    assert.equal(frame(<ApprovalQueue {...base} queue={[]} />), '');
    assert.match(frame(<ApprovalQueue {...base} queue={[]} focus="queue" />), /Nothing is waiting\. Esc returns to the input line\./);
  });

  test('each request: kind, sender, age, countdown, summary, id; Tab hint while unfocused', () => {
    const text = frame(<ApprovalQueue {...base} />);
    assert.match(text, /Approvals \(2\)\s+Tab to review/);
    assert.match(text, /plan\s+alice\s+12s ago\s+⏳ 4:48\s+1\. Read the task\. 2\. Write notes\.md\. 3\. Report back\./);
    assert.match(text, /permission\s+bob\s+12s ago\s+⏳ 4:48\s+bash \{"command":"rm -rf build\/cache"\}/);
    assert.doesNotMatch(text, /›/, 'no selection shown while the input line has focus');
  });

  test('focused: the keys, and the selected request marked', () => {
    const text = frame(<ApprovalQueue {...base} focus="queue" selected={1} />);
    assert.match(text, /y approve · n reject · v view · a allow: this call or a rule/);
    assert.match(text, /› permission\s+bob/);
    assert.doesNotMatch(text, /› plan/);
  });

  test('many requests: a window around the selected one', () => {
    const many = Array.from({ length: 9 }, (_, i) => request(`perm-${i}`, 'permission', `m${i}`));
    const text = frame(<ApprovalQueue {...base} queue={many} focus="queue" selected={4} />);
    assert.match(text, /↑ 2 more/);
    assert.match(text, /↓ 2 more/);
    assert.match(text, /› permission\s+m4/);
    assert.match(text, /\bm2\b[\s\S]*\bm6\b/);
    assert.doesNotMatch(text, /\bm1\b|\bm7\b/);
  });

  test('a long plan expanded: its start, and where the rest is', () => {
    const long = request('plan-9', 'plan', 'alice', { summary: Array.from({ length: 30 }, (_, i) => `${i + 1}. step`).join('\n') });
    const text = frame(<ApprovalQueue {...base} queue={[long]} focus="queue" expanded />);
    assert.match(text, /12\. step/);
    assert.doesNotMatch(text, /13\. step/);
    assert.match(text, /… the rest is printed in full above/);
  });

  test('v on a permission: its preview, at most PREVIEW_ROWS lines, and where the rest is; reading… until it comes', () => {
    const tool = { name: 'write_file', input: { path: 'a.txt', content: 'x' }, reason: 'write a.txt' };
    const p = request('perm-7', 'permission', 'alice', { tool });
    const props = { ...base, queue: [p], focus: 'queue' as const, expanded: true };
    // The rows inside the border, as text.
    const inner = (element: React.JSX.Element) => frame(element).split('\n').map((l) => l.replace(/[│\s]+$/, '').replace(/^[│\s]+/, '')).join('\n');
    assert.match(inner(<ApprovalQueue {...props} />), /permission request perm-7 from alice, what it will do:\nreading…/);
    const lines = [
      { kind: 'header' as const, text: 'write_file a.txt: replaces 1 line with 1 line' },
      { kind: 'header' as const, text: '@@ -1,1 +1,1 @@' },
      { kind: 'removed' as const, text: '-old' },
      { kind: 'added' as const, text: '+new' },
      ...Array.from({ length: 20 }, (_, i) => ({ kind: 'context' as const, text: ` ctx ${i}` })),
    ];
    const text = inner(<ApprovalQueue {...props} preview={{ requestId: 'perm-7', lines }} />);
    assert.match(text, /what it will do:\nwrite_file a\.txt: replaces 1 line with 1 line\n@@ -1,1 \+1,1 @@\n-old\n\+new\nctx 0\n/);
    assert.match(text, /ctx 7\b/);
    assert.doesNotMatch(text, /ctx 8\b/);
    assert.match(text, /… 12 more lines, printed in full above/);
    assert.doesNotMatch(text, /"content"/, 'not the raw JSON of the summary');
    // Another request's preview is not shown for this one.
    assert.match(inner(<ApprovalQueue {...props} preview={{ requestId: 'perm-other', lines }} />), /what it will do:\nreading…/);
  });

  test('a tool call cut to fit keeps its reason and its end, so a dangerous tail shows without v', () => {
    const command = `make build && npm test && echo "${'all good, '.repeat(6)}cleaning up" ; rm -rf ~`;
    const tool = { name: 'bash', input: { command }, reason: 'recursive delete: rm -rf ~' };
    const row = frame(<ApprovalQueue {...base} queue={[request('perm-3', 'permission', 'mallory', { tool, summary: `bash ${JSON.stringify({ command })} (recursive delete: rm -rf ~)` })]} />)
      .split('\n')
      .find((line) => line.includes('mallory'));
    assert.ok(row, 'the row is shown');
    assert.match(row, /⏳ 4:48\s+bash make bu[^…]*…[^…]*; rm -rf ~ \(recursive delete: rm -rf ~\) *│$/, row);
    assert.ok(Array.from(row).length <= 100, 'within the terminal: nothing cut by its edge');
    // A long reason is cut in the middle too, never its end, and the command keeps its end.
    const reason = `write outside the working directory: ${'x'.repeat(80)} > /etc/profile`;
    const cut = frame(<ApprovalQueue {...base} queue={[request('perm-4', 'permission', 'mallory', { tool: { ...tool, reason } })]} />)
      .split('\n')
      .find((line) => line.includes('mallory'));
    assert.match(cut ?? '', /bash ma[^…]*…[^…]*-rf ~ \(write outside[^)]*…[^)]*xxx > \/etc\/profile\) *│$/, cut);
    // A short one is shown whole, as it was.
    const short = { name: 'bash', input: { command: 'rm -rf build' }, reason: 'recursive delete: rm -rf build' };
    assert.match(frame(<ApprovalQueue {...base} queue={[request('perm-5', 'permission', 'bob', { tool: short })]} />), /bob\s+12s ago\s+⏳ 4:48\s+bash rm -rf build \(recursive delete: rm -rf build\)/);
  });

  test('v: the whole plan; deciding; the reason input', () => {
    const expanded = frame(<ApprovalQueue {...base} focus="queue" expanded />);
    const lines = expanded.split('\n').map((l) => l.replace(/[│\s]+$/, '').replace(/^[│\s]+/, ''));
    const at = lines.indexOf('plan request plan-1 from alice:');
    assert.ok(at > 0, expanded);
    assert.deepEqual(lines.slice(at + 1, at + 4), ['1. Read the task.', '2. Write notes.md.', '3. Report back.']);
    assert.match(frame(<ApprovalQueue {...base} focus="queue" deciding={['plan-1']} />), /deciding… 1\. Read/);
    const reason = frame(<ApprovalQueue {...base} focus="reason" reason={{ requestId: 'plan-1', text: 'too broad', cursor: 9 }} />);
    assert.match(reason, /Reject plan-1, reason: too broad\s+Enter rejects · Esc cancels/);
  });
});

describe('Transcript and the live turn', () => {
  const items: TranscriptItem[] = [
    { id: 1, kind: 'user', text: 'Write a note' },
    { id: 2, kind: 'lead', text: "I'll hand this to a teammate.", interrupted: false },
    { id: 3, kind: 'tool', name: 'spawn_teammate', input: 'name=alice role=coder', result: 'Spawned alice (pid 7)', isError: false },
    { id: 4, kind: 'tool', name: 'bash', input: 'command=rm -rf /', result: 'Not allowed for the lead', isError: true },
    { id: 5, kind: 'message', from: 'alice', type: 'message', text: 'Report: done' },
    { id: 6, kind: 'message', from: 'alice', type: 'task_notification', text: 'task completed: notes written' },
    { id: 7, kind: 'info', text: 'alice exited (code 0)' },
    { id: 8, kind: 'output', text: 'NAME  ROLE\nlead  lead' },
    { id: 9, kind: 'error', text: "unknown command '/x'" },
    { id: 10, kind: 'lead', text: 'Half a', interrupted: true },
  ];

  test('every kind of item, each on its own line, senders marked', () => {
    const text = frame(<Transcript items={items} epoch={0} />);
    const expected = [
      /^› Write a note$/m,
      /^lead {2}I'll hand this to a teammate\.$/m,
      /^ +⚙ spawn_teammate name=alice role=coder → Spawned alice \(pid 7\)$/m,
      /^ +⚙ bash command=rm -rf \/ ✗ Not allowed for the lead$/m,
      /^\[alice\] Report: done$/m,
      /^\[alice\] task completed: notes written$/m,
      /^· alice exited \(code 0\)$/m,
      /^NAME {2}ROLE\nlead {2}lead$/m,
      /^✗ unknown command '\/x'$/m,
      /^lead {2}Half a \(interrupted\)$/m,
    ];
    for (const pattern of expected) assert.match(text, pattern);
  });

  test('the live turn: thinking, streamed text (its end when long), running tools', () => {
    assert.equal(frame(<LiveTurn live={{ busy: false, text: '', tools: [] }} />), '');
    assert.match(frame(<LiveTurn live={{ busy: true, text: '', tools: [] }} />), /lead is thinking… \(Esc interrupts\)/);
    const long = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n');
    const text = frame(<LiveTurn live={{ busy: true, text: long, tools: [{ id: 't', name: 'bash', input: 'command=ls' }] }} />);
    assert.match(text, /…line 18\n/);
    assert.doesNotMatch(text, /line 17\b/);
    assert.match(text, /line 29/);
    assert.match(text, /⚙ bash command=ls …/);
    // One long paragraph without newlines: still only the rows the live area allows.
    const paragraph = frame(<LiveTurn live={{ busy: true, text: `start ${'word '.repeat(1000)}end`, tools: [] }} />);
    assert.ok(paragraph.split('\n').length <= 12, `${paragraph.split('\n').length} rows`);
    assert.match(paragraph, /end$/m);
    assert.doesNotMatch(paragraph, /start/);
  });
});

describe('InputLine', () => {
  test('a placeholder, typed text, a hint', () => {
    assert.match(frame(<InputLine line={{ text: '', cursor: 0 }} focused hint={undefined} disabled={false} />), /› +message the lead, or \/help/);
    assert.match(frame(<InputLine line={{ text: '/send al', cursor: 8 }} focused hint="/send  /spawn" disabled={false} />), /› \/send al\s*\n\/send {2}\/spawn/);
    assert.equal(frame(<InputLine line={{ text: '', cursor: 0 }} focused hint={undefined} disabled />).trim(), '›');
  });
});
