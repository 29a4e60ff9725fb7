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

// ----------------------------------------------------------------------------- names

/**
 * Words that make a name secret (`DB_PASS`, `dbPassword`, `NPM_TOKEN`, `SSH_KEY`, `X_PSW` of
 * Jenkins' credentials binding), and glued spellings that are secrets as one word.
 */
const SECRET_WORDS = new Set([
  'pass', 'passwd', 'password', 'passwords', 'passphrase', 'pwd', 'psw', 'pin',
  'cred', 'creds', 'credential', 'credentials',
  'token', 'tokens', 'key', 'keys', 'secret', 'secrets', 'auth', 'oauth', 'authorization',
  'apikey', 'apitoken', 'apisecret', 'authtoken', 'accesstoken', 'accesskey', 'secretkey', 'privatekey',
  'clientsecret', 'pgpassword', 'sshpass', 'htpasswd', 'dbpass', 'dbpassword',
]);
/** A last word that says the value only names, locates or describes a secret (`CREDENTIALS_ID`, `SSH_KEY_PATH`, `TOKEN_TTL`). */
const NOT_SECRET_LAST = new Set([
  'id', 'ids', 'arn', 'name', 'names', 'file', 'files', 'path', 'paths', 'dir', 'directory', 'url', 'uri', 'host',
  'type', 'types', 'kind', 'strategy', 'variable', 'var', 'length', 'len', 'count', 'size', 'min', 'max',
  'ttl', 'expiry', 'expires', 'expiration', 'timeout', 'method', 'mode', 'algorithm', 'alg', 'format', 'version',
  'hint', 'policy', 'provider', 'location', 'enabled', 'disabled', 'required', 'prefix', 'suffix', 'field',
  'label', 'description', 'user', 'usr', 'username', 'login', 'email', 'helper', 'scope', 'scopes', 'endpoint',
  // ssh's options (`-o StrictHostKeyChecking=no`, `PasswordAuthentication=no`, `HostKeyAlgorithms=...`)
  'checking', 'authentication', 'algorithms',
]);
/** Keys that are not keys to anything (`CACHE_KEY`, `PUBLIC_KEY`, `SORT_KEY`). */
const NOT_SECRET_BEFORE_KEY = new Set([
  'public', 'pub', 'cache', 'sort', 'primary', 'foreign', 'partition', 'routing', 'idempotency', 'dedup', 'dedupe',
  'hash', 'lookup', 'group', 'shard', 'row', 'object', 'map', 'index', 'unique', 'composite', 'cluster',
]);

/** `dbPassword2`, `API_KEY`, `apiKey`, `x-auth-token` -> lower-case words without trailing digits. */
function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .map((w) => w.replace(/[0-9]+$/, ''))
    .filter((w) => w !== '');
}

/**
 * Whether a variable, parameter, key or element name says its value is a secret: one of its
 * words (split at `_ - . space` and camel-case humps, trailing digits dropped) is a secret word
 * (pass, passwd, password, passphrase, pwd, psw, pin, cred(s), credential(s), token(s), key(s),
 * secret(s), auth, oauth, authorization, or a glued `apikey`, `pgpassword`...). Whole words only:
 * `KEYBOARD_LAYOUT`, `PASSENGER`, `AUTHOR`, `TOKENIZERS_PARALLELISM`, `MONKEY` are not secret.
 * Not secret either: a name whose last word only names or describes the secret (`CREDENTIALS_ID`,
 * `SSH_KEY_PATH`, `PASSWORD_FILE`, `TOKEN_TTL`, `DOCKER_USR`), a key word after a word that makes
 * it a non-secret key (`CACHE_KEY`, `PUBLIC_KEY`, `SORT_KEY`), and `PWD` alone (the shell's
 * working directory).
 */
export function isSecretName(name: string): boolean {
  const words = nameWords(name);
  if (words.length === 0) return false;
  if (words.length === 1 && words[0] === 'pwd') return false;
  if (words.length > 1 && NOT_SECRET_LAST.has(words[words.length - 1]!)) return false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (!SECRET_WORDS.has(word)) continue;
    if ((word === 'key' || word === 'keys') && i > 0 && NOT_SECRET_BEFORE_KEY.has(words[i - 1]!)) continue;
    return true;
  }
  return false;
}

