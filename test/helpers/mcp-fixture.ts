import { buildSync } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE = fileURLToPath(new URL('../fixtures/mcp-server.js', import.meta.url));
let bundled: string | undefined;

/**
 * The test MCP server as one file where every sandbox sees it. A checkout under /tmp (a CI
 * clone, say) is out of a sandbox's sight, since its /tmp is a private one, and so are the
 * checkout's node_modules: the server and the SDK it uses are bundled into /var/tmp, once per
 * test process, and removed when it exits.
 */
export function mcpFixture(): string {
  if (bundled !== undefined) return bundled;
  const dir = mkdtempSync('/var/tmp/teams-mcp-fixture-');
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const out = join(dir, 'mcp-server.mjs');
  buildSync({
    entryPoints: [SOURCE],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: out,
    logLevel: 'error',
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
  bundled = out;
  return out;
}
