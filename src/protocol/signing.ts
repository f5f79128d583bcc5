import { createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import type { Envelope, Kind } from './messages.js';

/**
 * A teammate can run bash, so it can write into any mailbox file. The lead's decisions are
 * therefore signed with an Ed25519 key that only the lead process holds (in memory); the
 * public half is published in the team config, and teammates refuse what does not verify.
 */
export const SIGNED_KINDS: ReadonlySet<Kind> = new Set<Kind>([
  'plan_approval_response',
  'permission_response',
  'finish_response',
  'shutdown_request',
]);

/** JSON with keys sorted at every level: the same message always signs the same bytes. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function signedBytes(envelope: Envelope): Buffer {
  const { signature: _signature, ...unsigned } = envelope;
  return Buffer.from(canonical(unsigned), 'utf8');
}

export type Signer = { publicKey: string; sign(envelope: Envelope): Envelope };

/** A fresh key pair, kept in this process's memory only. */
export function createSigner(): Signer {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const exported = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  return {
    publicKey: exported,
    sign: (envelope) => ({ ...envelope, signature: sign(null, signedBytes(envelope), privateKey).toString('base64') }),
  };
}

export type Verdict = { ok: true } | { ok: false; reason: string };

export function importPublicKey(spkiBase64: string): KeyObject {
  return createPublicKey({ key: Buffer.from(spkiBase64, 'base64'), format: 'der', type: 'spki' });
}

/** Whether a decision really comes from the lead holding the team's key. */
export function verifyEnvelope(envelope: Envelope, publicKey: KeyObject | undefined): Verdict {
  if (!SIGNED_KINDS.has(envelope.type)) return { ok: true };
  if (!publicKey) return { ok: false, reason: `${envelope.type} ${envelope.id} cannot be verified: the team has no lead key` };
  if (!envelope.signature) return { ok: false, reason: `${envelope.type} ${envelope.id} is unsigned` };
  const good = verify(null, signedBytes(envelope), publicKey, Buffer.from(envelope.signature, 'base64'));
  return good ? { ok: true } : { ok: false, reason: `${envelope.type} ${envelope.id} has a signature that does not match the lead's key` };
}
