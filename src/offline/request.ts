import * as z from 'zod';

/**
 * The subset of a Messages API request body the offline model reads, validated the way
 * the real API would refuse it: a malformed body is a 400, not a crash or a silent guess.
 * Fields the offline model ignores (temperature, metadata, thinking…) pass through.
 */

const CacheControl = z.strictObject({ type: z.literal('ephemeral'), ttl: z.enum(['5m', '1h']).optional() });
const cacheControl = CacheControl.nullish();

const TextBlock = z
  .looseObject({ type: z.literal('text'), text: z.string(), cache_control: cacheControl })
  .refine((block) => !(block.cache_control && block.text === ''), 'cache_control cannot be set for empty text blocks');
/** The API refuses a cache breakpoint on thinking: those blocks are cached with their turn or not at all. */
const noCacheControl = z.undefined({ error: 'cache_control cannot be set for thinking blocks' }).optional();

const ToolResultContent = z.union([
  z.string(),
  z.array(z.looseObject({ type: z.string(), text: z.string().optional() })),
]);

const RequestBlock = z.discriminatedUnion('type', [
  TextBlock,
  z.looseObject({
    type: z.literal('tool_use'),
    id: z.string().min(1),
    name: z.string().min(1),
    input: z.unknown(),
    cache_control: cacheControl,
  }),
  z.looseObject({
    type: z.literal('tool_result'),
    tool_use_id: z.string().min(1),
    content: ToolResultContent.optional(),
    is_error: z.boolean().optional(),
    cache_control: cacheControl,
  }),
  // Blocks the offline model never reads but a conversation may legitimately carry.
  z.looseObject({ type: z.literal('image'), cache_control: cacheControl }),
  z.looseObject({ type: z.literal('document'), cache_control: cacheControl }),
  z.looseObject({ type: z.literal('thinking'), thinking: z.string(), signature: z.string(), cache_control: noCacheControl }),
  z.looseObject({ type: z.literal('redacted_thinking'), data: z.string(), cache_control: noCacheControl }),
]);
export type RequestBlock = z.infer<typeof RequestBlock>;

const Message = z.strictObject({
  role: z.enum(['user', 'assistant', 'system']),
  content: z.union([z.string(), z.array(RequestBlock)]),
});
export type RequestMessage = z.infer<typeof Message>;

const Tool = z.looseObject({
  name: z.string().min(1),
  description: z.string().optional(),
  input_schema: z.looseObject({ type: z.literal('object') }),
  cache_control: cacheControl,
});

/** The API's limit on cache_control blocks in one request. */
export const MAX_CACHE_BREAKPOINTS = 4;

function breakpointCount(body: { tools?: { cache_control?: unknown }[]; system?: unknown; messages: { content: unknown }[] }): number {
  const marked = (block: unknown) => typeof block === 'object' && block !== null && 'cache_control' in block && Boolean(block.cache_control);
  const blocks = [
    ...(body.tools ?? []),
    ...(Array.isArray(body.system) ? body.system : []),
    ...body.messages.flatMap((message) => (Array.isArray(message.content) ? message.content : [])),
  ];
  return blocks.filter(marked).length;
}

export const MessagesRequest = z
  .looseObject({
    model: z.string().min(1),
    max_tokens: z.number().int().nonnegative(),
    messages: z.array(Message).min(1, 'messages: at least one message is required'),
    system: z.union([z.string(), z.array(TextBlock)]).optional(),
    tools: z.array(Tool).optional(),
    stream: z.boolean().optional(),
  })
  .superRefine((body, ctx) => {
    const seen = new Set<string>();
    body.tools?.forEach((tool, index) => {
      if (seen.has(tool.name)) {
        ctx.addIssue({ code: 'custom', path: ['tools', index, 'name'], message: `tool names must be unique: '${tool.name}'` });
      }
      seen.add(tool.name);
    });
    const breakpoints = breakpointCount(body);
    if (breakpoints > MAX_CACHE_BREAKPOINTS) {
      ctx.addIssue({ code: 'custom', message: `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints}.` });
    }
  });
export type MessagesRequest = z.infer<typeof MessagesRequest>;


/** The system prompt as one string, whichever of its two forms the request used. */
export function systemText(body: MessagesRequest): string {
  const system = body.system;
  if (system === undefined) return '';
  return typeof system === 'string' ? system : system.map((block) => block.text).join('\n');
}
