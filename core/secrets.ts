/**
 * Secret masking: what must never be stored, embedded, sent to a model or echoed back.
 *
 * One pass: a single case-insensitive literal search (`TRIGGER`) finds every place where a
 * secret may start (a token prefix, a key word, `://`); only there does the exact rule of that
 * trigger run, anchored (sticky). Every repetition in a rule is bounded or runs over a
 * character class that cannot overlap what follows it, so masking stays linear in the length
 * of the text however hostile the input (a 10 MB line of letters, thousands of `eyJ`s).
 */

/** What a secret is replaced with. */
export const MASK = '****';

/** A value that is already masked or only names where a secret comes from. */
function isPlaceholder(value: string): boolean {
  return (
    /^\*+$/.test(value) ||
    value.startsWith('${') ||
    value.startsWith('$(') ||
    /^\$[A-Za-z_][A-Za-z0-9_]*$/.test(value) ||
    /^(?:null|none|true|false|undefined|nil)$/i.test(value)
  );
}

/**
 * A rule runs where its trigger was found. `pattern` is sticky (`y`) and starts at the trigger;
 * `keep` is the number of the group kept before the mask (0: the whole match is the secret),
 * `value` the group checked against placeholders.
 */
interface Rule {
  pattern: RegExp;
  keep: number;
  value: number;
}

const rule = (pattern: RegExp, keep: number, value: number): Rule => ({ pattern, keep, value });

/**
 * The triggers, one capture group per rule (in RULES order). Spelled with the `i` flag: one
 * scan of the text, whatever the case of `password`, `Token`, `API_KEY`.
 */
const TRIGGER =
  /(:\/\/)|(authorization)|(hooks\.slack\.com\/)|(akia|asia)|(gh[pousr]_)|(github_pat_)|(glpat-)|(xox[baprse]-)|(npm_)|(_auth|_password)|(eyj)|(--(?:password|token|secret|api-key|access-key)[ \t])|(passw(?:or)?d|token|secret|api[_-]?key|access[_-]?key|private[_-]?key|auth[_-]?key)/gi;

/**
 * What must follow a key word for it to be a `key = value` assignment (`password=x`,
 * `"api_key": "x"`, `FOO_TOKEN: x`, `clientSecret = 'x y'`): only identifier suffixes joined by
 * `_ -` or a camel-case capital (`secret_access_key`, `tokenValue`), so `tokenizer`, `secretary`
 * and `passwordless` are not keys; a bare `:` separates only when a blank or quote follows
 * (`token_store.py:17` is a path). Group 1: key, suffix and separator, kept; group 2: quoted
 * value; group 3: bare value.
 */
/** `password` -> `[pP][aA]...`: case-insensitive key words in a pattern that is otherwise case-sensitive. */
const anyCase = (word: string): string =>
  word.replace(/[a-z]/g, (c) => `[${c}${c.toUpperCase()}]`);
const KEY_WORD = ['passw(?:or)?d', 'token', 'secret', 'api[_-]?key', 'access[_-]?key', 'private[_-]?key', 'auth[_-]?key']
  .map(anyCase)
  .join('|');
const ASSIGNMENT = new RegExp(
  `((?:${KEY_WORD})s?(?:[_-][A-Za-z0-9]{1,30}|[A-Z][a-z0-9]{1,30}){0,4}["']?[ \\t]{0,8}(?::=|=>|=|:(?=[ \\t"']))[ \\t]{0,8}["']?)` +
    `(?:(?<=["'])([^"'\\r\\n]{1,512})(?=["'])|([^\\s"',;}\\]]{1,512}))`,
  'y',
);

/** `<password>x</password>`, `<apiToken>x</apiToken>` in job config XML. Group 1 kept, 2 value. */
const XML_VALUE = new RegExp(
  `(?<=<[A-Za-z0-9_.-]{0,30})((?:${KEY_WORD})s?(?:[_-][A-Za-z0-9]{1,30}|[A-Z][a-z0-9]{1,30}){0,4}>)([^<\\r\\n]{1,4096})(?=</)`,
  'y',
);

