import * as z from 'zod';

/**
 * A boolean tool argument that also accepts the strings "true" and "false": models send
 * both, and refusing `approve: "false"` would only cost a retry (seed 000's
 * semanticBoolean). A preprocess rather than a union keeps the generated JSON schema a
 * plain boolean, so models are still asked for the canonical form.
 */
export const semanticBoolean = z.preprocess(
  (value) => (value === 'true' ? true : value === 'false' ? false : value),
  z.boolean({ error: 'expected true or false' }),
);
