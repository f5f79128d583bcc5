import { randomBytes } from 'node:crypto';

// Crockford base32: sorts the same as the numbers it encodes, no ambiguous letters.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

function encodeTime(ms: number): string {
  let out = '';
  let rest = ms;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

function randomChars(count: number): string {
  const bytes = randomBytes(count);
  let out = '';
  for (const byte of bytes) out += ALPHABET[byte % 32];
  return out;
}

let lastMs = -1;
let sequence = 0;
const processTag = randomChars(6);

/**
 * A unique, time-sortable message id (ULID-like, lowercase): 10 chars of milliseconds,
 * a 4-char per-process sequence so ids from one process sort in send order even within
 * one millisecond, then 6 random chars fixed per process so two processes never collide.
 */
export function newMessageId(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    sequence = 0;
  } else {
    sequence++;
  }
  let seq = '';
  let rest = sequence;
  for (let i = 0; i < 4; i++) {
    seq = ALPHABET[rest % 32] + seq;
    rest = Math.floor(rest / 32);
  }
  return `${encodeTime(lastMs)}${seq}${processTag}`;
}

export const MESSAGE_ID_PATTERN = /^[0-9a-hjkmnp-tv-z]{20}$/;

/** A request id a human can type: the kind, then 10 random base32 chars (50 bits). */
export function newRequestId(kind: string): string {
  return `${kind}-${randomChars(10)}`;
}

export const REQUEST_ID_PATTERN = /^[a-z]+-[0-9a-hjkmnp-tv-z]{10}$/;

/** A session id a human can type (`teams run --resume <id>`), shaped like a request id. */
export function newSessionId(): string {
  return newRequestId('session');
}

export const SESSION_ID_PATTERN = /^session-[0-9a-hjkmnp-tv-z]{10}$/;
