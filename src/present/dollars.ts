/** "$0.0123" under a dollar, "$12.34" from one up; "n/a" for a cost not known (a model without a listed price). */
export function dollars(usd: number | undefined): string {
  return usd === undefined ? 'n/a' : `$${usd.toFixed(usd < 1 ? 4 : 2)}`;
}
