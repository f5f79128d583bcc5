/**
 * The seccomp filter bubblewrap loads before a sandboxed command starts (`--seccomp FD`). The
 * file system mounts hide the team's state, but a Unix socket is reached by path or, in the
 * abstract namespace, by name alone: with the host's network namespace (a command granted the
 * network) or a socket file under a visible directory, a command could talk to the lead's
 * control socket, D-Bus, ssh-agent or a Docker daemon. So the filter refuses to create AF_UNIX
 * sockets at all, and io_uring, which can create and connect sockets without socket(2).
 * socketpair(2) stays allowed: pipes between a command's own processes keep working.
 *
 * A classic BPF program (linux/filter.h, seccomp.h), built here so no libseccomp is needed.
 */

/** One `struct sock_filter`: u16 code, u8 jt, u8 jf, u32 k. */
export type BpfInstruction = { code: number; jt: number; jf: number; k: number };

export const BPF_LD_W_ABS = 0x20;
export const BPF_JMP_JEQ_K = 0x15;
export const BPF_JMP_JGE_K = 0x35;
export const BPF_RET_K = 0x06;
export const SECCOMP_RET_ALLOW = 0x7fff0000;
export const SECCOMP_RET_ERRNO = 0x00050000;
const EPERM = 1;
export const SECCOMP_DENY = SECCOMP_RET_ERRNO | EPERM;
const AF_UNIX = 1;

/** struct seccomp_data: the syscall number, the audit arch, then args[0] (its low half first). */
export const SECCOMP_DATA_NR = 0;
export const SECCOMP_DATA_ARCH = 4;
export const SECCOMP_DATA_ARG0_LOW = 16;

/** The architectures the filter knows the syscall numbers of. */
type ArchNumbers = { audit: number; socket: number; ioUringSetup: number; x32: boolean };
export const SECCOMP_ARCHES: Readonly<Record<string, ArchNumbers>> = {
  // x32 shares the audit arch but numbers its syscalls from 0x40000000 (__X32_SYSCALL_BIT).
  x64: { audit: 0xc000003e, socket: 41, ioUringSetup: 425, x32: true },
  arm64: { audit: 0xc00000b7, socket: 198, ioUringSetup: 425, x32: false },
};
const X32_SYSCALL_BIT = 0x40000000;

export type SeccompSupport = { ok: true; program: Buffer } | { ok: false; reason: string };

/** A jump or return with a symbolic target, resolved to offsets once the program is laid out. */
type Step = { code: number; k: number; yes?: Label; no?: Label } | { label: Label };
type Label = 'allow' | 'deny' | 'check-socket' | 'check-domain';

function instructions(arch: ArchNumbers): BpfInstruction[] {
  const steps: Step[] = [
    { code: BPF_LD_W_ABS, k: SECCOMP_DATA_ARCH },
    // Another ABI (i386's int 0x80 and its socketcall(2)) numbers syscalls differently: refuse all of it.
    { code: BPF_JMP_JEQ_K, k: arch.audit, no: 'deny' },
    { code: BPF_LD_W_ABS, k: SECCOMP_DATA_NR },
    ...(arch.x32 ? [{ code: BPF_JMP_JGE_K, k: X32_SYSCALL_BIT, yes: 'deny' } satisfies Step] : []),
    { code: BPF_JMP_JEQ_K, k: arch.ioUringSetup, yes: 'deny' },
    { code: BPF_JMP_JEQ_K, k: arch.socket, no: 'allow' },
    { code: BPF_LD_W_ABS, k: SECCOMP_DATA_ARG0_LOW },
    { code: BPF_JMP_JEQ_K, k: AF_UNIX, yes: 'deny' },
    { label: 'allow' },
    { code: BPF_RET_K, k: SECCOMP_RET_ALLOW },
    { label: 'deny' },
    { code: BPF_RET_K, k: SECCOMP_DENY },
  ];
  const at = new Map<Label, number>();
  const laid: Exclude<Step, { label: Label }>[] = [];
  for (const step of steps) {
    if ('label' in step) at.set(step.label, laid.length);
    else laid.push(step);
  }
  // A jump's offsets count from the next instruction; a missing branch falls through (0).
  const offset = (from: number, label: Label | undefined): number => (label === undefined ? 0 : (at.get(label) ?? 0) - from - 1);
  return laid.map((step, index) => ({ code: step.code, jt: offset(index, step.yes), jf: offset(index, step.no), k: step.k }));
}

/** The program as bubblewrap reads it: the sock_filter array in the machine's (little-endian) byte order. */
export function encodeProgram(program: readonly BpfInstruction[]): Buffer {
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach((insn, index) => {
    bytes.writeUInt16LE(insn.code, index * 8);
    bytes.writeUInt8(insn.jt, index * 8 + 2);
    bytes.writeUInt8(insn.jf, index * 8 + 3);
    bytes.writeUInt32LE(insn.k >>> 0, index * 8 + 4);
  });
  return bytes;
}

/** The filter for `arch` (a `process.arch`), or why there is none: its syscall numbers are not known here. */
export function seccompFilter(arch: string = process.arch): SeccompSupport {
  const numbers = SECCOMP_ARCHES[arch];
  if (numbers === undefined) return { ok: false, reason: `no seccomp filter for ${arch} (only x64 and arm64)` };
  return { ok: true, program: encodeProgram(instructions(numbers)) };
}

/** What a person reads about the filter (doctor, the sandbox's description). */
export function describeSeccomp(support: SeccompSupport = seccompFilter()): string {
  return support.ok
    ? 'seccomp filter active (AF_UNIX sockets and io_uring blocked)'
    : `seccomp filter UNAVAILABLE (${support.reason}): commands can connect to Unix sockets they can see`;
}

/** The descriptor bubblewrap reads the program from: the first after stdio (spawn-launch.ts puts it there). */
export const SECCOMP_FD = 3;

/**
 * What a bubblewrap launch adds for the filter: `--seccomp 3` and the bytes for fd 3. Without a
 * filter for this architecture, nothing: the sandbox still runs, and describeSandbox says so.
 */
export function seccompLaunch(support: SeccompSupport = seccompFilter()): { args: string[]; seccomp?: Buffer } {
  return support.ok ? { args: ['--seccomp', String(SECCOMP_FD)], seccomp: support.program } : { args: [] };
}
