import * as z from 'zod';
import type { ToolSpec } from '../model/index.js';
import { describeIssues } from '../lib/index.js';

/** What a tool hands back to the model: concise text, flagged when it is an error. */
export type ToolResult = { content: string; isError?: boolean };

/**
 * A tool is its zod input schema first: the TypeScript type is inferred from it, the JSON
 * schema the model sees is generated from it, and raw model input is parsed by it. The I/O a
 * tool needs arrives as `io`, so tests can swap it.
 */
export type Tool<Schema extends z.ZodType, IO> = {
  name: string;
  description: string;
  input: Schema;
  /** The JSON schema the model sees when it is not generated from `input`: an MCP server's own, which the server checks. */
  schema?: Record<string, unknown>;
  run(input: z.output<Schema>, io: IO, signal?: AbortSignal): Promise<ToolResult>;
  /**
   * Never set; only the compiler reads it. A method's parameters are bivariant, so by `run`
   * alone a tool that needs the lead's team would fit a teammate's toolset. A function-typed
   * property is checked strictly: a tool fits only a toolset whose IO offers what it needs.
   */
  readonly needs?: (io: IO) => void;
};

export function defineTool<Schema extends z.ZodType, IO>(tool: Tool<Schema, IO>): Tool<Schema, IO> {
  return tool;
}

/** The tool as the model is offered it. */
export function toolSpec(tool: Tool<z.ZodType, never>): ToolSpec {
  const schema = { ...(tool.schema ?? z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' })) } as Record<string, unknown>;
  delete schema.$schema;
  return { name: tool.name, description: tool.description, input_schema: { ...schema, type: 'object' } };
}

/** Parse a model's raw input; an invalid input is a tool error the model can correct, not a crash. */
export function parseToolInput<Schema extends z.ZodType>(tool: Tool<Schema, never>, raw: unknown): { ok: true; input: z.output<Schema> } | { ok: false; error: string } {
  const parsed = tool.input.safeParse(raw);
  if (parsed.success) return { ok: true, input: parsed.data };
  return { ok: false, error: `invalid input for ${tool.name}: ${describeIssues(parsed.error, 'input')}` };
}
