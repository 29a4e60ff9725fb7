/**
 * Secret masking: what must never be stored, embedded, sent to a model or echoed back.
 *
 * Every pattern starts with a literal (a token prefix, a key word, `://`) so the regex engine
 * can skip ahead quickly, and every repetition is bounded or runs over a character class that
 * cannot overlap what follows it, so masking stays linear in the length of the text however
 * hostile the input (a 10 MB line of letters, thousands of `eyJ`s). Each rule first checks
 * with `indexOf` that its literal occurs at all; a log without any trigger costs a few
 * memchr-like scans.
 */

/** What a secret is replaced with. */
export const MASK = '****';

interface Rule {
  /** Literals of which at least one must occur in the text for the rule to possibly match. */
  triggers: string[];
  pattern: RegExp;
  replace: (match: string, ...groups: string[]) => string;
}

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
 * Key words of `key = value` assignments, in the spellings code and config use: lower case
 * (must not follow a letter: `mytoken` is not a key), Capitalised (may follow a lower-case
 * letter: `dbPassword`, `clientSecret`) and UPPER case (env style `DB_PASSWORD`).
 */
const KEY_WORDS = [
  'password', 'passwd', 'token', 'secret', 'apikey', 'api_key', 'api-key', 'apiKey',
  'access_key', 'access-key', 'accessKey', 'private_key', 'privateKey', 'auth_key', 'authKey',
];
function keyAlternation(): string {
  const lower = KEY_WORDS.map((w) => `(?<![A-Za-z])${w}`);
  const capital = KEY_WORDS.map((w) => `(?<![A-Z])${w[0]!.toUpperCase()}${w.slice(1)}`);
  const upper = [...new Set(KEY_WORDS.map((w) => w.toUpperCase()))].map((w) => `(?<![A-Za-z])${w}`);
  return [...lower, ...capital, ...upper].join('|');
}

/**
 * `password=x`, `"api_key": "x"`, `FOO_TOKEN: x`, `clientSecret = 'x y'`. After the key word
 * only identifier suffixes joined by `_ -` or a camel-case capital may follow
 * (`secret_access_key`, `tokenValue`), so `tokenizer`, `secretary` and `passwordless` are not keys,
 * and a bare `:` separates only when a blank or quote follows (`token_store.py:17` is a path).
 * Group 1: key and separator, kept; group 2: quoted value; group 3: bare value.
 */
const ASSIGNMENT = new RegExp(
  `((?:${keyAlternation()})s?(?:[_-][A-Za-z0-9]{1,30}|[A-Z][a-z0-9]{1,30}){0,4}["']?[ \\t]{0,8}(?::=|=>|=|:(?=[ \\t"']))[ \\t]{0,8}["']?)` +
    `(?:(?<=["'])([^"'\\r\\n]{1,512})(?=["'])|([^\\s"',;}\\]]{1,512}))`,
  'g',
);

const RULES: Rule[] = [
  {
    // Authorization / Proxy-Authorization headers, in curl -H arguments and HTTP dumps.
    triggers: ['uthorization', 'UTHORIZATION'],
    pattern:
      /([Aa]uthorization|AUTHORIZATION)(["']?[ \t]{0,8}[:=][ \t]{0,8}["']?(?:(?:Bearer|Basic|Token|Digest|token|bearer|basic|Bearer|AWS4-HMAC-SHA256|Negotiate)[ \t]{1,8})?)([^\s"',]{1,4096})/g,
    replace: (match, name, sep, value) => (isPlaceholder(value!) ? match : `${name}${sep}${MASK}`),
  },
  {
    // Passwords in URLs: https://user:pass@host keeps the user and the host.
    triggers: ['://'],
    pattern: /(:\/\/[^\s:/@"'<>]{0,256}:)([^\s/@"'<>]{1,256})@(?!sha\d{3}:)/g,
    replace: (match, head, pass) => (isPlaceholder(pass!) ? match : `${head}${MASK}@`),
  },
  {
    triggers: ['hooks.slack.com/'],
    pattern: /(hooks\.slack\.com\/(?:services|workflows|triggers)\/)[A-Za-z0-9_/-]{8,256}/g,
    replace: (_match, head) => `${head}${MASK}`,
  },
  {
    triggers: ['AKIA', 'ASIA'],
    pattern: /(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])/g,
    replace: () => MASK,
  },
  {
    triggers: ['gh'],
    pattern: /(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{36,251}(?![A-Za-z0-9_])/g,
    replace: () => MASK,
  },
  {
    triggers: ['github_pat_'],
    pattern: /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{22,255}/g,
    replace: () => MASK,
  },
  {
    triggers: ['glpat-'],
    pattern: /(?<![A-Za-z0-9_])glpat-[A-Za-z0-9_-]{20,255}/g,
    replace: () => MASK,
  },
  {
    triggers: ['xox'],
    pattern: /(?<![A-Za-z0-9_])xox[baprse]-[A-Za-z0-9-]{10,255}/g,
    replace: () => MASK,
  },
  {
    triggers: ['npm_'],
    pattern: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g,
    replace: () => MASK,
  },
  {
    // .npmrc lines: //registry.npmjs.org/:_authToken=..., _auth=..., _password=...
    triggers: ['_auth', '_password'],
    pattern: /((?::|^|\s)_(?:authToken|auth|password)[ \t]{0,8}=[ \t]{0,8})([^\s"']{1,4096})/gm,
    replace: (match, head, value) => (isPlaceholder(value!) ? match : `${head}${MASK}`),
  },
  {
    // JWTs: header.payload.signature, base64url, both JSON parts start with `{"` = eyJ.
    triggers: ['eyJ'],
    pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,8192}\.eyJ[A-Za-z0-9_-]{4,65536}\.[A-Za-z0-9_-]{0,8192}/g,
    replace: () => MASK,
  },
  {
    triggers: ['--password', '--token', '--secret', '--api-key', '--access-key'],
    pattern: /(--(?:password|token|secret|api-key|access-key)[ \t]{1,8})([^\s"'-][^\s"']{0,511})/g,
    replace: (match, head, value) => (isPlaceholder(value!) ? match : `${head}${MASK}`),
  },
  {
    triggers: [
      'assw', 'ASSW', 'oken', 'OKEN', 'ecret', 'ECRET', 'pik', 'piK', 'PIK', 'pi_', 'pi-', 'PI_', 'PI-',
      'ccess', 'CCESS', 'rivate', 'RIVATE', 'uth_', 'uth-', 'uthK', 'UTH_', 'UTH-',
    ],
    pattern: ASSIGNMENT,
    replace: (match, head, quoted, bare) => {
      const value = quoted ?? bare ?? '';
      return value === '' || isPlaceholder(value) ? match : `${head}${MASK}`;
    },
  },
];

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
    if (/[A-Za-z0-9+/]/.test(body)) {
      const lead = body.startsWith('\r\n') ? '\r\n' : body.startsWith('\n') ? '\n' : '';
      const trail = body.endsWith('\r\n') ? '\r\n' : body.endsWith('\n') ? '\n' : '';
      out.push(`${lead}${MASK}${trail}`);
    } else {
      out.push(body);
    }
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
 * Linear time; text without anything that looks like a credential comes back as the same string.
 */
export function maskSecrets(text: string): string {
  let out = maskPemBlocks(text);
  for (const rule of RULES) {
    if (!rule.triggers.some((t) => out.includes(t))) continue;
    rule.pattern.lastIndex = 0;
    out = out.replace(rule.pattern, rule.replace as (substring: string, ...args: unknown[]) => string);
  }
  return out;
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
