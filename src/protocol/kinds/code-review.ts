import * as z from 'zod';
import { envelopeOf, RequestId } from '../fields.js';
import { defineKind, responseTo, type DraftOf } from './spec.js';
import { colon, header, isBlank, sentence } from './text.js';

/**
 * Code review between members: any member asks any other (teammate to teammate included) to
 * review the files it names or a diff; the reviewer approves or requests changes, with
 * comments. If no review comes within the deadline, the requester is told so.
 */

const Response = envelopeOf('code_review_response', {
  request_id: RequestId,
  approve: z.boolean(),
  comments: z.string().min(1, 'comments is empty'),
});
type ResponseDraft = DraftOf<typeof Response>;

const Request = envelopeOf('code_review_request', {
  request_id: RequestId,
  subject: z.string().min(1, 'subject is empty').max(200, 'subject is longer than 200 characters'),
  files: z.array(z.string().min(1, 'a file name is empty')).optional(),
  diff: z.string().optional(),
});
type Request = z.output<typeof Request>;

/** "notes.md, src/x.ts" and "a diff of 12 lines": what is to be reviewed, in a few words. */
function scope(e: Request): string {
  const parts: string[] = [];
  if (e.files?.length) parts.push(`files: ${e.files.join(', ')}`);
  if (!isBlank(e.diff)) {
    const lines = (e.diff ?? '').trimEnd().split('\n').length;
    parts.push(`a diff of ${lines} line${lines === 1 ? '' : 's'}`);
  }
  return parts.join('; ');
}

export const codeReviewRequest = defineKind(Request, {
  direction: 'any',
  role: {
    class: 'request',
    kind: 'review',
    response: 'code_review_response',
    deadlineMs: 10 * 60_000,
    subject: (e) => `${e.subject} (${scope(e)})`,
    expire: (r, waited) => ({
      to: r.from,
      notice: `No review came: ${r.to} did not answer your review request '${r.request_id}' within ${waited}. Go on without it, or ask someone else.`,
      note: `no review within ${waited}; ${r.from} was told`,
    }),
    // A review asked of the lead is the lead model's to give; a human may still answer it by id.
    humanDecides: () => false,
    answer: (r, d) =>
      responseTo(r, { type: 'code_review_response', approve: d.approve, comments: d.note?.trim() || (d.approve ? 'Approved.' : 'Changes requested.') }) satisfies ResponseDraft,
  },
  content: {
    rule: 'review_needs_files_or_diff',
    check: (e) => (!e.files?.length && isBlank(e.diff) ? 'a review request needs the files to review or a diff' : undefined),
  },
  notice: (e) =>
    `${header(e, e.request_id)} ${sentence(`${e.from} asks you to review: ${e.subject}`)}` +
    (e.files?.length ? `\nFiles: ${e.files.join(', ')}` : '') +
    (isBlank(e.diff) ? '' : `\nDiff:\n${(e.diff ?? '').trimEnd()}`) +
    `\nAnswer with code_review_response(request_id="${e.request_id}", approve=true|false, comments="…").`,
  line: (e) => `asks ${e.to} to review: ${e.subject} (${e.request_id}; ${scope(e)})`,
});

export const codeReviewResponse = defineKind(Response, {
  direction: 'any',
  role: { class: 'response', request: 'code_review_request', note: (e) => e.comments },
  notice: (e) =>
    e.approve
      ? `${header(e, e.request_id)} ${sentence(`${e.from} approved your change${colon(e.comments)}`)}`
      : `${header(e, e.request_id)} ${sentence(`${e.from} requests changes${colon(e.comments)}`)} Make them, then ask again if it needs another look.`,
  line: (e) => (e.approve ? `approved the review (${e.request_id})${colon(e.comments)}` : `requests changes (${e.request_id})${colon(e.comments)}`),
});