/**
 * A value as it may be stored under `name` (an environment variable, a build parameter): masked
 * whole when the name says secret (strings and numbers; empty values, placeholders such as
 * `${X}`, booleans and null stay), else a string with its secrets masked.
 */
export function maskValueByName(name: string, value: unknown): unknown {
  if (isSecretName(name)) {
    if (typeof value === 'number') return MASK;
    if (typeof value === 'string') return value === '' || isPlaceholder(value.trim()) ? value : MASK;
    return value;
  }
  return typeof value === 'string' ? maskSecrets(value) : value;
}

/**
 * A map name -> value (`ciEnvironment`, build parameters) or a list of `{name, value}` with
 * every value masked by its name (maskValueByName); other shapes come back as they are.
 */
export function maskNamedValues<T>(values: T): T {
  if (Array.isArray(values)) {
    return values.map((entry: unknown) => {
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return entry;
      const e = entry as Record<string, unknown>;
      return typeof e.name === 'string' && 'value' in e ? { ...e, value: maskValueByName(e.name, e.value) } : entry;
    }) as T;
  }
  if (typeof values !== 'object' || values === null) return values;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values as Record<string, unknown>)) out[name] = maskValueByName(name, value);
  return out as T;
}

// ------------------------------------------------------------------------------ text

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
 * scan of the text, whatever the case of `password`, `Token`, `API_KEY`. Most triggers are a
 * literal prefix; the command-line ones (`-u`, `-p`) check for the blank before them in their rule.
 */
const TRIGGER = new RegExp(
  [
    ':\\/\\/',
    'authorization',
    'hooks\\.slack\\.com\\/',
    'akia|asia',
    'gh[pousr]_',
    'github_pat_',
    'glpat-',
    'xox[baprse]-|xapp-',
    'npm_',
    'aiza',
    '[sr]k_(?:live|test)_|whsec_',
    'sk-(?:proj|svcacct|admin|ant)-|sk-[a-z0-9]{20}t3blbkfj',
    'hv[sbr]\\.',
    '_auth|_password',
    'eyj',
    '--(?:password|token|secret|api-key|access-key)[ \\t]',
    '-u|--user',
    '-p[ \\t]',
    '-p["\']?[^\\s"\'-]',
    'passw(?:or)?d|token|secret|api[_-]?key|access[_-]?key|private[_-]?key|auth[_-]?key',
    'pass(?:phrase)?|pwd|psw|creds?|credentials?|auth|key',
  ]
    .map((t) => `(${t})`)
    .join('|'),
  'gi',
);

/** `password` -> `[pP][aA]...`: case-insensitive key words in a pattern that is otherwise case-sensitive. */
const anyCase = (word: string): string =>
  word.replace(/[a-z]/g, (c) => `[${c}${c.toUpperCase()}]`);
const KEY_WORD = ['passw(?:or)?d', 'token', 'secret', 'api[_-]?key', 'access[_-]?key', 'private[_-]?key', 'auth[_-]?key']
  .map(anyCase)
  .join('|');
/** Key words that make an assignment only with `=` (`DB_PASS=x`; `PASS: 3` is a test tally). */
const SHORT_KEY_WORD = ['pass(?:phrase)?', 'pwd', 'psw', 'creds?', 'credentials?', 'auth', 'key'].map(anyCase).join('|');
/** Suffixes of a key: identifier parts joined by `_ -` or a camel-case capital (`secret_access_key`, `tokenValue`). */
const KEY_SUFFIX = '(?:[_-][A-Za-z0-9]{1,30}|[A-Z][a-z0-9]{1,30}){0,4}';
/** Group 2: quoted value; group 3: bare value (ends at `&`: the next query parameter, or a shell operator). */
const VALUE = `(?:(?<=["'])([^"'\\r\\n]{1,512})(?=["'])|([^\\s"',;}&\\]]{1,512}))`;

