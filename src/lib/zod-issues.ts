import type * as z from 'zod';

/**
 * A zod error as one line a person can act on: "path: message; …", the way API errors name
 * the field. `whole` names what an issue about the value itself (an empty path) is about.
 */
export function describeIssues(error: z.ZodError, whole: string): string {
  return error.issues.map((issue) => `${issue.path.join('.') || whole}: ${issue.message}`).join('; ');
}
