import { join } from 'node:path';
import type { TeamPaths } from '../team/index.js';
import { loadOrCreateKeyPair, type KeyPair } from './key-file.js';
import { HostPins } from './pins.js';

/**
 * The trust of a team spread over machines, each file in the machine's own state root (hidden
 * from every sandbox, see team/paths.ts hiddenFromAgents), never in the store.
 */

/** The lead machine's team anchor: it signs every order; its secret enrols hosts. */
export function teamAnchor(paths: TeamPaths): KeyPair {
  return loadOrCreateKeyPair(anchorPath(paths));
}

export function anchorPath(paths: TeamPaths): string {
  return join(paths.root, 'anchor.json');
}

/** The hosts' keys as the lead machine first saw them. */
export function hostPins(paths: TeamPaths): HostPins {
  return new HostPins(join(paths.root, 'hosts.pinned.json'));
}

/** A host's own key pair on its machine (one per host name, so two hosts may share a state root). */
export function hostKey(paths: TeamPaths, name: string): KeyPair {
  return loadOrCreateKeyPair(join(paths.root, `host-${name}.key.json`));
}
