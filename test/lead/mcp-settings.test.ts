import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempHome } from '../helpers/temp.js';
import { expandServer } from '../../src/lead/mcp-expand.js';
import { trustMcpJson } from '../../src/lead/mcp-json-trust.js';
import { ProjectMcpServers, trustProjectMcpJson } from '../../src/lead/mcp-settings.js';

/** A state root, a user settings directory and a project working directory of their own; the environment the lead expands from. */
function project(vars: Record<string, string> = {}): { home: string; user: string; cwd: string; env: NodeJS.ProcessEnv } {
  const { home, cleanup } = tempHome('teams-mcp-settings-');
  after(cleanup);
  const user = join(home, 'user-config');
  const cwd = join(home, 'project');
  mkdirSync(user, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  return { home, user, cwd, env: { TEAMS_CONFIG_DIR: user, ...vars } };
}

const write = (file: string, json: unknown) => writeFileSync(file, JSON.stringify(json));
/** `.mcp.json` written and trusted as it is, as the human would after reviewing it. */
function writeTrusted(home: string, cwd: string, json: unknown): void {
  writeFileSync(join(cwd, '.mcp.json'), typeof json === 'string' ? json : JSON.stringify(json));
  trustMcpJson(home, join(cwd, '.mcp.json'), readFileSync(join(cwd, '.mcp.json'), 'utf8'));
}
const stdio = (command: string, args: string[] = []) => ({ command, args });

describe('${VAR} expansion in an MCP server', () => {
  test('in command, args, env values, url and headers; a default when unset; a bare $VAR and other fields left alone', () => {
    const env = { BIN: '/usr/bin/node', TOKEN: 'sekrit', EMPTY: '' };
    assert.deepEqual(
      expandServer({ type: 'stdio', command: '${BIN}', args: ['--token=${TOKEN}', '${MISSING:-fallback}', '$TOKEN', '${EMPTY:-x}'], env: { T: 'Bearer ${TOKEN}' } }, env),
      { value: { type: 'stdio', command: '/usr/bin/node', args: ['--token=sekrit', 'fallback', '$TOKEN', ''], env: { T: 'Bearer sekrit' } }, missing: [] },
    );
    assert.deepEqual(expandServer({ url: '${BASE:-https://example.com}/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } }, env), {
      value: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer sekrit' } },
      missing: [],
    });
  });

  test('an unset variable with no default is named, each once', () => {
    assert.deepEqual(expandServer({ command: '${A}', args: ['${B}', '${A}'], env: { X: '${C:-ok}' } }, {}).missing, ['A', 'B']);
  });
});

describe("the project's MCP servers: settings layers and .mcp.json", () => {
  test('.mcp.json is a layer between the user settings and the project settings, each server naming its file', () => {
    const { home, user, cwd, env } = project();
    write(join(user, 'settings.json'), { mcpServers: { a: stdio('user-a'), b: stdio('user-b') } });
    writeTrusted(home, cwd, { mcpServers: { b: stdio('json-b'), c: { type: 'http', url: 'https://example.com/c' }, d: stdio('json-d') } });
    write(join(home, 'settings.json'), { mcpServers: { d: stdio('project-d') } });
    write(join(home, 'settings.local.json'), { mcpServers: { e: stdio('local-e') } });
    const mcp = new ProjectMcpServers(home, cwd, true, env);
    assert.deepEqual(mcp.files(), [join(user, 'settings.json'), join(cwd, '.mcp.json'), join(home, 'settings.json'), join(home, 'settings.local.json')]);
    const { servers, about, failed } = mcp.load();
    assert.deepEqual(
      Object.fromEntries(Object.entries(servers).map(([name, server]) => [name, 'url' in server ? server.url : server.command])),
      { a: 'user-a', b: 'json-b', c: 'https://example.com/c', d: 'project-d', e: 'local-e' },
    );
    assert.deepEqual(Object.fromEntries(Object.entries(about).map(([name, { source }]) => [name, source])), {
      a: join(user, 'settings.json'),
      b: join(cwd, '.mcp.json'),
      c: join(cwd, '.mcp.json'),
      d: join(home, 'settings.json'),
      e: join(home, 'settings.local.json'),
    });
    assert.deepEqual(failed, []);
  });

  test('values are expanded from the given environment, but shown as written; an unset variable fails that server alone, naming file, server and variable', () => {
    const { home, cwd, env } = project({ FIXTURE: '/opt/fixture.mjs', TOKEN: 'sekrit' });
    writeTrusted(home, cwd, {
      mcpServers: {
        fix: { command: 'node', args: ['${FIXTURE}', '--mode=${MODE:-quiet}'], env: { KEY: '${TOKEN}' } },
        docs: { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
        broken: { command: 'node', args: ['${NOT_SET}'] },
      },
    });
    const { servers, about, failed } = new ProjectMcpServers(home, cwd, true, env).load();
    assert.deepEqual(servers.fix, { command: 'node', args: ['/opt/fixture.mjs', '--mode=quiet'], env: { KEY: 'sekrit' } });
    assert.deepEqual(servers.docs, { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer sekrit' } });
    assert.equal(about.fix?.target, 'node ${FIXTURE} --mode=${MODE:-quiet}');
    assert.equal(servers.broken, undefined);
    assert.equal(failed.length, 1);
    assert.equal(failed[0]?.server, 'broken');
    assert.equal(failed[0]?.state, 'failed');
    assert.equal(failed[0]?.source, join(cwd, '.mcp.json'));
    assert.equal(failed[0]?.error, `${join(cwd, '.mcp.json')}: mcpServers.broken: \${NOT_SET} is not set in the lead's environment and has no default (\${VAR:-default})`);
  });

  test('a later layer that names a failed server replaces it', () => {
    const { home, cwd, env } = project();
    writeTrusted(home, cwd, { mcpServers: { fix: { command: '${NOT_SET}' } } });
    write(join(home, 'settings.local.json'), { mcpServers: { fix: stdio('local-fix') } });
    const { servers, failed } = new ProjectMcpServers(home, cwd, true, env).load();
    assert.deepEqual(servers.fix, { command: 'local-fix', args: [], env: {} });
    assert.deepEqual(failed, []);
  });

  test('a malformed .mcp.json refuses, naming the file, and the field when it is one', () => {
    const cases: [string, RegExp][] = [
      ['{ "mcpServers": ', /\.mcp\.json: not JSON/],
      [JSON.stringify({ mcpServers: { fix: { command: 'x', agrs: [] } } }), /\.mcp\.json: mcpServers\.fix: Unrecognized key: "agrs"/],
      [JSON.stringify({ mcpServers: { web: { url: '${BASE:-ftp://example.com}' } } }), /\.mcp\.json: mcpServers\.web\.url: the url must be an http or https URL/],
      [JSON.stringify({ mcpServers: { fix: { command: 'x', args: 'not-a-list' } } }), /\.mcp\.json: mcpServers\.fix\.args: /],
      [JSON.stringify({ mcpServers: [] }), /\.mcp\.json: mcpServers: /],
    ];
    for (const [text, error] of cases) {
      const { home, cwd, env } = project();
      writeTrusted(home, cwd, text);
      assert.throws(() => new ProjectMcpServers(home, cwd, true, env), (thrown: Error) => thrown.message.startsWith(join(cwd, '.mcp.json')) && error.test(thrown.message), text);
    }
  });

  test('a .mcp.json that is a link is not followed', () => {
    const { home, cwd, env } = project();
    write(join(home, 'elsewhere.json'), { mcpServers: { fix: stdio('x') } });
    symlinkSync(join(home, 'elsewhere.json'), join(cwd, '.mcp.json'));
    assert.throws(() => new ProjectMcpServers(home, cwd, true, env), /\.mcp\.json: is a symbolic link, which is not followed/);
  });

  test('.mcp.json is read once, at the start: rewriting it later changes nothing; the settings are read at each load', () => {
    const { home, cwd, env } = project();
    writeTrusted(home, cwd, { mcpServers: { fix: stdio('as-started') } });
    const mcp = new ProjectMcpServers(home, cwd, true, env);
    // What a teammate's command could do mid-session: a new server, another command, a broken file.
    write(join(cwd, '.mcp.json'), { mcpServers: { fix: stdio('planted'), extra: stdio('planted') } });
    write(join(home, 'settings.json'), { mcpServers: { added: stdio('by-the-human') } });
    assert.deepEqual(Object.fromEntries(Object.entries(mcp.load().servers).map(([name, server]) => [name, 'command' in server ? server.command : ''])), { fix: 'as-started', added: 'by-the-human' });
    writeFileSync(join(cwd, '.mcp.json'), 'not json');
    assert.deepEqual(Object.keys(mcp.load().servers).sort(), ['added', 'fix']);
  });

  test('without a sandbox, a stdio server from .mcp.json is failed rather than run bare; the settings\' and an http one are not', () => {
    const { home, cwd, env } = project();
    writeTrusted(home, cwd, { mcpServers: { fix: stdio('from-the-tree'), docs: { url: 'https://example.com/mcp' } } });
    write(join(home, 'settings.json'), { mcpServers: { mine: stdio('from-settings') } });
    const { servers, failed } = new ProjectMcpServers(home, cwd, false, env).load();
    assert.deepEqual(Object.keys(servers).sort(), ['docs', 'mine']);
    assert.deepEqual(failed.map((status) => [status.server, status.state]), [['fix', 'failed']]);
    assert.match(failed[0]?.error ?? '', /a stdio server from \.mcp\.json, which teammates can write, runs only inside the sandbox/);
  });

  test('an untrusted .mcp.json, or one changed since it was trusted, runs no server and fills in no variable', () => {
    const { home, cwd, env } = project({ TOKEN: 'sekrit' });
    const servers = { mcpServers: { docs: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } }, fix: stdio('node', ['${TOKEN}']) } };
    write(join(cwd, '.mcp.json'), servers);
    const untrusted = new ProjectMcpServers(home, cwd, true, env).load();
    assert.deepEqual(untrusted.servers, {});
    assert.deepEqual(untrusted.failed.map((status) => [status.server, status.target]), [['docs', 'https://example.com/mcp'], ['fix', 'node ${TOKEN}']]);
    for (const status of untrusted.failed) assert.equal(status.error, `${join(cwd, '.mcp.json')} is not trusted as it is now: review it, then run \`teams mcp trust\` in ${cwd}`);

    assert.deepEqual(trustProjectMcpJson(home, cwd, env), { file: join(cwd, '.mcp.json'), servers: [{ server: 'docs', target: 'https://example.com/mcp' }, { server: 'fix', target: 'node ${TOKEN}' }] });
    assert.deepEqual(Object.keys(new ProjectMcpServers(home, cwd, true, env).load().servers).sort(), ['docs', 'fix']);
    // One byte more (what a teammate's command could do) and it is untrusted again.
    writeFileSync(join(cwd, '.mcp.json'), `${JSON.stringify(servers)}\n`);
    assert.deepEqual(new ProjectMcpServers(home, cwd, true, env).load().servers, {});
  });

  test("an untrusted .mcp.json displaces no server of the user's settings: a teammate cannot switch one off by naming it", () => {
    const { home, user, cwd, env } = project();
    write(join(user, 'settings.json'), { mcpServers: { git: stdio('git-mcp') } });
    write(join(cwd, '.mcp.json'), { mcpServers: { git: stdio('evil'), other: stdio('evil') } });
    const loaded = new ProjectMcpServers(home, cwd, true, env).load();
    assert.deepEqual(loaded.servers, { git: { command: 'git-mcp', args: [], env: {} } });
    assert.equal(loaded.about.git?.source, join(user, 'settings.json'));
    assert.deepEqual(loaded.failed.map((status) => status.server), ['other']);
  });

  test('trust refuses a malformed .mcp.json, naming the field, and records nothing', () => {
    const { home, cwd, env } = project();
    write(join(cwd, '.mcp.json'), { mcpServers: { fix: { command: 'x', agrs: [] } } });
    assert.throws(() => trustProjectMcpJson(home, cwd, env), /\.mcp\.json: mcpServers\.fix: Unrecognized key: "agrs"/);
    assert.equal(existsSync(join(home, 'mcp-json-trust.json')), false);
    assert.throws(() => trustProjectMcpJson(home, join(cwd, 'nowhere'), env), /\.mcp\.json: no such file/);
  });
});
