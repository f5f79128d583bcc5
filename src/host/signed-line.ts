import { sign, verify, type KeyObject } from 'node:crypto';
import * as z from 'zod';
import { describeIssues, errorMessage } from '../lib/index.js';
import { canonical } from '../protocol/index.js';

/**
 * One line of a host channel: a payload and an ed25519 signature over its canonical JSON (the
 * same canonical form messages are signed in). The line is untrusted until `openSignedLine`
 * has parsed it, checked the signature and validated the payload against its schema.
 */
const SignedLine = z.object({ payload: z.record(z.string(), z.unknown()), signature: z.string().min(1).max(200) });

export function signLine(privateKey: KeyObject, payload: Record<string, unknown>): string {
  const signature = sign(null, Buffer.from(canonical(payload), 'utf8'), privateKey).toString('base64');
  return JSON.stringify({ payload, signature });
}

export type Opened<T> = { ok: true; value: T } | { ok: false; reason: string };

export function openSignedLine<T>(line: string, key: KeyObject, schema: z.ZodType<T>, what: string): Opened<T> {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch (error) {
    return { ok: false, reason: `${what} is not JSON: ${errorMessage(error)}` };
  }
  const signed = SignedLine.safeParse(raw);
  if (!signed.success) return { ok: false, reason: `${what} is not a signed line: ${describeIssues(signed.error, what)}` };
  const { payload, signature } = signed.data;
  if (!verify(null, Buffer.from(canonical(payload), 'utf8'), key, Buffer.from(signature, 'base64'))) return { ok: false, reason: `${what} has a signature that does not match` };
  const parsed = schema.safeParse(payload);
  if (!parsed.success) return { ok: false, reason: `${what} is signed but malformed: ${describeIssues(parsed.error, what)}` };
  return { ok: true, value: parsed.data };
}
