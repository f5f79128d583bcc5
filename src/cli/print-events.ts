import type { LeadEvent } from '../lead/index.js';
import { compactionLine, formatMessage } from '../present/index.js';
import { describeRequestChange, LEAD, type RequestRecord } from '../protocol/index.js';
import { inertText, oneLine } from '../lib/index.js';
import type { JsonSink } from './json-output.js';
import { callRow } from '../ui/index.js';

/**
 * Headless output of the team's events: one line each, or JSON (json-output.ts).
 * Streamed text is printed once per model call, not per token. Every line is made inert on
 * its way out: most of what is printed was written by a model.
 */
export function createEventPrinter(json: JsonSink | undefined, writeLine: (line: string) => void): (event: LeadEvent) => void {
  const write = (line: string) => writeLine(inertText(line));
  const shownRequests = new Set<string>();
  const statuses = new Map<string, string>();
  return (event) => {
    if (event.type === 'agent' && event.event.type === 'text_delta') return;
    if (event.type === 'team') {
      const changed = event.members.filter((m) => statuses.get(m.name) !== m.status);
      for (const m of event.members) statuses.set(m.name, m.status);
      if (changed.length === 0) return;
      if (json) return json.add({ type: 'team', members: changed.map((m) => ({ name: m.name, status: m.status, pid: m.pid })) });
      for (const m of changed) write(`· ${m.name} is ${m.status}`);
      return;
    }
    if (event.type === 'approvals') {
      const fresh = event.pending.filter((r) => !shownRequests.has(r.request_id));
      for (const r of fresh) shownRequests.add(r.request_id);
      if (fresh.length === 0) return;
      if (json) return json.add({ type: 'approval_needed', requests: fresh });
      for (const r of fresh) write(`? ${r.kind} request ${r.request_id} from ${r.from}: ${pendingLine(r)}  (teams approve ${r.request_id} / teams reject ${r.request_id} --reason …)`);
      return;
    }
    if (json) return json.add(event);
    switch (event.type) {
      case 'message':
        return write(formatMessage(event.envelope));
      case 'request': {
        const { actor, text } = describeRequestChange(event.record);
        return write(`· ${actor} ${text}`);
      }
      case 'teammate_exit':
        return write(`· ${event.name} exited (${event.crashed ? 'crashed: ' : ''}${event.why})`);
      case 'problem':
        return write(`! ${event.text}`);
      case 'notice':
        return write(`· ${event.text}`);
      case 'teammate_compacted':
        return write(`· ${compactionLine(event.name, event.before, event.after, event.reason)}`);
      case 'lead_mode':
        return write(`· the lead's permission mode: ${event.mode}`);
      case 'lead_model':
        return write(`· the lead's next turns use ${event.label}`);
      case 'lead_session':
        return write(`· the lead starts a fresh conversation in session ${event.id}`);
      case 'agent': {
        const e = event.event;
        if (e.type === 'input') return write(`> ${oneLine(e.text, 400)}`);
        if (e.type === 'turn_end' && e.text.trim() !== '') return write(`lead: ${e.text.trim()}`);
        if (e.type === 'tool_call') return write(`lead ⚙ ${e.name} ${oneLine(JSON.stringify(e.input), 120)}`);
        if (e.type === 'tool_result') return write(`  ${e.isError ? '✗' : '='} ${oneLine(e.content, 160)}`);
        if (e.type === 'error' || e.type === 'compaction_skipped') return write(`! ${e.message}`);
        if (e.type === 'compacted') return write(`· ${compactionLine(LEAD, e.before, e.after, e.reason)}`);
        return;
      }
    }
  };
}

/**
 * What a human decides a request on, beside `teams approve`. A tool call is printed whole, the
 * command and then the reason (which says what a yes grants): cut to a line's length, a
 * padded command would hide its tail and the grant past the cut. Other requests keep their gist.
 */
function pendingLine(r: RequestRecord): string {
  if (r.tool === undefined) return oneLine(r.summary, 160);
  const { what, reason } = callRow(r.tool);
  return `${what}\n  why: ${reason}\n`;
}