const RULES: Rule[] = [
  // Passwords in URLs: https://user:pass@host keeps the user and the host (not alpine:3.19@sha256:).
  rule(/(:\/\/[^\s:/@"'<>]{0,256}:)([^\s/@"'<>]{1,256})@(?!sha\d{3}:)/y, 1, 2),
  // Authorization / Proxy-Authorization headers, in curl -H arguments and HTTP dumps.
  rule(
    /(authorization["']?[ \t]{0,8}[:=][ \t]{0,8}["']?(?:(?:bearer|basic|token|digest|negotiate|aws4-hmac-sha256)[ \t]{1,8})?)([^\s"',]{1,4096})/iy,
    1,
    2,
  ),
  rule(/(hooks\.slack\.com\/(?:services|workflows|triggers)\/)([A-Za-z0-9_/-]{8,256})/y, 1, 2),
  rule(/(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])/y, 0, 0),
  rule(/(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{36,251}(?![A-Za-z0-9_])/y, 0, 0),
  rule(/(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{22,255}/y, 0, 0),
  rule(/(?<![A-Za-z0-9_])glpat-[A-Za-z0-9_-]{20,255}/y, 0, 0),
  rule(/(?<![A-Za-z0-9_])xox[baprse]-[A-Za-z0-9-]{10,255}/y, 0, 0),
  rule(/(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/y, 0, 0),
  // .npmrc lines: //registry.npmjs.org/:_authToken=..., _auth=..., _password=...
  rule(/(?<=^|[:\s])(_(?:authToken|auth|password)[ \t]{0,8}=[ \t]{0,8})([^\s"']{1,4096})/y, 1, 2),
  // JWTs: header.payload.signature, base64url; both JSON parts start with `{"` = eyJ.
  rule(/(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,8192}\.eyJ[A-Za-z0-9_-]{4,65536}\.[A-Za-z0-9_-]{0,8192}/y, 0, 0),
  rule(/(--(?:password|token|secret|api-key|access-key)[ \t]{1,8})([^\s"'-][^\s"']{0,511})/y, 1, 2),
  rule(ASSIGNMENT, 1, 0),
];
const ASSIGNMENT_RULE = RULES.length - 1;

/**
 * A key word starts a key unless it is glued to the word before it: lower case and UPPER case
 * must not follow a letter (`mytoken`, `MYTOKEN`), Capitalised may follow a lower-case letter
 * (`dbPassword`, `clientSecret`) but not a capital.
 */
function startsKey(text: string, index: number): boolean {
  if (index === 0) return true;
  const prev = text.charCodeAt(index - 1);
  const prevUpper = prev >= 65 && prev <= 90;
  const prevLower = prev >= 97 && prev <= 122;
  const first = text.charCodeAt(index);
  const second = text.charCodeAt(index + 1);
  if (first >= 65 && first <= 90 && second >= 97 && second <= 122) return !prevUpper;
  return !prevUpper && !prevLower;
}

/** Masks every single-line secret in one scan for triggers. */
function maskTriggered(text: string): string {
  TRIGGER.lastIndex = 0;
  let out: string[] | null = null;
  let copied = 0;
  let hit: RegExpExecArray | null;
  while ((hit = TRIGGER.exec(text)) !== null) {
    let index = 1;
    while (hit[index] === undefined) index++;
    const ruleIndex = index - 1;
    const r = RULES[ruleIndex];
    if (r === undefined || (ruleIndex === ASSIGNMENT_RULE && !startsKey(text, hit.index))) {
      TRIGGER.lastIndex = hit.index + 1;
      continue;
    }
    r.pattern.lastIndex = hit.index;
    let m = r.pattern.exec(text);
    let xml = false;
    if (m === null && ruleIndex === ASSIGNMENT_RULE) {
      XML_VALUE.lastIndex = hit.index;
      m = XML_VALUE.exec(text);
      xml = m !== null;
    }
    if (m === null) {
      TRIGGER.lastIndex = hit.index + 1;
      continue;
    }
    const value = xml ? (m[2] ?? '') : ruleIndex === ASSIGNMENT_RULE ? (m[2] ?? m[3] ?? '') : (m[r.value] ?? '');
    const kept = r.keep === 0 ? '' : (m[r.keep] ?? '');
    // The secret ends where its value ends; what a rule matched after it (`@` of a URL) stays.
    const end = r.keep === 0 ? hit.index + m[0].length : hit.index + kept.length + value.length;
    TRIGGER.lastIndex = end;
    if (value === '' || isPlaceholder(value)) continue;
    out ??= [];
    out.push(text.slice(copied, hit.index), kept, MASK);
    copied = end;
  }
  if (out === null) return text;
  out.push(text.slice(copied));
  return out.join('');
}

const PEM_BEGIN = '-----BEGIN ';

/**
 * Masks the body of PEM private key blocks, keeping the BEGIN and END lines so a reader sees
 * what was there. A block whose END line is missing (a log cut short) is masked to the last
 * line that still looks like key material.
 */
function maskPemBlocks(text: string): string {
  let from = text.indexOf(PEM_BEGIN);
  if (from < 0) return text;
  const out: string[] = [];
  let copied = 0;
  while (from >= 0) {
    const headerEnd = text.indexOf('-----', from + PEM_BEGIN.length);
    const lineEnd = text.indexOf('\n', from);
    const header = headerEnd < 0 ? '' : text.slice(from + PEM_BEGIN.length, headerEnd);
    if (headerEnd < 0 || (lineEnd >= 0 && headerEnd > lineEnd) || !/^[A-Z0-9 ]{0,40}PRIVATE KEY$/.test(header)) {
      from = text.indexOf(PEM_BEGIN, from + PEM_BEGIN.length);
      continue;
    }
    const bodyStart = headerEnd + 5;
    const endMarker = `-----END ${header}-----`;
    const end = text.indexOf(endMarker, bodyStart);
    const nextBegin = text.indexOf(PEM_BEGIN, bodyStart);
    let bodyEnd: number;
    if (end >= 0 && (nextBegin < 0 || end < nextBegin)) {
      bodyEnd = end;
    } else {
      // No END: mask the following lines while they look like base64 or PEM headers.
      bodyEnd = bodyStart;
      let pos = text.indexOf('\n', bodyStart);
      while (pos >= 0) {
        const next = text.indexOf('\n', pos + 1);
        const line = text.slice(pos + 1, next < 0 ? text.length : next).replace(/\r$/, '');
        if (!/^[ \t]{0,16}(?:[A-Za-z0-9+/=]{1,128}|[A-Za-z-]{1,40}: .{0,200})[ \t]{0,16}$/.test(line)) break;
        bodyEnd = next < 0 ? text.length : next;
        if (next < 0) break;
        pos = next;
      }
    }
    out.push(text.slice(copied, bodyStart));
    const body = text.slice(bodyStart, bodyEnd);
    // Each non-blank body line becomes one `****`, so line numbers after the block still hold.
    out.push(body.replace(/[^\r\n]+/g, (line) => (line.trim() === '' ? line : MASK)));
    copied = bodyEnd;
    from = text.indexOf(PEM_BEGIN, bodyEnd);
  }
  out.push(text.slice(copied));
  return out.join('');
}

/**
 * Replaces every secret found in `text` by `****`: tokens of well-known services, JWTs, PEM
 * private keys, passwords in URLs, credential assignments and Authorization headers. What is
 * not a secret (git SHAs, UUIDs, checksums, versions, an already masked `****`) is left alone.
 * Linear time; never changes the number of lines (a PEM body line becomes a `****` line); text
 * without anything that looks like a credential comes back as the same string.
 */
export function maskSecrets(text: string): string {
  return maskTriggered(maskPemBlocks(text));
}

/**
 * Masks a log line by line as it streams past, keeping what a multi-line secret needs across
 * lines (a PEM private key block: its body lines become one `****` line each).
 */
export function createLineMasker(): (line: string) => string {
  let inPemBlock: string | null = null;
  return (line: string): string => {
    if (inPemBlock !== null) {
      if (line.includes(`-----END ${inPemBlock}-----`)) {
        inPemBlock = null;
        return maskSecrets(line);
      }
      if (/^[ \t]{0,16}(?:[A-Za-z0-9+/=]{1,128}|[A-Za-z-]{1,40}: .{0,200})?[ \t]{0,16}$/.test(line)) {
        return line.trim() === '' ? line : MASK;
      }
      inPemBlock = null;
    }
    const begin = line.indexOf(PEM_BEGIN);
    if (begin >= 0) {
      const m = /-----BEGIN ([A-Z0-9 ]{0,40}PRIVATE KEY)-----/.exec(line);
      if (m && !line.includes(`-----END ${m[1]}-----`)) {
        inPemBlock = m[1] ?? null;
        return maskSecrets(line);
      }
    }
    return maskSecrets(line);
  };
}
