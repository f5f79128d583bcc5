/**
 * What one command may do besides reading and running programs: write the working directory,
 * reach the network. The policy decides it (approvals.ts); the sandbox enforces it (bwrap's
 * read-only binds and network namespace), so a misjudged command is at worst a failed one.
 * A command that runs without the human's approval gets neither.
 */
export type CommandGrant = { readonly write: boolean; readonly network: boolean };

export const READ_ONLY_GRANT: CommandGrant = { write: false, network: false };

/** Everything: bypass mode, and commands run without a sandbox. */
export const FULL_GRANT: CommandGrant = { write: true, network: true };

/** The grant as a person reads it in a permission prompt or a log. */
export function describeGrant(grant: CommandGrant): string {
  const write = grant.write ? 'may write the working directory' : 'working directory read-only';
  return `${write}, ${grant.network ? 'network on' : 'no network'}`;
}
