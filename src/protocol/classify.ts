import { KINDS, REQUEST_KINDS, type Envelope, type Kind, type RequestEnvelope, type RequestKind, type ResponseEnvelope } from './messages.js';

export type Classification =
  | { class: 'chat'; kind: 'message' | 'broadcast' }
  | { class: 'request'; kind: RequestKind }
  | { class: 'response'; kind: RequestKind }
  | { class: 'notification'; kind: 'task_assignment' | 'idle_notification' | 'task_notification' };

const REQUEST_TYPES = new Map<Kind, RequestKind>();
const RESPONSE_TYPES = new Map<Kind, RequestKind>();
for (const [kind, pair] of Object.entries(REQUEST_KINDS) as [RequestKind, { request: Kind; response: Kind }][]) {
  REQUEST_TYPES.set(pair.request, kind);
  RESPONSE_TYPES.set(pair.response, kind);
}

/** The one place that tells protocol messages from chat. */
export function classify(type: Kind): Classification {
  if (type === 'message' || type === 'broadcast') return { class: 'chat', kind: type };
  const requestKind = REQUEST_TYPES.get(type);
  if (requestKind) return { class: 'request', kind: requestKind };
  const responseKind = RESPONSE_TYPES.get(type);
  if (responseKind) return { class: 'response', kind: responseKind };
  if (type === 'task_assignment' || type === 'idle_notification' || type === 'task_notification') {
    return { class: 'notification', kind: type };
  }
  throw new Error(`unclassified message type '${type}'`);
}

export function isProtocolMessage(envelope: Pick<Envelope, 'type'>): boolean {
  return classify(envelope.type).class !== 'chat';
}

export function isRequest(envelope: Envelope): envelope is RequestEnvelope {
  return classify(envelope.type).class === 'request';
}

export function isResponse(envelope: Envelope): envelope is ResponseEnvelope {
  return classify(envelope.type).class === 'response';
}

// Every kind must be classified; this fails at load time if one is added without a class.
for (const kind of KINDS) classify(kind);
