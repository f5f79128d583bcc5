/**
 * `${VAR}` and `${VAR:-default}` in an MCP server's configuration, as Claude Code expands them:
 * in `command`, each of `args`, the values of `env` and `headers`, and `url`. Done by the lead,
 * from its own environment, before a server is started or handed to a teammate (a teammate's
 * environment is not the human's). A bare `$VAR` is left as written, as Claude Code leaves it.
 *
 * Works on the server as read (not yet checked): a `url` of `${BASE}/mcp` is a URL only once
 * expanded, so the shape is checked after, on what comes out.
 */
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export type Expanded = { value: unknown; missing: string[] };

function expandText(text: string, env: NodeJS.ProcessEnv, missing: Set<string>): string {
  return text.replace(REFERENCE, (_match, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined) return value;
    if (fallback !== undefined) return fallback;
    missing.add(name);
    return '';
  });
}

/** Each string of a record's values expanded; anything else left for the schema to refuse. */
function expandValues(value: unknown, env: NodeJS.ProcessEnv, missing: Set<string>): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, typeof item === 'string' ? expandText(item, env, missing) : item]));
}

/** The server with its references expanded, and the variables that are unset with no default (then the server cannot run). */
export function expandServer(server: unknown, env: NodeJS.ProcessEnv): Expanded {
  if (typeof server !== 'object' || server === null || Array.isArray(server)) return { value: server, missing: [] };
  const missing = new Set<string>();
  const text = (item: unknown) => (typeof item === 'string' ? expandText(item, env, missing) : item);
  const value = Object.fromEntries(
    Object.entries(server).map(([field, item]): [string, unknown] => {
      switch (field) {
        case 'command':
        case 'url':
          return [field, text(item)];
        case 'args':
          return [field, Array.isArray(item) ? item.map(text) : item];
        case 'env':
        case 'headers':
          return [field, expandValues(item, env, missing)];
        default:
          return [field, item];
      }
    }),
  );
  return { value, missing: [...missing] };
}
