import { KINDS, type Envelope, type Kind, type RequestEnvelope, type RequestKind, type ResponseEnvelope } from './messages.js';
import { KIND_SPECS } from './kinds/index.js';

type Specs = typeof KIND_SPECS;
type TypesOfClass<C extends string> = { [K in Kind]: Specs[K]['role'] extends { class: C } ? K : never }[Kind];

export type Classification =
  | { class: 'chat'; kind: TypesOfClass<'chat'> }
  | { class: 'request'; kind: RequestKind }
  | { class: 'response'; kind: RequestKind }
  | { class: 'notification'; kind: TypesOfClass<'notification'> };

/** Each kind's class, as its file declares it; a response's kind is the request kind it answers. */
const CLASSES = new Map<Kind, Classification>();
for (const kind of KINDS) {
  const role = KIND_SPECS[kind].role;
  if (role.class === 'request') CLASSES.set(kind, { class: 'request', kind: role.kind });
  else if (role.class !== 'response') CLASSES.set(kind, { class: role.class, kind } as Classification);
}
for (const kind of KINDS) {
  const role = KIND_SPECS[kind].role;
  if (role.class !== 'response') continue;
  const request = CLASSES.get(role.request as Kind);
  if (request?.class !== 'request') throw new Error(`${kind} answers '${role.request}', which is not a request kind`);
  CLASSES.set(kind, { class: 'response', kind: request.kind });
}

/** The one place that tells protocol messages from chat. */
export function classify(type: Kind): Classification {
  const classification = CLASSES.get(type);
  if (!classification) throw new Error(`unclassified message type '${type}'`);
  return classification;
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
