import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonical } from '../protocol/index.js';

/**
 * A registration's proof that its writer holds the enrollment secret: HMAC-SHA256 over the
 * team, the host's name and its public key. Anyone may write a registration into the store;
 * only a holder of the secret can make one the lead accepts, and the MAC binds the key to the
 * name, so a copied registration cannot carry another key.
 */
export function enrollmentMac(secret: Buffer, team: string, host: string, publicKey: string): string {
  return createHmac('sha256', secret).update(canonical({ team, host, public_key: publicKey }), 'utf8').digest('base64url');
}

export function enrollmentHolds(secret: Buffer, team: string, host: string, publicKey: string, mac: string): boolean {
  const expected = Buffer.from(enrollmentMac(secret, team, host, publicKey), 'utf8');
  const given = Buffer.from(mac, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
