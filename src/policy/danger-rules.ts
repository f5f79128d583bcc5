import { hasFlag, PRIVILEGE_WRAPPERS, splitArgs, type Invocation } from './shell-argv.js';
import type { Word } from './shell-syntax.js';

/**
 * Commands dangerous by what they are, whatever paths they touch: each rule names the
 * danger in words a human approving it understands. Path-based dangers (writes outside
 * the working directory) are write-targets.ts's.
 */
type Rule = (inv: Invocation) => string | undefined;

const PRIVILEGE_COMMANDS = new Set(['sudo', 'doas', 'su', 'pkexec', 'runuser']);
const SYSTEM_COMMANDS = new Set(['shutdown', 'reboot', 'halt', 'poweroff']);
const DISK_COMMANDS = /^(mkfs(\..+)?|fdisk|sfdisk|parted|wipefs|mkswap)$/;

const privilege: Rule = (inv) => {
  const how = inv.wrappers.find((w) => PRIVILEGE_WRAPPERS.has(w)) ?? (PRIVILEGE_COMMANDS.has(inv.name) ? inv.name : undefined);
  return how === undefined ? undefined : `runs as another user (${how})`;
};

const rm: Rule = (inv) => {
  if (inv.name !== 'rm') return undefined;
  const { options, operands } = splitArgs(inv.args);
  if (hasFlag(options, 'rR', ['--recursive'])) return 'recursive delete';
  if (operands.some((w) => w.glob && /^(\.\/)?\*$/.test(w.text))) return 'deletes every file in the directory';
  return undefined;
};

const find: Rule = (inv) => (inv.name === 'find' && inv.args.some((w) => w.text === '-delete') ? 'recursive delete' : undefined);

const permissions: Rule = (inv) => {
  if (!['chmod', 'chown', 'chgrp'].includes(inv.name)) return undefined;
  return hasFlag(splitArgs(inv.args).options, 'R', ['--recursive']) ? 'recursive permission change' : undefined;
};

const system: Rule = (inv) => {
  if (SYSTEM_COMMANDS.has(inv.name)) return 'shuts down or reboots the machine';
  return DISK_COMMANDS.test(inv.name) ? 'formats or repartitions a disk' : undefined;
};

// git's own options come before the subcommand; these take the next word as their value.
const GIT_VALUED = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env']);

/** The git subcommand and its arguments, past git's own options. */
export function gitSubcommand(args: readonly Word[]): { sub: string; rest: Word[] } | undefined {
  for (let i = 0; i < args.length; i++) {
    const text = (args[i] as Word).text;
    if (!text.startsWith('-')) return { sub: text, rest: args.slice(i + 1) };
    if (GIT_VALUED.has(text)) i++;
  }
  return undefined;
}

const GIT_RULES: Record<string, (options: string[], operands: Word[]) => string | undefined> = {
  push: (options, operands) => {
    if (hasFlag(options, 'f', ['--force', '--force-with-lease', '--force-if-includes']) || operands.some((w) => w.text.startsWith('+'))) return 'force push';
    if (hasFlag(options, '', ['--mirror'])) return 'mirror push (overwrites the remote)';
    if (hasFlag(options, 'd', ['--delete']) || operands.some((w) => w.text.startsWith(':'))) return 'remote branch delete';
    return undefined;
  },
  reset: (options) => (hasFlag(options, '', ['--hard']) ? 'hard reset (discards uncommitted changes)' : undefined),
  clean: (options) => {
    if (hasFlag(options, 'n', ['--dry-run'])) return undefined;
    return hasFlag(options, 'fxX', ['--force']) ? 'deletes untracked files' : undefined;
  },
  branch: (options) => {
    const force = hasFlag(options, 'D') || (hasFlag(options, 'd', ['--delete']) && hasFlag(options, 'f', ['--force']));
    return force ? 'force branch delete' : undefined;
  },
  stash: (_options, operands) => (operands[0]?.text === 'clear' ? 'drops every stash' : undefined),
};

const git: Rule = (inv) => {
  if (inv.name !== 'git') return undefined;
  const call = gitSubcommand(inv.args);
  if (call === undefined || !Object.hasOwn(GIT_RULES, call.sub)) return undefined;
  const { options, operands } = splitArgs(call.rest);
  return GIT_RULES[call.sub]?.(options, operands);
};

const RULES: Rule[] = [privilege, rm, find, permissions, system, git];

export function commandDangers(inv: Invocation): string[] {
  return RULES.map((rule) => rule(inv)).filter((label): label is string => label !== undefined);
}
