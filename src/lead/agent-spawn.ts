import { Refused } from '../lib/index.js';
import type { PermissionMode } from '../protocol/index.js';
import type { AgentDefinition } from '../agent/index.js';
import type { AgentRole } from '../process/index.js';
import { modeGrantProblem } from '../policy/index.js';
import type { SpawnSpec } from '../tools/index.js';

/** How the lead finds a definition by name (agent-definitions.ts over its home). */
export type FindAgent = (name: string) => { ok: true; definition: AgentDefinition } | { ok: false; error: string };

/** A spawn with its role settled: what the definition gave, under what was asked explicitly. */
export type SettledSpawn = Omit<SpawnSpec, 'role' | 'agent'> & { role: string; agent?: AgentRole };

/**
 * A spawn as an agent definition fills it in. What the caller gave explicitly wins (its model,
 * mode, worktree, role name); the definition supplies the rest, and always its role's prompt and
 * tools. Its mode is bounded like a mode the lead's model asks for, whoever spawns: a file in the
 * project is no person's grant, so it is never more permissive than the lead's own mode.
 */
export function settleSpawn(spec: SpawnSpec, leadMode: PermissionMode, find: FindAgent): SettledSpawn {
  const { agent, role, ...rest } = spec;
  if (agent === undefined) {
    if (role === undefined) throw new Refused(`a role is needed to start ${spec.name} (or an agent definition: agent)`);
    return { ...rest, role };
  }
  const found = find(agent);
  if (!found.ok) throw new Refused(found.error);
  const { definition } = found;
  const settled: SettledSpawn = {
    ...rest,
    role: role ?? definition.name,
    agent: { name: definition.name, prompt: definition.prompt, ...(definition.tools === undefined ? {} : { tools: definition.tools }) },
  };
  if (settled.model === undefined && definition.model !== undefined) settled.model = definition.model;
  if (settled.isolation === undefined && definition.isolation === 'worktree') settled.isolation = 'worktree';
  if (settled.permissionMode === undefined && definition.permissionMode !== undefined) {
    const problem = modeGrantProblem(definition.permissionMode, leadMode, 'model');
    if (problem) throw new Refused(`${definition.file}: permission_mode: ${problem}`);
    settled.permissionMode = definition.permissionMode;
    settled.asker = 'model';
  }
  return settled;
}

/** A respawned teammate's role, read again from the definition it was spawned as; Refused when that is gone or broken. */
export function respawnRole(name: string, agent: string | undefined, find: FindAgent): AgentRole | undefined {
  if (agent === undefined) return undefined;
  const found = find(agent);
  // Without its role it would come back with every tool and no role prompt: not the teammate it was.
  if (!found.ok) throw new Refused(`cannot respawn ${name} as agent '${agent}': ${found.error}`);
  const { definition } = found;
  return { name: definition.name, prompt: definition.prompt, ...(definition.tools === undefined ? {} : { tools: definition.tools }) };
}
