/**
 * `{{namespace}}` / `{{namespace.key}}` placeholders in script replies. Parsing lives apart
 * from rendering so that a script is checked for bad references when it is loaded, not
 * when a session happens to reach the rule.
 */

const PLACEHOLDER = /\{\{\s*([A-Za-z_]+)(?:\.([A-Za-z0-9_]+))?\s*\}\}/g;

export type TemplateRef = { namespace: string; key: string | undefined; text: string };

export function templateRefs(text: string): TemplateRef[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => ({ namespace: m[1] ?? '', key: m[2], text: m[0] }));
}

export function renderTemplate(text: string, lookup: (ref: TemplateRef) => string): string {
  return text.replace(PLACEHOLDER, (whole: string, namespace: string, key: string | undefined) =>
    lookup({ namespace, key, text: whole }),
  );
}

export type JsonPath = (string | number)[];

/** Visit every string inside a JSON value (object keys excluded), with its path. */
export function eachString(value: unknown, path: JsonPath, visit: (text: string, path: JsonPath) => void): void {
  if (typeof value === 'string') visit(value, path);
  else if (Array.isArray(value)) value.forEach((item, index) => eachString(item, [...path, index], visit));
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) eachString(item, [...path, key], visit);
  }
}

/** A copy of a JSON value with every string rendered; numbers and booleans stay typed. */
export function renderDeep(value: unknown, lookup: (ref: TemplateRef) => string): unknown {
  if (typeof value === 'string') return renderTemplate(value, lookup);
  if (Array.isArray(value)) return value.map((item) => renderDeep(item, lookup));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, renderDeep(item, lookup)]));
  }
  return value;
}
