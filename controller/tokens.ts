/**
 * Token-file handling for `CONTROLLER_AUTH=tokens`. The functions live in protocol/ so that the
 * CLI (`cichat token add USER --file F`), which may not import the controller, shares them.
 */
export { addToken, generateToken, hashToken, isValidTokenUserId, parseTokenFile } from '../core/tokens.js';
export type { TokenEntry, TokenFileProblem } from '../core/tokens.js';
