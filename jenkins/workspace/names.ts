/**
 * File names that are not valid UTF-8 (a Latin-1 `café.txt` from an old tool, a broken archive)
 * in JSON, losslessly: each byte that is not part of a valid UTF-8 sequence travels as the
 * private-use character U+EF80 + (byte - 0x80), so 0xE9 is U+EFE9 (the MirBSD OPTU-8 mapping;
 * invalid bytes are always >= 0x80). Such a name shows as `caf\uEFE9.txt`, survives JSON,
 * URLSearchParams and the path guard (no `%`, `/`, `\` or NUL is produced), and the file
 * endpoint turns it back into the bytes on disk. Valid UTF-8 names travel unchanged. In a name
 * that needs escaping, a literal U+EF80-U+EFFF character is escaped byte by byte too, so the
 * mapping is exact both ways.
 */

const ESCAPE_BASE = 0xef00;
const FIRST_ESCAPE = 0xef80;
const LAST_ESCAPE = 0xefff;
const ESCAPES = /[\uef80-\uefff]/;

/** Length of the valid UTF-8 sequence starting at `i`, or 0 when the byte there starts none. */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b0 = bytes[i] ?? 0;
  if (b0 < 0x80) return 1;
  const cont = (k: number): boolean => i + k < bytes.length && ((bytes[i + k] ?? 0) & 0xc0) === 0x80;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const b1 = bytes[i + 1] ?? 0;
    // No overlong forms (E0 80..9F) and no surrogates (ED A0..BF).
    if ((b0 === 0xe0 && b1 < 0xa0) || (b0 === 0xed && b1 > 0x9f)) return 0;
    return cont(1) && cont(2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const b1 = bytes[i + 1] ?? 0;
    if ((b0 === 0xf0 && b1 < 0x90) || (b0 === 0xf4 && b1 > 0x8f)) return 0;
    return cont(1) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/** Whether a name's bytes are valid UTF-8 (then it travels as its plain text). */
export function isValidUtf8(bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; ) {
    const n = sequenceLength(bytes, i);
    if (n === 0) return false;
    i += n;
  }
  return true;
}

/** The name as it travels in JSON: its text when valid UTF-8, else escaped as above. */
export function wireName(bytes: Buffer): string {
  if (isValidUtf8(bytes)) return bytes.toString('utf8');
  let out = '';
  for (let i = 0; i < bytes.length; ) {
    const n = sequenceLength(bytes, i);
    const text = n > 0 ? bytes.toString('utf8', i, i + n) : '';
    if (n === 0 || ESCAPES.test(text)) {
      // An invalid byte, or a literal escape character (escaped byte by byte to stay exact).
      for (let k = 0; k < Math.max(n, 1); k++) out += String.fromCharCode(ESCAPE_BASE + (bytes[i + k] ?? 0));
      i += Math.max(n, 1);
    } else {
      out += text;
      i += n;
    }
  }
  return out;
}

/** Whether a name received from a client may stand for bytes that are not valid UTF-8. */
export function hasEscapes(name: string): boolean {
  return ESCAPES.test(name);
}

/** The bytes on disk of a name received in its wire form (the inverse of wireName). */
export function nameBytes(name: string): Buffer {
  const parts: Buffer[] = [];
  let plain = '';
  for (const ch of name) {
    const code = ch.codePointAt(0) ?? 0;
    if (code >= FIRST_ESCAPE && code <= LAST_ESCAPE) {
      if (plain !== '') parts.push(Buffer.from(plain, 'utf8'));
      plain = '';
      parts.push(Buffer.of(code - ESCAPE_BASE));
    } else {
      plain += ch;
    }
  }
  if (plain !== '') parts.push(Buffer.from(plain, 'utf8'));
  return Buffer.concat(parts);
}
