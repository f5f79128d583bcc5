import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAgentDefinition } from '../../src/agent/agent-definition.js';
import { findAgentDefinition, loadAgentDefinitions, MAX_DEFINITION_BYTES, withAgentDefinitions, withAgentRole } from '../../src/agent/agent-definitions.js';
import { tempHome } from '../helpers/temp.js';

const temp = tempHome('teams-agent-defs-');
test.after(() => temp.cleanup());

const REVIEWER = `---
name: reviewer
description: "Reviews a change: bugs first, style last"
tools: Read, Bash, list_teammates
model: claude-haiku-4-5
permission_mode: plan
isolation: worktree
color: blue
---
You review code. Report bugs with file and line.
`;

const parse = (text: string, name = 'reviewer') => parseAgentDefinition(text, '/p/.teams/agents/reviewer.md', name);

function error(text: string, name?: string): string {
  const parsed = parse(text, name);
  assert.equal(parsed.ok, false, 'expected an error');
  return parsed.ok ? '' : parsed.error;
}

test('a definition in Claude Code subagent format: every field, tools mapped to ours, the body as the role prompt', () => {
  const parsed = parse(REVIEWER);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  assert.deepEqual(parsed.definition, {
    name: 'reviewer',
    description: 'Reviews a change: bugs first, style last',
    tools: ['read_file', 'bash', 'list_teammates'],
    model: 'claude-haiku-4-5',
    permissionMode: 'plan',
    isolation: 'worktree',
    prompt: 'You review code. Report bugs with file and line.',
    file: '/p/.teams/agents/reviewer.md',
  });
});

test('only name and description are required; tools as a YAML list; Claude Code spellings of model and mode', () => {
  const minimal = parse('---\nname: reviewer\ndescription: Reviews\n---\nBody.');
  assert.ok(minimal.ok);
  assert.deepEqual(minimal.definition, { name: 'reviewer', description: 'Reviews', prompt: 'Body.', file: '/p/.teams/agents/reviewer.md' });
  const listed = parse("---\nname: reviewer\ndescription: Reviews\n# a comment\ntools:\n  - Read\n  - 'Edit'\nmodel: inherit\npermissionMode: acceptEdits\n---\nBody.");
  assert.ok(listed.ok, listed.ok ? '' : listed.error);
  assert.deepEqual(listed.definition.tools, ['read_file', 'edit_file']);
  assert.equal(listed.definition.model, undefined);
  assert.equal(listed.definition.permissionMode, 'accept-edits');
  const flow = parse('---\nname: reviewer\ndescription: Reviews\ntools: [bash, "read_file"]\n---\nBody.');
  assert.ok(flow.ok);
  assert.deepEqual(flow.definition.tools, ['bash', 'read_file']);
});

test('a missing or empty required field names the file and the field', () => {
  assert.match(error('---\nname: reviewer\n---\nBody.'), /^\/p\/\.teams\/agents\/reviewer\.md: description: /);
  assert.match(error('---\ndescription: Reviews\n---\nBody.'), /^\/p\/\.teams\/agents\/reviewer\.md: name: /);
  assert.match(error('---\nname: reviewer\ndescription:\n---\nBody.'), /reviewer\.md: description: is empty/);
  assert.match(error('---\nname: reviewer\ndescription: Reviews\n---\n  \n'), /reviewer\.md: the body .* is empty/);
  assert.match(error('name: reviewer\n'), /reviewer\.md: no front matter/);
  assert.match(error('---\nname: reviewer\ndescription: x\n'), /reviewer\.md: the front matter has no closing '---' line/);
});