/**
 * What must follow a key word for it to be a `key = value` assignment (`password=x`,
 * `"api_key": "x"`, `FOO_TOKEN: x`, `clientSecret = 'x y'`): so `tokenizer`, `secretary` and
 * `passwordless` are not keys; a bare `:` separates only when a blank or quote follows
 * (`token_store.py:17` is a path). Group 1: key, suffix and separator, kept. Whether the whole
 * name (with what is glued before the key word: `PGPASSWORD`, `dbPassword`) is secret is then
 * decided by isSecretName, the rule for names everywhere.
 */
const ASSIGNMENT = new RegExp(
  `((?:${KEY_WORD})s?${KEY_SUFFIX}["']?[ \\t]{0,8}(?::=|=>|=(?!=)|:(?=[ \\t"']))[ \\t]{0,8}["']?)${VALUE}`,
  'y',
);
const SHORT_ASSIGNMENT = new RegExp(`((?:${SHORT_KEY_WORD})s?${KEY_SUFFIX}["']?[ \\t]{0,8}:?=(?![=>])[ \\t]{0,8}["']?)${VALUE}`, 'y');

/** `<password>x</password>`, `<apiToken>x</apiToken>` in job config XML. Group 1 kept, 2 value. */
const XML_VALUE = new RegExp(
  `(?<=<[A-Za-z0-9_.-]{0,30})((?:${KEY_WORD})s?${KEY_SUFFIX}>)([^<\\r\\n]{1,4096})(?=</)`,
  'y',
);

/** Commands whose `-u user:pass` (curl) or `-p pass` (registry logins, sshpass) carries a password. */
const CURL_USER = /(?<=\bcurl\b[^\r\n]{0,1024}[ \t])((?:-u|--user)(?:[ \t]{1,8}|=)?["']?[^\s:"'@]{1,256}:)([^\s"']{1,512})/y;
const LOGIN_P =
  /(?<=(?:\b(?:docker|podman|buildah|nerdctl|oras|helm[ \t]+registry)[ \t]+login|\bsshpass)\b[^\r\n]{0,1024}[ \t])(-p[ \t]{1,8}["']?)([^\s"'-][^\s"']{0,511})/y;
