/**
 * Tools renamed so that a tool is named after the protocol kind it sends, and no two tools
 * share a name. A resumed conversation still holds calls under the old names (they replay as
 * history: nothing runs them again), and a model reading them may call one: it is told the
 * new name rather than a human being asked about an unknown tool. A settings file's rule
 * naming one is refused with the same words.
 */
const FORMER_TOOL_NAMES: Readonly<Record<string, string>> = {
  plan_approval: 'plan_approval_request (a teammate submitting its plan) or plan_approval_response (the lead deciding one)',
  request_shutdown: 'finish_request',
  request_review: 'code_review_request',
  review_response: 'code_review_response',
};

/** Why `name` is no tool any more, and what it is called now; undefined for any other name. */
export function renamedTool(name: string): string | undefined {
  if (!Object.hasOwn(FORMER_TOOL_NAMES, name)) return undefined;
  return `the tool '${name}' is now called ${FORMER_TOOL_NAMES[name]}`;
}
