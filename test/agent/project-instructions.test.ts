import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_INSTRUCTION_BYTES, findProjectInstructions, withProjectInstructions } from '../../src/agent/project-instructions.js';
import { tempHome } from '../helpers/temp.js';

const temp = tempHome('teams-instructions-');
test.after(() => temp.cleanup());

test('AGENTS.md and CLAUDE.md from the repository root down to the working directory, outermost first; nothing above the repository', () => {
  const base = join(temp.home, 'a');
  const repo = join(base, 'repo');
  const deep = join(repo, 'pkg', 'deep');
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(deep, { recursive: true });
  writeFileSync(join(base, 'AGENTS.md'), 'above the repository: not read');
  writeFileSync(join(repo, 'AGENTS.md'), 'root rules');
  writeFileSync(join(repo, 'pkg', 'AGENTS.md'), 'package rules');
  writeFileSync(join(repo, 'pkg', 'CLAUDE.md'), 'package notes for Claude Code');
  writeFileSync(join(deep, 'AGENTS.md'), '   ');
  const found = findProjectInstructions(deep);
  assert.deepEqual(found.map((f) => [f.path.slice(repo.length), f.text]), [
    ['/AGENTS.md', 'root rules'],
    ['/pkg/AGENTS.md', 'package rules'],
    ['/pkg/CLAUDE.md', 'package notes for Claude Code'],
  ]);
  const system = withProjectInstructions('You are the lead.', found);
  assert.match(system, /^You are the lead\.\n\n# Project instructions\n[\s\S]*## .*\/repo\/AGENTS\.md\n\nroot rules\n\n## .*\/pkg\/AGENTS\.md\n\npackage rules/);
  assert.equal(withProjectInstructions('You are the lead.', []), 'You are the lead.');
});

test('a planted link, a FIFO or a huge file: a link and a FIFO are not read (nor waited on), a huge file is cut and says so', () => {
  const repo = join(temp.home, 'b');
  mkdirSync(join(repo, '.git'), { recursive: true });
  const secret = join(temp.home, 'secret.txt');
  writeFileSync(secret, 'TOP-SECRET');
  // A teammate can write in the working directory; the lead reads these files outside any sandbox.
  symlinkSync(secret, join(repo, 'AGENTS.md'));
  assert.equal(spawnSync('mkfifo', [join(repo, 'CLAUDE.md')]).status, 0);
  assert.deepEqual(findProjectInstructions(repo), []);

  const big = join(temp.home, 'c');
  mkdirSync(join(big, '.git'), { recursive: true });
  writeFileSync(join(big, 'AGENTS.md'), 'x'.repeat(MAX_INSTRUCTION_BYTES + 10));
  const [file] = findProjectInstructions(big);
  assert.equal(file?.text.length, MAX_INSTRUCTION_BYTES);
  assert.equal(file?.truncated, true);
  assert.match(withProjectInstructions('', [file ?? { path: '', text: '', truncated: false }]), /\(cut at 32 KiB\)$/);
});
