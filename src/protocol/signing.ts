import { createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import type { Envelope } from './messages.js';
import { LEAD } from './names.js';
import { FROM_LEAD_KINDS, TO_LEAD_KINDS } from './rules.js';

/**
 * Every agent process signs what it sends with an Ed25519 key made at its start and kept in
 * its memory. A teammate can run commands, and the state files may one day be shared more
 * widely still, so a message's `from` is believed only when its signature says so: the lead
 * learns each teammate's public key over the IPC channel of the process it started, and
 * hands the team's keys to every teammate the same way. No key is ever read from a file.
 */

/** JSON with keys sorted at every level: the same message always signs the same bytes. */
export function canonical(value: unknown): string {
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

export function importPublicKey(spkiBase64: string): KeyObject {
  const key = createPublicKey({ key: Buffer.from(spkiBase64, 'base64'), format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`not an Ed25519 public key (${key.asymmetricKeyType})`);
  return key;
}

/** The public keys of the team's running members, as this process learned them over IPC. */
export class KeyRing {
  private readonly keys = new Map<string, { encoded: string; key: KeyObject }>();

  set(name: string, spkiBase64: string): void {
    this.keys.set(name, { encoded: spkiBase64, key: importPublicKey(spkiBase64) });
  }

  delete(name: string): void {
    this.keys.delete(name);
  }

  get(name: string): KeyObject | undefined {
    return this.keys.get(name)?.key;
  }

  /** Name → key, as handed to teammates. */
  entries(): Record<string, string> {
    return Object.fromEntries([...this.keys].map(([name, { encoded }]) => [name, encoded]));
  }
}

export type Verdict = { ok: true } | { ok: false; reason: string };

function signedBy(envelope: Envelope, signature: Buffer, key: KeyObject | undefined): boolean {
  return key !== undefined && verify(null, signedBytes(envelope), key, signature);
}

/**
 * Whether a message really comes from its `from`. The lead may also sign on a teammate's
 * behalf (the failure notice of one that crashed). Orders and decisions must moreover come
 * from the lead, and what only the lead receives must not reach anyone else, whoever signed.
 */
export function verifySender(envelope: Envelope, keys: KeyRing, recipient: string): Verdict {
  const what = `${envelope.type} ${envelope.id} from ${envelope.from}`;
  if (FROM_LEAD_KINDS.has(envelope.type) && envelope.from !== LEAD) return { ok: false, reason: `${what}: only the lead sends ${envelope.type}` };
  if (TO_LEAD_KINDS.has(envelope.type) && recipient !== LEAD) return { ok: false, reason: `${what}: ${envelope.type} goes to the lead only` };
  if (!envelope.signature) return { ok: false, reason: `${what} is unsigned` };
  const signature = Buffer.from(envelope.signature, 'base64');
  if (signedBy(envelope, signature, keys.get(envelope.from))) return { ok: true };
  if (envelope.from !== LEAD && signedBy(envelope, signature, keys.get(LEAD))) return { ok: true };
  if (!keys.get(envelope.from)) return { ok: false, reason: `${what} cannot be verified: ${envelope.from} has no key here (not a running member, or a message from before this lead started)` };
  return { ok: false, reason: `${what} has a signature that does not match ${envelope.from}'s key` };
}
