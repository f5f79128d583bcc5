/**
 * Two records of counts added field by field (token usages, running totals): one sum for every
 * layer that adds them, whatever it calls the record.
 */
export function addCounts<T extends Record<string, number>>(a: T, b: T): T {
  const sum: Record<string, number> = { ...a };
  for (const [field, count] of Object.entries(b)) sum[field] = (sum[field] ?? 0) + count;
  return sum as T;
}
