/** The errno code of a failed system call (ENOENT, EEXIST, …), if `error` carries one. */
export function errnoCode(error: unknown): string | undefined {
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') return error.code;
  return undefined;
}

/** The file or directory is not there (any more): usually another process got there first. */
export function isMissing(error: unknown): boolean {
  return errnoCode(error) === 'ENOENT';
}
