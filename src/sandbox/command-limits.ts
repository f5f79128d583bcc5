import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { killCgroup, makeCgroup, removeCgroup, removeTree, subdirs, sweepStale, writableDir } from './cgroup-dirs.js';
import { MB, type SandboxLimits } from './limits.js';

/**
 * How this machine bounds one command's memory and processes, decided once per process.
 * A cgroup per command when we may make one (cgroup v2 in a delegated subtree, as on a
 * laptop's systemd user slice; cgroup v1 as root): memory and the number of tasks are then
 * counted for the command's whole tree. Else `prlimit`, whose limits are per process
 * (address space) and per user (processes, not enforced for root). Else nothing.
 */
export type LimitMechanism =
  | { kind: 'cgroup2'; base: string }
  | { kind: 'cgroup1'; memory: string; pids: string }
  | { kind: 'prlimit'; program: string; why: string }
  | { kind: 'none'; why: string };

/** A program and its arguments; `release`, once the command has ended, undoes what was made for it. */
export type Limited = { file: string; args: string[]; release?: () => void };

const V2_PARENT = /^teams-(\d+)$/;

/** The cgroup v2 directory we may make children in: our own cgroup's parent, where systemd delegates. */
function delegatedV2(root: string): string | undefined {
  const own = /^0::(.*)$/m.exec(readFileSync('/proc/self/cgroup', 'utf8'))?.[1];
  if (own === undefined) return undefined;
  const parent = own === '/' ? root : join(root, dirname(own));
  if (!writableDir(parent)) return undefined;
  const enabled = () => readFileSync(join(parent, 'cgroup.subtree_control'), 'utf8').split(/\s+/);
  try {
    if (!(enabled().includes('memory') && enabled().includes('pids'))) writeFileSync(join(parent, 'cgroup.subtree_control'), '+memory +pids');
  } catch {
    return undefined;
  }
  return enabled().includes('memory') && enabled().includes('pids') ? parent : undefined;
}

function prlimitProgram(): string | undefined {
  return ['/usr/bin/prlimit', '/bin/prlimit'].find((path) => existsSync(path));
}

export function detectMechanism(root = '/sys/fs/cgroup'): LimitMechanism {
  const reasons: string[] = [];
  try {
    if (existsSync(join(root, 'cgroup.controllers'))) {
      const base = delegatedV2(root);
      if (base !== undefined) return { kind: 'cgroup2', base };
      reasons.push('cgroup v2 without a delegated subtree we may write (with memory and pids)');
    } else if (writableDir(join(root, 'memory')) && writableDir(join(root, 'pids'))) {
      return { kind: 'cgroup1', memory: join(root, 'memory', 'teams'), pids: join(root, 'pids', 'teams') };
    } else {
      reasons.push('cgroup v1 memory and pids hierarchies are not writable here');
    }
  } catch (error) {
    reasons.push(`cannot read the cgroups (${(error as Error).message})`);
  }
  const program = prlimitProgram();
  if (program !== undefined) return { kind: 'prlimit', program, why: reasons.join('; ') };
  return { kind: 'none', why: [...reasons, 'no prlimit (util-linux) either'].join('; ') };
}

let detected: LimitMechanism | undefined;
/** The mechanism in force for this process, found at its first command. */
export function limitMechanism(): LimitMechanism {
  detected ??= detectMechanism();
  return detected;
}

/** The per-process parents this mechanism makes its command cgroups in. */
function parentsOf(mechanism: LimitMechanism): { dir: string; base: string; pidOf: (dir: string) => number | undefined }[] {
  const numbered = (dir: string) => (/^\d+$/.test(basename(dir)) ? Number(basename(dir)) : undefined);
  if (mechanism.kind === 'cgroup1') {
    return [mechanism.memory, mechanism.pids].map((base) => ({ base, dir: join(base, String(process.pid)), pidOf: numbered }));
  }
  if (mechanism.kind === 'cgroup2') {
    const pidOf = (dir: string) => {
      const match = V2_PARENT.exec(basename(dir));
      return match ? Number(match[1]) : undefined;
    };
    return [{ base: mechanism.base, dir: join(mechanism.base, `teams-${process.pid}`), pidOf }];
  }
  return [];
}

