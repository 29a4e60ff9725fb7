/**
 * The remedy a senior engineer gives for a well-known error message (issue 25, point 3), keyed on
 * the tool's own words, not on a case: a checked exception not declared, a Makefile recipe without
 * its tab, a changed SSH host key, a certificate the agent does not trust, a database account the
 * server refused, a snapshot that no longer matches, an interpreter tox did not find, a Ruby
 * version the Gemfile does not accept, a push the remote rejected. Each step quotes only what the
 * finding's message or the log lines near it print, and cites the line it read.
 */
import { inlineCode } from '../logtext.js';
import { at } from './findingText.js';
import { around, nearby, rule, type RemedyRule } from './remedyShape.js';
import { tlsRefusalOf } from '../../../core/finding/tls.js';
import { tlsRefusalFor } from './tlsRefusal.js';

export const KNOWN_REMEDIES: RemedyRule[] = [
  // javac: a checked exception neither caught nor declared.
  rule('known/javac-unreported-exception', 'wording', (i, out) => {
    const { f, m0, here } = i;
    let m: RegExpExecArray | null;
    if ((m = /unreported exception ([\w.$]+); must be caught or declared to be thrown/.exec(f.message))) {
      const ex = m[1] as string;
      out.push({ text: `${inlineCode(ex)} is a checked exception ${here}: catch it around the call (${inlineCode(`try { ... } catch (${ex} e) { ... }`)}) or declare it on the enclosing method (${inlineCode(`throws ${ex}`)}), and in its callers up to where it is handled.`, lines: [m0] });
    }
  }),
  // make: a line it cannot parse, most often a recipe indented with spaces.
  rule('known/make-missing-separator', 'wording', (i, out) => {
    const { f, m0, here } = i;
    let m: RegExpExecArray | null;
    if ((m = /^(\S*[Mm]akefile|\S+\.mk):(\d+): \*\*\* missing separator/.exec(f.message))) {
      const [file, n] = [m[1] as string, m[2] as string];
      out.push({ text: `Line ${n} of ${inlineCode(file)} is neither a rule, an assignment nor a recipe make can read ${here}: most often a recipe line indented with spaces, where make needs a tab character at the start of each recipe line (${inlineCode(`sed -n '${n}p' ${file} | cat -A`)} shows a tab as \`^I\`). Indent it with a tab (and keep the editor from turning tabs into spaces in Makefiles).`, lines: [m0] });
    }
  }),
  // ssh: the host's key is not the one known_hosts holds.
  rule('known/ssh-host-key', 'wording', (i, out) => {
    const { f, stored, m0, here } = i;
    if (/Host key verification failed|REMOTE HOST IDENTIFICATION HAS CHANGED|Host key for \S+ has changed/.test(f.message) || (f.class === 'permission-credentials' && /host key/i.test(f.message))) {
      const lines = around(stored, m0, 25, 3);
      const keygen = nearby(lines, /^\s*(ssh-keygen (?:-f \S+ )?-R \S+)\s*$/);
      const changed = nearby(lines, /Host key for (\S+) has changed|REMOTE HOST IDENTIFICATION HAS CHANGED/);
      const unknown = nearby(lines, /No \S+ host key is known for (\S+)|Host key for (\S+) is not known|authenticity of host '([^']+)' can't be established/);
      const host = changed?.m[1] ?? unknown?.m[1] ?? unknown?.m[2] ?? unknown?.m[3];
      const seen = changed ?? unknown;
      const where = host && seen ? ` for ${inlineCode(host)} ${at(seen.line)}` : '';
      const cites = [keygen?.line, seen?.line].filter((x): x is number => x !== undefined);
      const text = changed
        ? `The server presents another host key than the one \`known_hosts\` holds${where} ${here}. If the new key is expected (a rebuilt or replaced server), remove the old one${keygen ? ` as the log says, ${inlineCode(keygen.m[1] as string)} ${at(keygen.line)},` : ` (${inlineCode('ssh-keygen -R <host>')})`} and add the new one after checking its fingerprint (${inlineCode('ssh-keyscan')} into the \`known_hosts\` the job uses); if it is not expected, stop and find out why the server's key is another.`
        : unknown
          ? `The \`known_hosts\` the job uses holds no key${where} ${here}, and ssh runs without asking (\`BatchMode\`/\`StrictHostKeyChecking\`): add the server's key to it after checking its fingerprint (${inlineCode('ssh-keyscan <host> >> ~/.ssh/known_hosts')} in the agent's setup, or a known-hosts credential), rather than turning the check off.`
          : `ssh could not verify the server's host key against the \`known_hosts\` the job uses ${here}: it holds no key for that host or another one. Add the server's key after checking its fingerprint (${inlineCode('ssh-keyscan <host>')}), or remove an outdated one (${inlineCode('ssh-keygen -R <host>')}), rather than turning the check off.`;
      out.push({ text, lines: cites });
    }
  }),
  // TLS: a certificate the client refused, by the verification's own reason (core/finding/tls.ts; t27, ux15).
  rule('known/tls-untrusted-certificate', 'wording', (i, out) => {
    const { f, m0, here } = i;
    const said = /SSL certificate problem|self[- ]signed certificate|unable to get local issuer certificate|CERTIFICATE_VERIFY_FAILED|SELF_SIGNED_CERT|UNABLE_TO_VERIFY_LEAF_SIGNATURE|x509: certificate signed by unknown authority/i.test(f.message);
    const r = tlsRefusalFor(f, i.lineText) ?? (said ? { ...(tlsRefusalOf(f.message) ?? { reason: 'untrusted' as const }), line: m0 } : undefined);
    if (!r) return;
    const how = /^curl\b|curl: \(\d+\)/.test(f.message)
      ? `${inlineCode('curl --cacert <ca.pem>')} (or ${inlineCode('CURL_CA_BUNDLE')})`
      : /CERTIFICATE_VERIFY_FAILED|pip|requests|urllib/i.test(f.message)
        ? `${inlineCode('REQUESTS_CA_BUNDLE')} / ${inlineCode('SSL_CERT_FILE')} (pip: ${inlineCode('--cert <ca.pem>')})`
        : /SELF_SIGNED_CERT|UNABLE_TO_VERIFY|npm|node|^\[cause\]: /i.test(f.message) || f.tool === 'node'
          ? `${inlineCode('NODE_EXTRA_CA_CERTS=<ca.pem>')} (npm: ${inlineCode('cafile')})`
          : 'the tool\'s CA option, or the agent\'s trust store';
    const cited = r.line === m0 ? here : `${here} ${at(r.line)}`;
    const text =
      r.reason === 'name'
        ? `The server's certificate does not name the host the client asked for${r.asked ? ` (${inlineCode(r.asked)})` : ''} ${cited}${r.names ? `; it holds ${inlineCode(r.names)}` : ''}: connect by a name the certificate lists in its subjectAltName (the URL's host), or have the certificate reissued with ${r.asked ? inlineCode(r.asked) : 'that name'} in its subjectAltName; turning verification off only hides the problem.`
        : r.reason === 'expired'
          ? `The server's certificate is past its end date ${cited}: renew it (a new certificate from its CA) on the server, or check the agent's clock if it should still be valid; turning verification off only hides the problem.`
          : r.reason === 'not-yet-valid'
            ? `The server's certificate is not valid yet ${cited}: check the agent's clock, and the certificate's start date on the server; turning verification off only hides the problem.`
            : `The server's certificate is self-signed or signed by a CA the agent does not trust ${cited}: give the client that CA, ${how}, or have the server use a certificate from a trusted CA; turning verification off (\`-k\`, \`--insecure\`) only hides the problem.`;
    out.push({ text, lines: [m0, ...(r.line === m0 ? [] : [r.line])] });
  }),
  // MySQL/MariaDB: the server refused the account.
  rule('known/mysql-access-denied', 'wording', (i, out) => {
    const { f, m0, here } = i;
    let m: RegExpExecArray | null;
    if ((m = /Access denied for user '([^']*)'@'([^']*)'(?: \(using password: (YES|NO)\))?/.exec(f.message))) {
      const [user, host, pw] = [m[1] as string, m[2] as string, m[3]];
      out.push({
        text: `The database server refused ${inlineCode(`'${user}'@'${host}'`)} ${here}: ${pw === 'NO' ? 'the client sent no password' : pw === 'YES' ? 'the password the client sent does not match' : 'the credentials do not match'}, or the server has no account for ${inlineCode(user)} from that host. Check the user and password the client reads (its option file, the variable they come from); on the server, ${inlineCode(`SHOW GRANTS FOR '${user}'@'${host}';`)} shows what the account may do, and ${inlineCode(`CREATE USER` )} / ${inlineCode(`GRANT ... TO '${user}'@'${host}'`)} adds what is missing.`,
        lines: [m0],
      });
    }
  }),
  // PostgreSQL: a privilege the role lacks.
  rule('known/postgres-permission-denied', 'wording', (i, out) => {
    const { f, m0, here } = i;
    let m: RegExpExecArray | null;
    if ((m = /permission denied for (schema|table|relation|sequence|database) ([\w.]+)/.exec(f.message))) {
      const [kind, obj] = [m[1] as string, m[2] as string];
      const grant = kind === 'schema' ? `GRANT USAGE, CREATE ON SCHEMA ${obj} TO <role>;` : kind === 'database' ? `GRANT CONNECT, CREATE ON DATABASE ${obj} TO <role>;` : `GRANT SELECT, INSERT, UPDATE, DELETE ON ${obj} TO <role>;`;
      out.push({ text: `The role the step connects as lacks a privilege on the ${kind} ${inlineCode(obj)} ${here}: grant it as the owner (${inlineCode(grant)})${kind === 'schema' && obj === 'public' ? '; since PostgreSQL 15 ordinary roles may no longer create objects in `public` by default' : ''}, or run the step as a role that has it.`, lines: [m0] });
    }
  }),
  // Snapshot tests: the output changed.
  rule('known/snapshot-mismatch', 'wording', (i, out) => {
    const { f, stored, m0, here } = i;
    if (/toMatch(?:Inline)?Snapshot|snapshots? failed|Snapshot .* mismatched/.test(f.message)) {
      const lines = around(stored, m0, 0, 80);
      const hint = nearby(lines, /run `([^`]*\s-u)`/);
      const file = f.location?.file;
      const cmd = hint ? `${inlineCode(hint.m[1] as string)} ${at(hint.line)}` : inlineCode(`npx jest ${file ?? ''} -u`.replace(/\s+/g, ' '));
      out.push({ text: `The output no longer matches the stored snapshot ${here}. If the new output is what the code should produce now, update the snapshot (${cmd}) and commit the \`.snap\` file with the change; if it is not, the change to the code under test is the bug.`, lines: hint ? [hint.line] : [] });
    }
  }),
  // tox: an environment's interpreter is not on the agent.
  rule('known/tox-interpreter-not-found', 'wording', (i, out) => {
    const { f, m0, here } = i;
    let m: RegExpExecArray | null;
    if ((m = /InterpreterNotFound: (\S+)/.exec(f.message))) {
      const py = m[1] as string;
      out.push({ text: `tox found no ${inlineCode(py)} on the agent ${here}: install it there (or run the job in an image that has it), or take its environment out of \`envlist\` in \`tox.ini\`; ${inlineCode('skip_missing_interpreters = true')} in \`tox.ini\`'s \`[tox]\` section makes tox skip such environments instead of failing.`, lines: [m0] });
    }
  }),
  // Bundler: the Gemfile's `ruby` line and the agent's Ruby disagree.
  rule('known/bundler-ruby-version', 'wording', (i, out) => {
    const { f, m0, here } = i;
    let m: RegExpExecArray | null;
    if ((m = /Your Ruby version is ([\d.]+\w*), but your Gemfile specified (.+?)\s*$/.exec(f.message))) {
      const [have, want] = [m[1] as string, m[2] as string];
      const wanted = want.replace(/^[~>=<\s]+/, '');
      out.push({ text: `The agent runs Ruby ${have} and the \`Gemfile\`'s \`ruby\` line asks for ${inlineCode(want)} ${here}: run the build with Ruby ${wanted} (the agent's image, \`.ruby-version\` with rbenv/asdf, a setup-ruby step), or change the \`ruby\` line in the \`Gemfile\` if Ruby ${have} is good enough.`, lines: [m0] });
    }
  }),
  // git push: the remote branch moved on.
  rule('known/git-push-rejected', 'wording', (i, out) => {
    const { f, stored, m0 } = i;
    if (/failed to push some refs|\[rejected\]|\[remote rejected\]|non-fast-forward|fetch first/.test(f.message)) {
      const lines = around(stored, m0, 10, 6);
      const rejected = nearby(lines, /^\s*! \[rejected\]\s+(\S+) -> (\S+) \((fetch first|non-fast-forward)\)/);
      if (rejected) {
        const branch = rejected.m[2] as string;
        out.push({ text: `The remote's ${inlineCode(branch)} has commits this checkout does not (${rejected.m[3] as string}) ${at(rejected.line)}: integrate them first, ${inlineCode(`git pull --rebase origin ${branch}`)}, then push; if two jobs push to the same branch, make them take turns (a lock, a concurrency group). Never force-push over the other commits.`, lines: [rejected.line] });
      }
    }
  }),
  // javac: a JDK class used without its import.
  rule('known/javac-missing-jdk-import', 'wording', (i, out) => {
    const { f, m0, here } = i;
    if (f.tool === 'javac' && f.symbol && /cannot find symbol/.test(f.message) && JDK_CLASS[f.symbol]) {
      const fq = `${JDK_CLASS[f.symbol] as string}.${f.symbol}`;
      out.push({ text: `If ${inlineCode(f.symbol)} is the JDK's ${inlineCode(fq)} (the project declares no class of that name), the file lacks its import ${here}: add ${inlineCode(`import ${fq};`)} at the top of it.`, lines: [m0] });
    }
  }),
  // The linker: a symbol of a well-known library that is not on the link line.
  rule('known/ld-library-of-symbol', 'wording', (i, out) => {
    const { f, m0, here, stored } = i;
    const lib = f.class === 'link-error' && f.symbol ? libraryOfSymbol(f.symbol) : undefined;
    if (lib) {
      // Where the link line is, from make's own line under the error: a CMake target's build.make, else the Makefile's rule.
      const below = around(stored, m0, 0, 6);
      const target = nearby(below, /CMakeFiles\/([\w.+-]+)\.dir\/build\.make:\d+/);
      const mk = target ? undefined : nearby(below, /make(?:\[\d+\])?: \*\*\* \[((?:\S*\/)?(?:GNU)?[Mm]akefile):(\d+): ([^\]\s]+)\]/);
      const cmake = inlineCode(`target_link_libraries(${target ? (target.m[1] as string) : '<target>'} PRIVATE ${lib.cmake ?? lib.flag.replace(/^-l/, '')})`);
      const where = target
        ? `; the target ${inlineCode(target.m[1] as string)} is linked without it ${at(target.line)}: in \`CMakeLists.txt\` ${lib.find ? `${inlineCode(lib.find)} and ` : ''}${cmake}`
        : mk
          ? `; the link is the rule for ${inlineCode(mk.m[3] as string)} at ${inlineCode(`${mk.m[1] as string}:${mk.m[2] as string}`)} ${at(mk.line)}: add ${inlineCode(lib.flag)} after the objects on its command (or ${inlineCode(`LDLIBS += ${lib.flag}`)} in the Makefile)`
          : `; with CMake ${lib.find ? `${inlineCode(lib.find)} and ` : ''}${cmake}`;
      out.push({ text: `${inlineCode(f.symbol as string)} is ${lib.name}'s ${here}: link that library (${inlineCode(lib.flag)} on the link line${where}).`, lines: [m0, ...(target ? [target.line] : mk ? [mk.line] : [])] });
    }
  }),
  // An install into a system directory the agent's user may not write.
  rule('known/install-into-system-dir', 'wording', (i, out) => {
    const { f, m0, here } = i;
    let m: RegExpExecArray | null;
    if ((m = /(?:install|cp|mkdir|ln)\b.*['"`]?((?:\/usr|\/opt|\/etc|\/var\/lib)\/[^'"`\s:]*)['"`]?:? Permission denied/.exec(f.message))) {
      out.push({ text: `The step installs into ${inlineCode(m[1] as string)} ${here}, a system directory the agent's user may not write: install under a prefix the job owns (${inlineCode('make install PREFIX=$HOME/.local')}, or \`DESTDIR=\` to stage it, where the Makefile honours them) rather than running the build as root.`, lines: [m0] });
    }
  }),
  // dune: an OCaml library not installed in the switch.
  rule('known/dune-library-not-found', 'wording', (i, out) => {
    const { f, m0, here } = i;
    let m: RegExpExecArray | null;
    if ((m = /Library "([\w.-]+)" not found/.exec(f.message))) {
      const name = m[1] as string;
      out.push({ text: `${inlineCode(name)} is not installed in the opam switch the build uses ${here}; install it with ${inlineCode(`opam install ${name}`)} (and list it in \`depends\` of the project's \`.opam\` file or \`dune-project\`, so \`opam install . --deps-only\` brings it).`, lines: [m0] });
    }
  }),
  // A missing program configure (or a script) asks for.
  rule('known/configure-missing-program', 'wording', (i, out) => {
    const { f, m0, here } = i;
    if (f.class === 'missing-tool' && f.symbol && /^(?:configure|autoconf|cmake|meson)$/.test(f.tool ?? '') && /^[a-z][\w.+-]+$/.test(f.symbol)) {
      out.push({ text: `On a Debian or Ubuntu agent, ${inlineCode(`apt-get install ${f.symbol}`)} installs it when the package has the program's name (\`apt-cache search ${f.symbol}\` finds it otherwise) ${here}.`, lines: [m0] });
    }
  }),
  // RubyGems: a push the host refused.
  rule('known/gem-push-refused', 'wording', (i, out) => {
    const { f, m0, here } = i;
    if (/Access Denied\. Please sign up for an account|gem push.*(?:401|Unauthorized)/.test(f.message)) {
      out.push({ text: `The gem host refused the API key ${here}. A push sends ${inlineCode('GEM_HOST_API_KEY')} (else the key in \`~/.gem/credentials\`), so set it in the job to a key with push rights on that host, and check that the gemspec's \`metadata['allowed_push_host']\` is the host meant.`, lines: [m0] });
    }
  }),
  // Hypothesis: an example took longer than its deadline.
  rule('known/hypothesis-deadline', 'wording', (i, out) => {
    const { f, stored, m0 } = i;
    const deadline = /hypothesis|DeadlineExceeded|test_/.test(f.message) || f.tool === 'pytest' ? nearby(around(stored, m0, 0, 120), /DeadlineExceeded: Test took ([\d.]+m?s), which exceeds the deadline of ([\d.]+m?s)/) : undefined;
    if (deadline) {
      out.push({ text: `An example took ${deadline.m[1] as string}, over Hypothesis's deadline of ${deadline.m[2] as string} ${at(deadline.line)}: make the code under test faster for such inputs, or give this test a deadline it can keep (${inlineCode('@settings(deadline=...)')}, ${inlineCode('deadline=None')} for a test whose timing varies).`, lines: [deadline.line] });
    }
  }),
  // cargo test: a `should_panic(expected = ...)` test whose panic message is another.
  rule('known/cargo-should-panic', 'wording', (i, out) => {
    const { f, stored, m0 } = i;
    const note = /panic did not contain expected string/.test(f.message) ? { line: m0 } : f.tool === 'cargo test' || /panicked/.test(f.message) || f.class === 'test-assertion' ? nearby(around(stored, m0, 0, 30), /^note: panic did not contain expected string/) : undefined;
    if (note) {
      const panicked = nearby(around(stored, note.line, 40, 0), /panicked at [^:]+:\d+:\d+:$/);
      const said = panicked ? around(stored, panicked.line + 1, 0, 0)[0] : undefined;
      out.push({ text: `The test is marked ${inlineCode('#[should_panic(expected = "...")]')} and the code did panic, but with a message that does not contain that string ${at(note.line)}${said ? `: it said ${inlineCode(said.text.trim())} ${at(said.line)}` : ''}. If the message changed on purpose, update \`expected\`; if the code now panics for another reason, that is the bug.`, lines: [note.line, ...(said ? [said.line] : [])] });
    }
  }),
  // npm: the registry answered 401.
  rule('known/npm-e401', 'wording', (i, out) => {
    const { f, stored, m0 } = i;
    const e401 = f.class === 'permission-credentials' ? nearby(around(stored, m0, 6, 6), /^npm (?:error|ERR!) code (E401)\b/) : undefined;
    if (e401) {
      out.push({ text: `The registry answered 401 (npm's code ${inlineCode('E401')} ${at(e401.line)}): the token npm sent is missing, expired or revoked. Set a valid one for this job (the \`_authToken\` line of \`.npmrc\`, usually read from a variable) and check it with ${inlineCode('npm whoami')}.`, lines: [e401.line] });
    }
  }),
  // pip --require-hashes: the file downloaded is not the one the requirements pin.
  rule('known/pip-hash-mismatch', 'wording', (i, out) => {
    const { f, stored, m0 } = i;
    if (/DO NOT MATCH THE HASHES/.test(f.message)) {
      const lines = around(stored, m0, 0, 12);
      const want = nearby(lines, /Expected sha256 ([0-9a-f]{64})/);
      const got = nearby(lines, /Got\s+([0-9a-f]{64})/);
      if (want && got) {
        out.push({ text: `The requirements file pins sha256 ${inlineCode(want.m[1] as string)} ${at(want.line)} and the file pip downloaded has ${inlineCode(got.m[1] as string)} ${at(got.line)}. If the new file is the one meant (a new version, a trusted re-upload), put ${inlineCode(`--hash=sha256:${got.m[1] as string}`)} in the requirements file (\`pip-compile --generate-hashes\` regenerates them); if not, stop: the package may have been tampered with.`, lines: [want.line, got.line] });
      }
    }
  }),
  // A frozen lockfile that package.json has moved past.
  rule('known/frozen-lockfile', 'wording', (i, out) => {
    const { f, stored, m0, here } = i;
    if (/OUTDATED_LOCKFILE|lockfile needs to be updated|frozen-lockfile|lockfile.*not up to date/i.test(f.message)) {
      const pm = /pnpm/i.test(f.message) ? 'pnpm' : /yarn|Your lockfile needs/.test(f.message) ? 'yarn' : 'npm';
      const lock = pm === 'pnpm' ? 'pnpm-lock.yaml' : pm === 'yarn' ? 'yarn.lock' : 'package-lock.json';
      const specs = nearby(around(stored, m0, 0, 10), /specifiers in the lockfile \((\{[^)]*\})\) don't match specs in package\.json \((\{[^)]*\})\)/);
      const parse = (t: string): Record<string, string> => {
        try {
          return JSON.parse(t) as Record<string, string>;
        } catch {
          return {};
        }
      };
      const [inLock, inPkg] = specs ? [parse(specs.m[1] as string), parse(specs.m[2] as string)] : [{}, {}];
      const added = Object.keys(inPkg).filter((k) => (inLock as Record<string, string>)[k] !== (inPkg as Record<string, string>)[k]);
      out.push({ text: `The lockfile is behind ${here}, as ${inlineCode('package.json')} asks for ${added.length > 0 && specs ? `${added.map((a) => inlineCode(a)).join(', ')} ${at(specs.line)}, which` : 'dependencies that'} ${inlineCode(lock)} does not record: run ${inlineCode(`${pm} install`)} with that \`package.json\` and commit the updated ${inlineCode(lock)} with it (CI installs from the lockfile as it is).`, lines: specs ? [specs.line] : [] });
    }
  }),
  // PHP: a class or function of an extension the agent's PHP lacks.
  rule('known/php-extension', 'wording', (i, out) => {
    const { f, stored, m0, here } = i;
    const phpExt = f.tool === 'php' || /PHP Fatal error/.test(f.message) ? phpExtensionOf(f.message) : undefined;
    if (phpExt) {
      const ver = nearby(around(stored, m0, 10, 0), /^PHP (\d+\.\d+)\.\d+ \(cli\)/);
      const pkg = `php${ver ? (ver.m[1] as string) : ''}-${phpExt.ext}`;
      out.push({ text: `${inlineCode(phpExt.name)} comes from PHP's ${inlineCode(phpExt.ext)} extension, which the agent's PHP${ver ? ` ${ver.m[1] as string} ${at(ver.line)}` : ''} does not load ${here}: install it (${inlineCode(`apt-get install ${pkg}`)} on Debian/Ubuntu, ${inlineCode(`docker-php-ext-install ${phpExt.ext}`)} in the official images) and require it in \`composer.json\` (${inlineCode(`"ext-${phpExt.ext}": "*"`)}) so a missing extension fails early.`, lines: ver ? [ver.line] : [] });
    }
  }),
  // UBSan: signed arithmetic that overflowed.
  rule('known/ubsan-signed-overflow', 'wording', (i, out) => {
    const { f, m0, here } = i;
    let m: RegExpExecArray | null;
    if ((m = /signed integer overflow: .* cannot be represented in type '([^']+)'/.exec(f.message))) {
      out.push({ text: `The result does not fit in ${inlineCode(m[1] as string)} ${here}, and signed overflow is undefined behaviour in C and C++: compute it in a wider type (\`int64_t\`), or in an unsigned type where wrapping is meant (a hash or checksum: \`uint32_t\`, \`uint64_t\`), or check the bounds before the operation.`, lines: [m0] });
    }
  }),
];

