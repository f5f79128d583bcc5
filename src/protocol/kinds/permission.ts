import * as z from 'zod';
import { envelopeOf, RequestId } from '../fields.js';
import { defineKind, responseTo, type DraftOf } from './spec.js';
import { colon, header, keyValues, sentence } from './text.js';

/**
 * Seed protocol 1: a tool call the policy will not allow on its own waits for a human's
 * decision; no decision in time denies it.
 */

/** Tool inputs can be large; the decider needs their gist, the full input stays in the log. */
const MAX_TOOL_INPUT_CHARS = 1000;

function toolInput(input: Record<string, unknown>): string {
  const json = JSON.stringify(input);
  return json.length <= MAX_TOOL_INPUT_CHARS ? json : `${json.slice(0, MAX_TOOL_INPUT_CHARS - 1)}…`;
}

const Response = envelopeOf('permission_response', {
  request_id: RequestId,
  approve: z.boolean(),
  feedback: z.string().optional(),
  /**
   * The human approved this call "always": the asker keeps it and runs the identical call
   * again without asking. Only the lead sends this kind, signed, so a model cannot grant it.
   */
  always: z.literal(true).optional(),
});
type ResponseDraft = DraftOf<typeof Response>;

export const permissionRequest = defineKind(
  envelopeOf('permission_request', {
    request_id: RequestId,
    tool_name: z.string().min(1, 'tool_name is empty'),
    tool_input: z.record(z.string(), z.unknown()),
    reason: z.string(),
  }),
  {
    direction: 'to_lead',
    role: {
      class: 'request',
      kind: 'permission',
      response: 'permission_response',
      deadlineMs: 5 * 60_000,
      subject: (e) => `${e.tool_name} ${JSON.stringify(e.tool_input)} (${e.reason})`,
      expire: (r, waited) => ({
        response: responseTo(r, {
          type: 'permission_response',
          approve: false,
          feedback: `Permission request timed out after ${waited} with no decision, so it is denied. Do not run it; ask again if it is still needed.`,
        }) satisfies ResponseDraft,
        note: `no decision within ${waited}; permission denied`,
      }),
      humanDecides: () => true,
      answer: (r, d) =>
        responseTo(r, { type: 'permission_response', approve: d.approve, feedback: d.note, ...(d.approve && d.always ? { always: true as const } : {}) }) satisfies ResponseDraft,
    },
    notice: (e) =>
      `${header(e, e.request_id)} ${sentence(`${e.from} asks permission to use ${e.tool_name}${colon(e.reason)}`)} ` +
      `Input: ${toolInput(e.tool_input)}\n` +
      `Answer with permission_response(request_id="${e.request_id}", approve=true|false, feedback="…").`,
    line: (e) => `asks permission: ${e.tool_name} ${keyValues(e.tool_input, 60)} (${e.request_id})`,
  },
);

export const permissionResponse = defineKind(Response, {
  direction: 'from_lead',
  role: { class: 'response', request: 'permission_request', note: (e) => e.feedback },
  notice: (e) =>
    e.approve
      ? `${header(e, e.request_id)} ${sentence(`Permission granted${e.always ? ' always (this session)' : ''}${colon(e.feedback)}`)}`
      : `${header(e, e.request_id)} ${sentence(`Permission denied${colon(e.feedback)}`)} Do not use that tool this way; find another way or ask the lead.`,
  // The tool call waiting for it takes the decision, and tells the model in its result.
  atTeammate: (e, state) => ({
    state,
    permission: {
      requestId: e.request_id,
      approve: e.approve,
      feedback: e.feedback,
      // Kept only with an approval: a denial that says "always" grants nothing.
      ...(e.approve && e.always ? { always: true } : {}),
    },
  }),
  line: (e) => (e.approve ? `granted permission${e.always ? ' always' : ''}${colon(e.feedback)} (${e.request_id})` : `denied permission${colon(e.feedback)} (${e.request_id})`),
});