/** The cgroups this process's commands have now (none once each has been released): for tests. */
export function ownCommandCgroups(mechanism: LimitMechanism = limitMechanism()): string[] {
  return parentsOf(mechanism).flatMap((parent) => subdirs(parent.dir));
}

// The shell (the lead's, outside any sandbox) puts itself in each cgroup, then becomes the
// command: it is in them before the command can fork, so nothing escapes the count.
const ENTER = 'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 126; shift; n=$((n-1)); done; exec "$@"';

/** Try to remove `dirs` until they are empty, killing what is left in them; what stays is the exit handler's. */
function releaseWhenEmpty(dirs: readonly string[], deadline = Date.now() + 10_000): void {
  const left = dirs.filter((dir) => !removeCgroup(dir));
  if (left.length === 0) return;
  for (const dir of left) killCgroup(dir);
  if (Date.now() < deadline) setTimeout(() => releaseWhenEmpty(left, deadline), 20).unref();
}

const prepared = new Set<string>();

/** The first time: sweep what dead processes left, make this one's parent, and remove it at exit. */
function prepare(mechanism: LimitMechanism): string[] {
  const parents = parentsOf(mechanism);
  for (const parent of parents) {
    if (prepared.has(parent.dir)) continue;
    sweepStale(parent.base, parent.pidOf);
    makeCgroup(parent.dir, mechanism.kind === 'cgroup2' ? [['cgroup.subtree_control', '+memory +pids']] : []);
    prepared.add(parent.dir);
    process.once('exit', () => removeTree(parent.dir));
  }
  return parents.map((parent) => parent.dir);
}

let counter = 0;

/** `file args` run under `limits`, by `mechanism`. */
export function limitCommand(file: string, args: readonly string[], limits: SandboxLimits, mechanism: LimitMechanism = limitMechanism()): Limited {
  const memory = String(limits.memory_mb * MB);
  const processes = String(limits.processes);
  if (mechanism.kind === 'none') return { file, args: [...args] };
  if (mechanism.kind === 'prlimit') return { file: mechanism.program, args: [`--nproc=${processes}`, `--as=${memory}`, '--', file, ...args] };
  const name = `c${++counter}`;
  let dirs: string[] = [];
  // cgroup v1: one directory in the memory hierarchy, one in the pids one (prepare's order).
  const settings: [string, string][][] =
    mechanism.kind === 'cgroup2'
      ? [[['memory.max', memory], ['memory.swap.max', '0'], ['pids.max', processes]]]
      : [[['memory.limit_in_bytes', memory], ['memory.memsw.limit_in_bytes', memory]], [['pids.max', processes]]];
  try {
    dirs = prepare(mechanism).map((parent) => join(parent, name));
    dirs.forEach((dir, i) => makeCgroup(dir, settings[i] ?? []));
  } catch (error) {
    for (const dir of dirs) removeCgroup(dir);
    throw new Error(`cannot make a cgroup to bound the command (${(error as Error).message})`);
  }
  return { file: '/bin/sh', args: ['-c', ENTER, 'sh', String(dirs.length), ...dirs.map((dir) => join(dir, 'cgroup.procs')), file, ...args], release: () => releaseWhenEmpty(dirs) };
}

export function describeMechanism(mechanism: LimitMechanism, limits: SandboxLimits): string {
  const per = `${limits.memory_mb} MB memory, ${limits.processes} processes`;
  switch (mechanism.kind) {
    case 'cgroup2':
      return `cgroup v2 (${mechanism.base}): ${per} per command, its whole tree counted`;
    case 'cgroup1':
      return `cgroup v1 (${dirname(mechanism.memory)}, ${dirname(mechanism.pids)}): ${per} per command, its whole tree counted`;
    case 'prlimit': {
      const root = process.getuid?.() === 0 ? '; the process limit is per user and NOT enforced for root' : '; the process limit counts all of this user\'s processes';
      return `prlimit: ${limits.memory_mb} MB address space per process, ${limits.processes} processes${root} (no cgroup: ${mechanism.why})`;
    }
    case 'none':
      return `NONE: commands are not bounded (${mechanism.why})`;
  }
}