/** The PHP extension a missing class or function belongs to (intl, mbstring, gd, zip, curl, dom, bcmath, sodium). */
function phpExtensionOf(message: string): { name: string; ext: string } | undefined {
  const name = /Class "\\?([\w\\]+)" not found|Call to undefined function ([\w\\]+)\(\)/.exec(message);
  const n = (name?.[1] ?? name?.[2])?.replace(/^\\/, '');
  if (!n) return undefined;
  const table: [RegExp, string][] = [
    [/^(?:NumberFormatter|Collator|IntlDateFormatter|Normalizer|Transliterator|IntlChar|MessageFormatter|ResourceBundle|Spoofchecker|grapheme_\w+|idn_to_\w+)$/, 'intl'],
    [/^mb_\w+$/, 'mbstring'],
    [/^(?:image\w+|getimagesize)$/, 'gd'],
    [/^ZipArchive$/, 'zip'],
    [/^curl_\w+$/, 'curl'],
    [/^(?:DOMDocument|DOMXPath|SimpleXMLElement|simplexml_\w+)$/, 'xml'],
    [/^bc\w+$/, 'bcmath'],
    [/^(?:sodium_\w+)$/, 'sodium'],
  ];
  const hit = table.find(([re]) => re.test(n));
  return hit ? { name: n, ext: hit[1] } : undefined;
}