/** `mysql -pPASS` (the password glued; `-p` alone or `-p dbname` prompts for it). */
const MYSQL_P =
  /(?<=\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mysqlshow|mysqlpump|mysqlsh|mariadb(?:-dump|-admin|-import|-check|-show)?)\b[^\r\n]{0,1024}[ \t])(-p["']?)([^\s"'-][^\s"']{0,511})/y;

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
  // Slack bot/user/app tokens (xoxb-, xoxp-, xapp-1-...).
  rule(/(?<![A-Za-z0-9_])(?:xox[baprse]-|xapp-\d-)[A-Za-z0-9-]{10,255}/y, 0, 0),
  rule(/(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/y, 0, 0),
  // Google API keys: AIza and 35 characters.
  rule(/(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/y, 0, 0),
  // Stripe secret and restricted keys, webhook signing secrets (pk_ publishable keys are public).
  rule(/(?<![A-Za-z0-9_])(?:[sr]k_(?:live|test)_[A-Za-z0-9]{10,247}|whsec_[A-Za-z0-9]{20,247})(?![A-Za-z0-9])/y, 0, 0),
  // OpenAI project/service/admin keys, Anthropic keys, OpenAI's older sk-...T3BlbkFJ... keys.
  rule(/(?<![A-Za-z0-9_-])(?:sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,512}|sk-ant-[a-z0-9]{2,12}-[A-Za-z0-9_-]{20,512}|sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20,64})/y, 0, 0),
  // HashiCorp Vault service, batch and recovery tokens.
  rule(/(?<![A-Za-z0-9_.-])hv[sbr]\.[A-Za-z0-9_-]{24,512}/y, 0, 0),
  // .npmrc lines: //registry.npmjs.org/:_authToken=..., _auth=..., _password=...
  rule(/(?<=^|[:\s])(_(?:authToken|auth|password)[ \t]{0,8}=[ \t]{0,8})([^\s"']{1,4096})/y, 1, 2),
  // JWTs: header.payload.signature, base64url; both JSON parts start with `{"` = eyJ.
  rule(/(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,8192}\.eyJ[A-Za-z0-9_-]{4,65536}\.[A-Za-z0-9_-]{0,8192}/y, 0, 0),
  rule(/(--(?:password|token|secret|api-key|access-key)[ \t]{1,8})([^\s"'-][^\s"']{0,511})/y, 1, 2),
  rule(CURL_USER, 1, 2),
  rule(LOGIN_P, 1, 2),
  rule(MYSQL_P, 1, 2),
  rule(ASSIGNMENT, 1, 0),
  rule(SHORT_ASSIGNMENT, 1, 0),
];
const ASSIGNMENT_RULE = RULES.length - 2;
const SHORT_ASSIGNMENT_RULE = RULES.length - 1;
/** The rules that need a command before them on the line (CURL_USER, LOGIN_P, MYSQL_P). */
const COMMAND_RULES = new Set([RULES.length - 5, RULES.length - 4, RULES.length - 3]);
/**
 * The cheap prefilter of the command rules: ` -p` and ` -u` are everywhere in build logs
 * (`mkdir -p`, `-Pprofile`, `sort -u`); their rules (a look-behind over the line) only run when
 * the text names one of the commands at all.
 */
const COMMAND_WORD = /curl|login|sshpass|mysql|mariadb/;

const NAME_CHAR = /[A-Za-z0-9_.-]/;

/**
 * The name an assignment or element sets: what is glued before the key word (`PG` of
 * `PGPASSWORD`, `db` of `dbPassword`, `MYSQL_ROOT_` of `MYSQL_ROOT_PASSWORD`) and the key with its
 * suffixes, without quotes and separator.
 */
function assignedName(text: string, at: number, key: string): string {
  let start = at;
  while (start > 0 && at - start < 64 && NAME_CHAR.test(text[start - 1]!)) start--;
  return text.slice(start, at) + key.replace(/["']?[ \t]*(?::=|=>|=|:|>)[\s\S]*$/, '');
}

/** Masks every single-line secret in one scan for triggers. */
function maskTriggered(text: string): string {
  TRIGGER.lastIndex = 0;
  let out: string[] | null = null;
  let copied = 0;
  let hit: RegExpExecArray | null;
  let commands: boolean | undefined;
  while ((hit = TRIGGER.exec(text)) !== null) {
    let index = 1;
    while (hit[index] === undefined) index++;
    const ruleIndex = index - 1;
    const r = RULES[ruleIndex];
    if (r === undefined || (COMMAND_RULES.has(ruleIndex) && !(commands ??= COMMAND_WORD.test(text)))) {
      TRIGGER.lastIndex = hit.index + 1;
      continue;
    }
    const assignment = ruleIndex === ASSIGNMENT_RULE || ruleIndex === SHORT_ASSIGNMENT_RULE;
    r.pattern.lastIndex = hit.index;
    let m = r.pattern.exec(text);
    let xml = false;
    if (m === null && ruleIndex === ASSIGNMENT_RULE) {
      XML_VALUE.lastIndex = hit.index;
      m = XML_VALUE.exec(text);
      xml = m !== null;
    }
    if (m === null || (assignment && !isSecretName(assignedName(text, hit.index, m[1] ?? '')))) {
      TRIGGER.lastIndex = hit.index + 1;
      continue;
    }
    const value = xml ? (m[2] ?? '') : assignment ? (m[2] ?? m[3] ?? '') : (m[r.value] ?? '');
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
    if (headerEnd < 0 || (lineEnd >= 0 && headerEnd > lineEnd) || !/^[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?$/.test(header)) {
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
      const m = /-----BEGIN ([A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?)-----/.exec(line);
      if (m && !line.includes(`-----END ${m[1]}-----`)) {
        inPemBlock = m[1] ?? null;
        return maskSecrets(line);
      }
    }
    return maskSecrets(line);
  };
}
