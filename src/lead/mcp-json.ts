import { join } from 'node:path';
import { Refused, errorMessage, readRegularFile } from '../lib/index.js';

/**
 * `.mcp.json` at the project's root (the directory the lead works in), the project-scope MCP
 * file Claude Code reads and teams commit: `{ "mcpServers": { … } }` in the same shape as the
 * settings' section (tools/mcp/config.ts).
 *
 * It lives in the working tree, which a teammate's commands may write. So the lead reads it
 * outside any sandbox as it reads AGENTS.md: never through a link (a link must not make the lead
 * read, and hand to a teammate, a file that teammate could not see), a regular file only, and
 * no more than a cap. What it does with what it read is bounded elsewhere (mcp-settings.ts).
 */
export const MCP_JSON = '.mcp.json';
/** A few servers take a few hundred bytes each; far more is not a configuration. */
const MAX_MCP_JSON_BYTES = 256 * 1024;

/** The file as JSON, and as text (what the human trusts); `{}` when there is none. Anything else that keeps it from being read is an error naming it. */
export function readMcpJson(cwd: string): { file: string; json: unknown; text: string } {
  const file = join(cwd, MCP_JSON);
  const read = readRegularFile(file, MAX_MCP_JSON_BYTES);
  if (!read.ok) {
    if (read.missing) return { file, json: {}, text: '' };
    throw new Refused(`${file}: ${read.reason}`);
  }
  if (read.truncated) throw new Refused(`${file}: larger than ${MAX_MCP_JSON_BYTES / 1024} KiB`);
  try {
    return { file, json: JSON.parse(read.text), text: read.text };
  } catch (error) {
    throw new Refused(`${file}: not JSON (${errorMessage(error)})`);
  }
}
