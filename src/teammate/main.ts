import { parseArgs } from 'node:util';
import * as z from 'zod';
import { resolveModelSettings } from '../model/index.js';
import { PermissionMode, AgentName } from '../protocol/index.js';
import { SandboxSettings } from '../sandbox/index.js';
import { teamPaths } from '../team/index.js';
import { openStore } from '../store/open-store.js';
import { RuleTexts, startTeammate, type TeammateOptions } from './start.js';
import { describeIssues, mappedStack } from '../lib/index.js';
import { AgentRole } from '../process/index.js';
import { STORE_ENV, SessionId, describeStoreStatus, type StoreStatus } from '../store/index.js';
import { MCP_SERVERS_ENV } from '../process/index.js';

/**
 * A teammate process's entry, started by the lead's supervisor only. It skips the command
 * line program: a teammate needs none of it, and loading it is most of a start-up.
 */
const Args = z.object({
  home: z.string().min(1),
  team: AgentName,
  name: AgentName,
  permissionMode: PermissionMode,
  planMode: z.boolean(),
  leadKey: z.string().min(1),
  session: SessionId,
  resume: z.boolean(),
  sandbox: z.string().transform((text, ctx) => {
    try {
      return SandboxSettings.parse(JSON.parse(text));
    } catch {
      ctx.addIssue({ code: 'custom', message: 'not sandbox settings' });
      return z.NEVER;
    }
  }),
  // Only the shape here: the rules themselves are parsed by the policy, which loads after "ready".
  // What the lead read of the settings (the teammate never reads them itself): only the text
  // here, parsed with the tools, which load after "ready".
  mcpServers: z.string().default('{}'),
  rules: z.string().transform((text, ctx) => {
    const rules = RuleTexts.safeParse(safeJson(text));
    if (rules.success) return rules.data;
    ctx.addIssue({ code: 'custom', message: `not permission rules: ${describeIssues(rules.error, 'rules')}` });
    return z.NEVER;
  }),
  agent: z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined) return undefined;
      const role = AgentRole.safeParse(safeJson(text));
      if (role.success) return role.data;
      ctx.addIssue({ code: 'custom', message: `not an agent role: ${describeIssues(role.error, 'agent')}` });
      return z.NEVER;
    }),
});

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function main(): Promise<number> {
  if (!process.send) {
    process.stderr.write('teams: teammates are started by the lead (teams spawn), not by hand\n');
    return 2;
  }
  const { values, positionals } = parseArgs({
    options: {
      home: { type: 'string' },
      team: { type: 'string' },
      'permission-mode': { type: 'string' },
      'plan-mode': { type: 'boolean' },
      'lead-key': { type: 'string' },
      sandbox: { type: 'string' },
      rules: { type: 'string' },
      session: { type: 'string' },
      resume: { type: 'boolean' },
      agent: { type: 'string' },
    },
    allowPositionals: true,
  });
  // Taken out at once, as the store's descriptor is: a server's `env` may hold a token.
  const mcpServers = process.env[MCP_SERVERS_ENV];
  delete process.env[MCP_SERVERS_ENV];
  const args = Args.safeParse({
    home: values.home,
    team: values.team,
    name: positionals[0],
    permissionMode: values['permission-mode'],
    planMode: values['plan-mode'] ?? false,
    leadKey: values['lead-key'],
    sandbox: values.sandbox,
    rules: values.rules,
    mcpServers,
    session: values.session,
    resume: values.resume ?? false,
    agent: values.agent,
  });
  if (!args.success) {
    process.stderr.write(`teams teammate: ${describeIssues(args.error, 'arguments')}\n`);
    return 2;
  }
  const paths = teamPaths(args.data.home, args.data.team);
  // The one store of this process: the team's shared state, where the lead keeps it. Its
  // descriptor comes by environment (never argv: it may hold a password), and is taken out at
  // once, so that nothing this process starts (a command, a hook, git) inherits it.
  const descriptor = process.env[STORE_ENV];
  delete process.env[STORE_ENV];
  // Its stderr is its log: a store that goes down and comes back is said there.
  const onStatus = (status: StoreStatus) => process.stderr.write(`teams teammate: ${describeStoreStatus(status)}\n`);
  const store = await openStore(descriptor, { home: paths.home, team: paths.team, onStatus });
  try {
    const options: TeammateOptions = {
      store,
      paths,
      name: args.data.name,
      settings: resolveModelSettings({}, process.env),
      cwd: process.cwd(),
      permissionMode: args.data.permissionMode,
      planMode: args.data.planMode,
      leadKey: args.data.leadKey,
      sandbox: args.data.sandbox,
      rules: args.data.rules,
      mcpServers: args.data.mcpServers,
      journal: { session: args.data.session, resume: args.data.resume },
      ...(args.data.agent === undefined ? {} : { agent: args.data.agent }),
    };
    const started = await startTeammate(options);
    // The rest of a teammate (its model loop, tools, policy) is loaded only now, after "ready".
    const { runTeammate } = await import('./teammate.js');
    return await runTeammate(options, started);
  } finally {
    await store.close();
  }
}

/** Into the teammate's log, with the stack in src/ terms (this runs as a bundle). */
function fatal(error: unknown): never {
  process.stderr.write(`teams teammate: ${mappedStack(error)}\n`);
  process.exit(1);
}
process.on('uncaughtException', fatal);

try {
  // The IPC channel would keep the process alive; everything else is closed by now.
  process.exit(await main());
} catch (error) {
  fatal(error);
}