/** JDK classes code most often uses without importing them, by simple name. */
const JDK_CLASS: Record<string, string> = Object.fromEntries([
  ...['List', 'ArrayList', 'LinkedList', 'Map', 'HashMap', 'LinkedHashMap', 'TreeMap', 'Set', 'HashSet', 'LinkedHashSet', 'TreeSet', 'Optional', 'Objects', 'Collections', 'Arrays', 'Iterator', 'Collection', 'Deque', 'ArrayDeque', 'Queue', 'UUID', 'Scanner', 'Locale', 'Comparator', 'Random', 'StringJoiner'].map((n) => [n, 'java.util']),
  ...['Collectors', 'Stream', 'IntStream'].map((n) => [n, 'java.util.stream']),
  ...['Duration', 'Instant', 'LocalDate', 'LocalDateTime', 'LocalTime', 'ZonedDateTime', 'ZoneId'].map((n) => [n, 'java.time']),
  ...['IOException', 'UncheckedIOException', 'File', 'InputStream', 'OutputStream', 'BufferedReader', 'InputStreamReader'].map((n) => [n, 'java.io']),
  ...['Path', 'Paths', 'Files'].map((n) => [n, 'java.nio.file']),
  ...['BigDecimal', 'BigInteger', 'RoundingMode'].map((n) => [n, 'java.math']),
  ...['Function', 'Supplier', 'Consumer', 'Predicate', 'BiFunction'].map((n) => [n, 'java.util.function']),
]);

