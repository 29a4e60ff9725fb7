/** Epoch milliseconds as the contract's datetime: ISO 8601, UTC, milliseconds, `Z`. */
export function isoTime(ms: number | string | bigint): string {
  return new Date(Number(ms)).toISOString();
}
