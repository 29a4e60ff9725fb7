/** The options every command understands. */
export interface GlobalOptions {
  url?: string;
  token?: string;
  json?: boolean;
}
