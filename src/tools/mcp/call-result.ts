import * as z from 'zod';
import { capToolResult } from '../capped-output.js';
import type { ToolResult } from '../tool.js';

/**
 * An MCP tool's result as the model reads it: its text parts as they are; what is not text
 * (an image, audio, a resource) named in a line, since only text reaches the model here. What a
 * server sends is parsed again here, narrowly: the SDK has checked the shape, this reads it.
 */
const Text = z.object({ type: z.literal('text'), text: z.string() });
const Media = z.object({ type: z.enum(['image', 'audio']), mimeType: z.string() });
const Resource = z.object({ type: z.literal('resource'), resource: z.object({ uri: z.string(), text: z.string().optional() }) });
const Link = z.object({ type: z.literal('resource_link'), uri: z.string() });
const Part = z.looseObject({ type: z.string() });
const CallResult = z.looseObject({
  content: z.array(Part).default([]),
  structuredContent: z.unknown().optional(),
  isError: z.boolean().optional(),
  /** Servers of the protocol's first version answer with `toolResult` instead. */
  toolResult: z.unknown().optional(),
});

function partText(part: z.output<typeof Part>): string {
  const text = Text.safeParse(part);
  if (text.success) return text.data.text;
  const resource = Resource.safeParse(part);
  if (resource.success) return resource.data.resource.text ?? `[resource ${resource.data.resource.uri}]`;
  const link = Link.safeParse(part);
  if (link.success) return `[resource link ${link.data.uri}]`;
  const media = Media.safeParse(part);
  if (media.success) return `[${media.data.type} (${media.data.mimeType}): not shown, only text reaches the model]`;
  return `[${part.type}: not shown]`;
}

export function callResultText(tool: string, raw: unknown): ToolResult {
  const parsed = CallResult.safeParse(raw);
  if (!parsed.success) return { content: `${tool}: the server's answer is not a tool result`, isError: true };
  const { content, structuredContent, isError, toolResult } = parsed.data;
  const texts = content.map(partText);
  if (texts.length === 0 && structuredContent !== undefined) texts.push(JSON.stringify(structuredContent));
  if (texts.length === 0 && toolResult !== undefined) texts.push(JSON.stringify(toolResult));
  const text = texts.join('\n').trim();
  return { content: capToolResult(text === '' ? '(no output)' : text), ...(isError === true ? { isError: true } : {}) };
}
