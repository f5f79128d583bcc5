import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as z from 'zod';
import { PACKAGE_ROOT } from '../../src/lib/package-root.js';
import { TEAMMATE_ENTRY } from '../../src/process/supervisor.js';
import { killAll, spawnNode } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';

after(killAll);

const BUNDLE = join(PACKAGE_ROOT, 'dist', 'bundle');
const SDK = /node_modules\/@anthropic-ai\/sdk\//;
const SourceMapSources = z.object({ sources: z.array(z.string()) });

/** The bundle files a file imports statically (`import … from "../x.js"`, `import "./x.js"`), itself included. */
function staticClosure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const match of readFileSync(file, 'utf8').matchAll(/(?:\bfrom|^import)\s*"(\.\.?\/[^"]+\.js)"/gm)) {
    staticClosure(join(dirname(file), match[1] ?? ''), seen);
  }
  return seen;
}

function sourcesOf(file: string): string[] {
  return SourceMapSources.parse(JSON.parse(readFileSync(`${file}.map`, 'utf8'))).sources;
}

describe('the teammate bundle', () => {
  test('is what the supervisor starts', () => {
    assert.match(TEAMMATE_ENTRY, /[/]dist[/]bundle[/]teammate[/]main\.js$/);
  });

  test('loads before "ready" only what ready needs: not the SDK, node:http, the model loop, the tools or the policy', () => {
    const early = staticClosure(TEAMMATE_ENTRY);
    const earlySources = [...early].flatMap(sourcesOf);
    assert.ok(earlySources.some((source) => source.endsWith('src/teammate/start.ts')), 'the closure holds the start');
    const later = /node_modules\/@anthropic-ai\/sdk\/|src\/(agent|tools|policy|sandbox\/launcher|offline\/server)|src\/teammate\/teammate\.ts$/;
    assert.deepEqual(earlySources.filter((source) => later.test(source)), []);
    for (const file of early) assert.doesNotMatch(readFileSync(file, 'utf8'), /from "node:https?"/, file);
    // They are in the bundle all the same, in chunks outside that closure.
    const lateSources = readdirSync(BUNDLE, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.js')).map((name) => join(BUNDLE, name)).filter((file) => !early.has(file)).flatMap(sourcesOf);
    assert.ok(lateSources.some((source) => SDK.test(source)), 'a chunk loaded later holds the SDK');
    assert.ok(lateSources.some((source) => source.endsWith('src/teammate/teammate.ts')), 'a chunk loaded later holds the teammate');
  });

  test("a teammate's fatal error names src/ files and lines, not the bundle's", async () => {
    const { home, cleanup } = tempHome('teams-bundle-');
    try {
      const child = spawnNode(TEAMMATE_ENTRY, ['--home', home, '--team', 'default', '--permission-mode', 'default', '--lead-key', 'k', '--sandbox', '{"kind":"off"}', '--rules', '{"allow":[],"deny":[]}', '--session', 'session-0123456789', 'alice'], {
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      });
      assert.equal((await child.exited).code, 1);
      assert.match(child.stderr(), /no team 'default'/);
      assert.match(child.stderr(), /at startTeammate \(\/.*[/]src[/]teammate[/]start\.ts:\d+:\d+\)/);
      assert.doesNotMatch(child.stderr(), /dist[/]bundle/);
    } finally {
      cleanup();
    }
  });
});
