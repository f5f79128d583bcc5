import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { Refused, describeIssues, writeFileAtomic } from '../lib/index.js';
import { readSettingsJson } from './settings-layers.js';

/**
 * Which `.mcp.json` the human vouched for, by the SHA-256 of its bytes, as Claude Code asks
 * before it uses a project's servers. The file is in the working tree, so a teammate of this or
 * an earlier session may have written it; its servers are reached, and its `${VAR}`s filled in
 * from the human's environment, outside any sandbox. So they are used only while the file is the
 * one the human trusted (`teams mcp trust`): a byte changed since, and it is not. The record is
 * kept in the state root, which no agent's tools or sandbox reach.
 */
const TRUST_FILE = 'mcp-json-trust.json';
/** By the file's absolute path: a state root may serve more than one working directory (--workdir). */
const TrustRecord = z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/, 'not a SHA-256'));

export function mcpJsonDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function readTrust(home: string): Record<string, string> {
  const file = join(home, TRUST_FILE);
  const parsed = TrustRecord.safeParse(readSettingsJson(file));
  if (!parsed.success) throw new Refused(`${file}: ${describeIssues(parsed.error, 'the record')}`);
  return parsed.data;
}

export function isTrustedMcpJson(home: string, file: string, text: string): boolean {
  return readTrust(home)[file] === mcpJsonDigest(text);
}

export function trustMcpJson(home: string, file: string, text: string): void {
  mkdirSync(home, { recursive: true });
  writeFileAtomic(join(home, TRUST_FILE), `${JSON.stringify({ ...readTrust(home), [file]: mcpJsonDigest(text) }, null, 2)}\n`);
}
