import type { KeyObject } from 'node:crypto';
import { errorMessage } from '../lib/index.js';
import { importPublicKey } from '../protocol/index.js';
import type { KeyPair } from './key-file.js';

/**
 * What a host is given out of band (`teams hosts key` on the lead's machine, `teams host
 * --trust` on the other): the team anchor's public key, which signs every order, and the
 * enrollment secret, which a registration must prove it holds. Nothing in the store can stand
 * in for either.
 */
const PREFIX = 'teams1';

export type Trust = { anchorKey: KeyObject; anchorPublicKey: string; secret: Buffer };

export function trustToken(anchor: KeyPair): string {
  return `${PREFIX}.${Buffer.from(anchor.publicKey, 'base64').toString('base64url')}.${anchor.secret.toString('base64url')}`;
}

/** The token's contents, or an error saying what is wrong with it (never echoing the secret). */
export function parseTrustToken(token: string): Trust {
  const parts = token.trim().split('.');
  if (parts.length !== 3 || parts[0] !== PREFIX) throw new Error(`not a trust token: it should look like ${PREFIX}.<key>.<secret> (print it with \`teams hosts key\` on the lead's machine)`);
  const [, key = '', secret = ''] = parts;
  if (!/^[A-Za-z0-9_-]+$/.test(key) || !/^[A-Za-z0-9_-]{43}$/.test(secret)) throw new Error('the trust token is damaged: its key or secret is not base64url of the right length');
  const anchorPublicKey = Buffer.from(key, 'base64url').toString('base64');
  try {
    return { anchorKey: importPublicKey(anchorPublicKey), anchorPublicKey, secret: Buffer.from(secret, 'base64url') };
  } catch (error) {
    throw new Error(`the trust token's key is not usable: ${errorMessage(error)}`);
  }
}
