import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { READ_ONLY_GRANT } from '../../src/policy/grant.js';
import * as z from 'zod';
import { toolClass } from '../../src/policy/tool-classes.js';
import type { FileIO } from '../../src/tools/files.js';
import type { ShellIO } from '../../src/tools/shell.js';
import type { TeamIO } from '../../src/tools/team-io.js';
import { defineTool } from '../../src/tools/tool.js';
import { leadTools, runTool, teammateTools, toolSpecs, type AnyTool, type ToolIO } from '../../src/tools/toolsets.js';

const names = <IO>(tools: AnyTool<IO>[]) => tools.map((t) => t.name);
const unused = <T extends object>(what: string) => new Proxy({} as T, { get: () => assert.fail(`${what} was used`) });
const io: ToolIO = { files: unused<FileIO>('files'), shell: unused<ShellIO>('shell'), team: unused<TeamIO>('team'), cwd: '/w', grant: READ_ONLY_GRANT };

const REQUIRED: Record<string, string[]> = {
  bash: ['command'],
  read_file: ['path'],
  write_file: ['path', 'content'],
  edit_file: ['path', 'old_text', 'new_text'],
  send_message: ['to', 'content'],
  broadcast: ['content'],
  list_teammates: [],
  // name, role and prompt are required of a new teammate only, name and role unless it is started as an agent
  // definition (which names both): the schema's refinement says so, by field (team-tools.test.ts, spawn-agent.test.ts).
  spawn_teammate: [],
  shutdown_request: ['teammate'],
  shutdown_status: ['request_id'],
  plan_approval_response: ['request_id', 'approve'],
  shutdown_response: ['request_id', 'approve'],
  plan_approval_request: ['plan'],
  finish_request: ['summary'],
  code_review_request: ['to', 'subject'],
  code_review_response: ['request_id', 'approve', 'comments'],
  task_create: ['subject', 'description'],
  task_list: [],
  task_claim: [],
  'lead task_update': ['task_id'],
  'teammate task_update': ['task_id', 'status'],
};

describe('toolsets', () => {
  test("the lead's tools, with plan_approval_response only when the lead reviews plans", () => {
    const base = ['bash', 'read_file', 'write_file', 'edit_file', 'send_message', 'broadcast', 'list_teammates', 'code_review_request', 'code_review_response', 'spawn_teammate', 'task_create', 'task_update', 'task_list', 'shutdown_request', 'shutdown_status'];
    assert.deepEqual(names(leadTools({ reviewPlans: false })), base);
    assert.deepEqual(names(leadTools({ reviewPlans: true })), [...base, 'plan_approval_response']);
  });

  test("a teammate's tools, with plan_approval_request only in plan mode", () => {
    const base = ['bash', 'read_file', 'write_file', 'edit_file', 'send_message', 'broadcast', 'list_teammates', 'code_review_request', 'code_review_response', 'task_list', 'task_claim', 'task_update', 'shutdown_response'];
    assert.deepEqual(names(teammateTools({ planMode: true })), [...base, 'plan_approval_request', 'finish_request']);
    assert.deepEqual(names(teammateTools({ planMode: false })), [...base, 'finish_request']);
  });

  test('only task_update is a name the lead and a teammate hold as different tools (the same verb, each its own limits)', () => {
    const lead = leadTools({ reviewPlans: true });
    const mate = teammateTools({ planMode: true });
    const mateTools = new Set<unknown>(mate);
    const differ = lead.filter((tool) => names(mate).includes(tool.name) && !mateTools.has(tool)).map((tool) => tool.name);
    assert.deepEqual(differ, ['task_update']);
  });

  test('every JSON schema is an object with the right required fields and no others', () => {
    const specs = [
      ...toolSpecs(leadTools({ reviewPlans: true })).map((s) => [s.name === 'task_update' ? `lead ${s.name}` : s.name, s] as const),
      ...toolSpecs(teammateTools({ planMode: true })).map((s) => [s.name === 'task_update' ? `teammate ${s.name}` : s.name, s] as const),
    ];
    assert.deepEqual(new Set(specs.map(([key]) => key)), new Set(Object.keys(REQUIRED)));
    for (const [key, spec] of specs) {
      assert.equal(spec.input_schema.type, 'object', key);
      assert.deepEqual(spec.input_schema.required ?? [], REQUIRED[key], key);
      assert.equal(spec.input_schema.additionalProperties, false, key);
      assert.equal(spec.input_schema.$schema, undefined, key);
      assert.ok(spec.description.length > 20, key);
    }
  });

  test('semantic booleans ask models for a plain boolean', () => {
    const spawn = toolSpecs(leadTools({ reviewPlans: false })).find((s) => s.name === 'spawn_teammate');
    const properties = spawn?.input_schema.properties as Record<string, { type?: string }>;
    assert.equal(properties.plan_mode?.type, 'boolean');
    assert.equal(properties.respawn?.type, 'boolean');
  });

  test('every tool has a class in the permission policy', () => {
    for (const tool of [...leadTools({ reviewPlans: true }), ...teammateTools({ planMode: true })]) assert.notEqual(toolClass(tool.name), undefined, tool.name);
  });
});

describe('runTool', () => {
  const boom = defineTool({
    name: 'boom',
    description: 'throws',
    input: z.strictObject({ how: z.enum(['error', 'value']) }),
    run(input) {
      if (input.how === 'error') throw new Error('disk on fire');
      return Promise.reject('a string');
    },
  });
  const tools: AnyTool[] = [boom];

  test('an unknown tool is an error listing the tools there are', async () => {
    assert.deepEqual(await runTool(tools, 'nope', {}, io), { content: "unknown tool 'nope'; available tools: boom", isError: true });
  });

  test('invalid input is an error the model can fix, and the tool does not run', async () => {
    assert.deepEqual(await runTool(tools, 'boom', { how: 'x' }, io), { content: 'invalid input for boom: how: Invalid option: expected one of "error"|"value"', isError: true });
    assert.deepEqual(await runTool(tools, 'boom', 'not an object', io), { content: 'invalid input for boom: input: Invalid input: expected object, received string', isError: true });
  });

  test('a thrown error becomes an error result', async () => {
    assert.deepEqual(await runTool(tools, 'boom', { how: 'error' }, io), { content: 'boom failed: disk on fire', isError: true });
    assert.deepEqual(await runTool(tools, 'boom', { how: 'value' }, io), { content: 'boom failed: a string', isError: true });
  });
});