/** The library a C symbol belongs to, for the usual ones (zlib, libm, pthreads, OpenSSL, libcurl, SQLite, libdl). */
function libraryOfSymbol(symbol: string): { name: string; flag: string; find: string; cmake?: string } | undefined {
  const s = symbol.replace(/^_+/, '').replace(/@.*$/, '');
  if (/^(?:compress2?|uncompress|deflate\w*|inflate\w*|crc32|adler32|gz\w+|zlibVersion)$/.test(s)) return { name: 'zlib', flag: '-lz', find: 'find_package(ZLIB REQUIRED)', cmake: 'ZLIB::ZLIB' };
  if (/^(?:sqrtf?|powf?|floorf?|ceilf?|expf?|logf?|log10|log2|sinf?|cosf?|tanf?|atan2f?|fabsf?|roundf?|fmodf?|lround|hypot)$/.test(s)) return { name: 'the C math library', flag: '-lm', find: '', cmake: undefined };
  if (/^pthread_\w+$/.test(s)) return { name: 'pthreads', flag: '-pthread', find: 'find_package(Threads REQUIRED)', cmake: 'Threads::Threads' };
  if (/^(?:SSL|TLS)_\w+$/.test(s)) return { name: 'OpenSSL', flag: '-lssl -lcrypto', find: 'find_package(OpenSSL REQUIRED)', cmake: 'OpenSSL::SSL' };
  if (/^(?:EVP|SHA\d*|MD5|RAND|ERR|BIO|HMAC)_\w+$/.test(s)) return { name: 'OpenSSL (libcrypto)', flag: '-lcrypto', find: 'find_package(OpenSSL REQUIRED)', cmake: 'OpenSSL::Crypto' };
  if (/^curl_\w+$/.test(s)) return { name: 'libcurl', flag: '-lcurl', find: 'find_package(CURL REQUIRED)', cmake: 'CURL::libcurl' };
  if (/^sqlite3_\w+$/.test(s)) return { name: 'SQLite', flag: '-lsqlite3', find: 'find_package(SQLite3 REQUIRED)', cmake: 'SQLite::SQLite3' };
  if (/^(?:dlopen|dlsym|dlclose|dlerror)$/.test(s)) return { name: 'libdl', flag: '-ldl', find: '', cmake: '${CMAKE_DL_LIBS}' };
  return undefined;
}
