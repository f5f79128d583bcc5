import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import * as z from 'zod';
import { errorMessage, isMissing, writeFileAtomic } from '../lib/index.js';

/**
 * An ed25519 key pair kept in a file of the machine's own state root (mode 0600, a root every
 * sandbox has hidden), with a random secret beside it: the team anchor on the lead's machine,
 * a host's own key on a host. Made on first need; the store never sees the private half.
 */
export type KeyPair = { privateKey: KeyObject; publicKey: string; secret: Buffer };

const KeyFile = z.object({
  private_key: z.string().min(1),
  secret: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'not a 32-byte base64url secret'),
});

/** SPKI DER, base64: the form src/protocol/signing.ts hands keys around in. */
export function publicKeyText(key: KeyObject): string {
  return createPublicKey(key).export({ type: 'spki', format: 'der' }).toString('base64');
}

export function loadOrCreateKeyPair(path: string): KeyPair {
  let text: string | undefined;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  if (text === undefined) {
    const { privateKey } = generateKeyPairSync('ed25519');
    const secret = randomBytes(32).toString('base64url');
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileAtomic(path, `${JSON.stringify({ private_key: privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64'), secret })}\n`, { mode: 0o600, fsync: true });
    return { privateKey, publicKey: publicKeyText(privateKey), secret: Buffer.from(secret, 'base64url') };
  }
  try {
    const stored = KeyFile.parse(JSON.parse(text));
    const privateKey = createPrivateKey({ key: Buffer.from(stored.private_key, 'base64'), format: 'der', type: 'pkcs8' });
    if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error(`not an Ed25519 key (${privateKey.asymmetricKeyType})`);
    return { privateKey, publicKey: publicKeyText(privateKey), secret: Buffer.from(stored.secret, 'base64url') };
  } catch (error) {
    throw new Error(`cannot read the key file ${path}: ${errorMessage(error)} (remove it to make a new one; hosts then need the new token)`);
  }
}