test('a bad mode, an unknown tool, an unknown key, a wrong name: each an error naming the file and field', () => {
  assert.match(error('---\nname: reviewer\ndescription: R\npermission_mode: yolo\n---\nB'), /reviewer\.md: permission_mode: .*(plan|default)/);
  const tool = error('---\nname: reviewer\ndescription: R\ntools: Read, Grep\n---\nB');
  assert.match(tool, /reviewer\.md: tools: unknown tool 'Grep' \(known: bash, read_file/);
  assert.match(error('---\nname: reviewer\ndescription: R\nisolation: container\n---\nB'), /reviewer\.md: isolation: /);
  assert.match(error('---\nname: reviewer\ndescription: R\nhooks: x\n---\nB'), /reviewer\.md: .*hooks/);
  assert.match(error('---\nname: Reviewer\ndescription: R\n---\nB'), /reviewer\.md: name: agent name 'Reviewer'/);
  assert.match(error('---\nname: tester\ndescription: R\n---\nB'), /reviewer\.md: name: 'tester' is not the file's name \('reviewer\.md'\)/);
  assert.match(error('---\nname: reviewer\nname: reviewer\ndescription: R\n---\nB'), /reviewer\.md: name: given twice/);
  assert.match(error('---\nname: reviewer\ndescription: >\n  folded\n---\nB'), /reviewer\.md: (description: block scalars|front matter line)/);
});

test('the folder: definitions by name, a symlink refused (never followed), a huge file refused, a broken one named', () => {
  const home = join(temp.home, 'home');
  const dir = join(home, 'agents');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'reviewer.md'), REVIEWER);
  writeFileSync(join(dir, 'notes.txt'), 'not a definition');
  const secret = join(temp.home, 'secret.md');
  writeFileSync(secret, '---\nname: planted\ndescription: TOP-SECRET\n---\nTOP-SECRET');
  // The lead reads this folder outside any sandbox: a link must not make it read another file.
  symlinkSync(secret, join(dir, 'planted.md'));
  writeFileSync(join(dir, 'huge.md'), `---\nname: huge\ndescription: big\n---\n${'x'.repeat(MAX_DEFINITION_BYTES)}`);
  writeFileSync(join(dir, 'broken.md'), '---\nname: broken\n---\nB');
  const loaded = loadAgentDefinitions(home);
  assert.deepEqual(loaded.definitions.map((d) => d.name), ['reviewer']);
  assert.equal(loaded.problems.length, 3);
  assert.ok(loaded.problems.some((p) => p === `${join(dir, 'planted.md')}: is a symbolic link, which is not followed`), loaded.problems.join('\n'));
  assert.ok(loaded.problems.some((p) => p === `${join(dir, 'huge.md')}: larger than 32 KiB`));
  assert.ok(loaded.problems.some((p) => p.startsWith(`${join(dir, 'broken.md')}: description:`)));
  assert.ok(!JSON.stringify(loaded).includes('TOP-SECRET'));

  const found = findAgentDefinition(home, 'reviewer');
  assert.ok(found.ok);
  const unknown = findAgentDefinition(home, 'tester');
  assert.deepEqual(unknown, { ok: false, error: "no agent definition 'tester' (available: reviewer)" });
  const planted = findAgentDefinition(home, 'planted');
  assert.equal(planted.ok, false);
  assert.match(planted.ok ? '' : planted.error, /^agent definition 'planted' cannot be used: .*planted\.md: is a symbolic link/);
  assert.deepEqual(loadAgentDefinitions(join(temp.home, 'nowhere')), { definitions: [], problems: [] });
  assert.match(findAgentDefinition(join(temp.home, 'nowhere'), 'x').ok ? '' : 'none in', /none in/);
});

test("the lead's prompt lists the definitions by name and description; a teammate's carries its role prompt", () => {
  const parsed = parse(REVIEWER);
  assert.ok(parsed.ok);
  assert.equal(withAgentDefinitions('Lead.', []), 'Lead.');
  assert.match(withAgentDefinitions('Lead.', [parsed.definition]), /^Lead\.\n\n# Agent definitions\n[\s\S]*agent: "<name>"[\s\S]*\n- reviewer: Reviews a change: bugs first, style last$/);
  assert.equal(withAgentRole('Teammate.', undefined), 'Teammate.');
  assert.match(withAgentRole('Teammate.', { name: 'reviewer', prompt: 'You review code.' }), /^Teammate\.\n\n# Your role: reviewer\n[\s\S]*\n\nYou review code\.$/);
});
