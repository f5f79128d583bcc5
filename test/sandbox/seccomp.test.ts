import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SECCOMP_ARCHES, SECCOMP_DENY, SECCOMP_RET_ALLOW, describeSeccomp, seccompFilter, seccompLaunch } from '../../src/sandbox/seccomp.js';

/** A fake struct seccomp_data: nr, arch, then args[0]'s low half at offset 16. */
function seccompData(nr: number, arch: number, arg0 = 0): Buffer {
  const data = Buffer.alloc(64);
  data.writeUInt32LE(nr >>> 0, 0);
  data.writeUInt32LE(arch >>> 0, 4);
  data.writeUInt32LE(arg0 >>> 0, 16);
  return data;
}

/**
 * Just enough of the kernel's classic BPF to run the program's own bytes: ld [k], jeq #k, jge #k,
 * ret #k. Anything else fails the test, as would a jump out of the program (the kernel refuses both).
 */
function run(program: Buffer, data: Buffer): number {
  assert.equal(program.length % 8, 0, 'whole sock_filter records');
  let accumulator = 0;
  for (let pc = 0; pc * 8 < program.length; pc += 1) {
    const code = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    if (code === 0x20) accumulator = data.readUInt32LE(k);
    else if (code === 0x15) pc += accumulator === k ? jt : jf;
    else if (code === 0x35) pc += accumulator >= k ? jt : jf;
    else if (code === 0x06) return k;
    else assert.fail(`unexpected BPF instruction 0x${code.toString(16)} at ${pc}`);
  }
  return assert.fail('the program ran off its end without a verdict');
}

const AF_UNIX = 1;
const AF_INET = 2;
const AF_INET6 = 10;

for (const [arch, numbers] of Object.entries(SECCOMP_ARCHES)) {
  describe(`seccomp filter for ${arch}`, () => {
    const support = seccompFilter(arch);
    assert.ok(support.ok);
    const program = support.program;
    const verdict = (nr: number, arg0 = 0, audit = numbers.audit) => run(program, seccompData(nr, audit, arg0));

    test('socket(AF_UNIX) is refused with EPERM', () => {
      assert.equal(SECCOMP_DENY, 0x00050001);
      assert.equal(verdict(numbers.socket, AF_UNIX), SECCOMP_DENY);
    });

    test('internet sockets are allowed: a granted network still works', () => {
      assert.equal(verdict(numbers.socket, AF_INET), SECCOMP_RET_ALLOW);
      assert.equal(verdict(numbers.socket, AF_INET6), SECCOMP_RET_ALLOW);
    });

    test('io_uring_setup is refused: a ring could create and connect sockets past socket(2)', () => {
      assert.equal(verdict(numbers.ioUringSetup), SECCOMP_DENY);
    });

    test('every other syscall is allowed, including socketpair with AF_UNIX (pipes between processes)', () => {
      for (const nr of [0, 1, 2, 42, 53, 56, 59, 199, 200, 435]) {
        if (nr === numbers.socket || nr === numbers.ioUringSetup) continue;
        assert.equal(verdict(nr, AF_UNIX), SECCOMP_RET_ALLOW, `syscall ${nr}`);
      }
    });

    test('another ABI (i386 int 0x80 and its socketcall) is refused whole', () => {
      const i386 = 0x40000003;
      for (const nr of [0, 1, 102, numbers.socket]) assert.equal(verdict(nr, AF_INET, i386), SECCOMP_DENY);
    });

    test('x32 syscall numbers are refused on x64 only', () => {
      const x32Socket = 0x40000000 + 41;
      assert.equal(verdict(x32Socket, AF_UNIX), numbers.x32 ? SECCOMP_DENY : SECCOMP_RET_ALLOW);
      assert.equal(verdict(0x40000000, 0), numbers.x32 ? SECCOMP_DENY : SECCOMP_RET_ALLOW);
    });
  });
}

describe('seccomp filter elsewhere', () => {
  test('an architecture without known syscall numbers has no filter, and says so', () => {
    const support = seccompFilter('riscv64');
    assert.equal(support.ok, false);
    assert.match(describeSeccomp(support), /seccomp filter UNAVAILABLE \(no seccomp filter for riscv64 \(only x64 and arm64\)\)/);
    assert.deepEqual(seccompLaunch(support), { args: [] });
  });

  test('where there is one, a launch reads it from fd 3', () => {
    const support = seccompFilter('x64');
    assert.ok(support.ok);
    assert.deepEqual(seccompLaunch(support), { args: ['--seccomp', '3'], seccomp: support.program });
    assert.equal(describeSeccomp(support), 'seccomp filter active (AF_UNIX sockets and io_uring blocked)');
  });
});
