import type { Key } from 'ink';
import type { LeadEvent } from '../../src/lead/events.js';
import type { Member } from '../../src/store/roster.js';
import type { Task } from '../../src/store/tasks.js';
import type { RequestRecord } from '../../src/protocol/request-records.js';
import { initialState } from '../../src/ui/state/initial.js';
import type { State } from '../../src/ui/state/types.js';

export const NOW = Date.parse('2026-05-01T12:00:00.000Z');
export const iso = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();

export function member(name: string, status: Member['status'] = 'idle', extra: Partial<Member> = {}): Member {
  return { name, role: name === 'lead' ? 'lead' : 'coder', status, pid: null, model: null, created_at: iso(-60_000), status_since: iso(-30_000), ...extra };
}

export function task(id: string, status: Task['status'], extra: Partial<Task> = {}): Task {
  return { id, subject: `task ${id}`, description: '', status, blocked_by: [], created_by: 'lead', created_at: iso(0), updated_at: iso(0), ...extra };
}

export function request(id: string, kind: RequestRecord['kind'] = 'permission', from = 'alice', extra: Partial<RequestRecord> = {}): RequestRecord {
  return {
    request_id: id,
    kind,
    from,
    to: 'lead',
    created_at: iso(-12_000),
    deadline_at: iso(288_000),
    state: 'pending',
    summary: kind === 'plan' ? '1. Read the task.\n2. Write notes.md.\n3. Report back.' : 'bash {"command":"rm -rf build/cache"} (recursive delete)',
    ...extra,
  };
}

export function state(extra: Partial<State> = {}): State {
  return {
    ...initialState({
      team: 'default',
      modelLabel: 'offline-demo (scripted offline demo model, not Claude)',
      model: 'offline-demo',
      offline: true,
      sandbox: { text: 'sandboxed (bubblewrap, network on)', binding: true },
      cwd: '/tmp/work',
      members: [member('lead'), member('alice', 'working')],
      queue: [],
      now: NOW,
    }),
    ...extra,
  };
}

export const agent = (event: Extract<LeadEvent, { type: 'agent' }>['event']): LeadEvent => ({ type: 'agent', event });

/** An ink Key with everything off but what is given. */
export function key(set: Partial<Key> = {}): Key {
  return {
    upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageDown: false, pageUp: false, home: false, end: false,
    return: false, escape: false, ctrl: false, shift: false, tab: false, backspace: false, delete: false, meta: false,
    super: false, hyper: false, capsLock: false, numLock: false,
    ...set,
  };
}
