/**
 * What a senior engineer says for the everyday tools' well-known failures (issue 25, helper ta):
 * the Docker daemon's socket the step's user may not open, a daemon that is not running, a command
 * an npm script runs that is not installed, a `go generate` tool missing, a Debian package that
 * ships a missing command, a link line that names its libraries before the objects that need them,
 * a make variable that refers to itself, `npm ci` without a lock file, a pytest fixture that is not
 * defined. Keyed on the tool's own words, never on a project's names; each step cites the lines it
 * read, and quotes next to a citation only what that line prints.
 */
import type { Finding } from '../../../protocol/types.js';
import { editDistance } from '../../../core/log/symbols.js';
import { escapeRegExp } from '../facts.js';
import { DOCKER_PULL_DENIED, dockerRegistryOf } from '../../../core/finding/rules.js';
import { clip, inlineCode, type LogSpan } from '../logtext.js';
import { abortedBy, at } from './findingText.js';
import { around, nearby, rule, type RemedyInput, type RemedyRule } from './remedyShape.js';
import { reportsOnly } from './logHelpers.js';

/**
 * The lines that may carry the tool's words: the finding's message line, and when that line only
 * reports an exit status (`script returned exit code 2`) or names no class, what the step printed
 * just above it.
 */
function messageLines(f: Finding, stored: LogSpan | undefined): { line: number; text: string }[] {
  const own = { line: f.message_line, text: f.message };
  if (!reportsOnly(f.message) && f.class !== 'unknown') return [own];
  return [own, ...around(stored, f.message_line, 15, 0).reverse().filter((l) => l.line !== f.message_line)];
}

const LINES = new WeakMap<RemedyInput, { line: number; text: string }[]>();
/** messageLines, read once per finding. */
function messageLinesOf(i: RemedyInput): { line: number; text: string }[] {
  let v = LINES.get(i);
  if (!v) LINES.set(i, (v = messageLines(i.f, i.stored)));
  return v;
}

/** The first of `lines` the expression matches, with its match. */
function said(lines: readonly { line: number; text: string }[], re: RegExp): { line: number; m: RegExpExecArray } | undefined {
  return nearby(lines, re);
}

/**
 * Debian and Ubuntu packages that ship a command under another name than the command's own
 * (`apt-get install sponge` finds nothing): the ones CI scripts call most.
 */
const DEBIAN_PACKAGE_OF: Readonly<Record<string, string>> = {
  sponge: 'moreutils',
  chronic: 'moreutils',
  ts: 'moreutils',
  ifne: 'moreutils',
  xmllint: 'libxml2-utils',
  envsubst: 'gettext-base',
  msgfmt: 'gettext',
  nc: 'netcat-openbsd',
  dig: 'dnsutils',
  nslookup: 'dnsutils',
  ps: 'procps',
  pgrep: 'procps',
  ip: 'iproute2',
  ss: 'iproute2',
  ping: 'iputils-ping',
  convert: 'imagemagick',
  identify: 'imagemagick',
  'rsvg-convert': 'librsvg2-bin',
  pdflatex: 'texlive-latex-base',
  xelatex: 'texlive-xetex',
  'xvfb-run': 'xvfb',
  ninja: 'ninja-build',
  pip3: 'python3-pip',
  pip: 'python3-pip',
  python: 'python-is-python3',
  virtualenv: 'python3-virtualenv',
  ssh: 'openssh-client',
  scp: 'openssh-client',
  aclocal: 'automake',
  autoreconf: 'autoconf',
  libtoolize: 'libtool',
  javac: 'default-jdk',
  mvn: 'maven',
  xxd: 'xxd',
  ag: 'silversearcher-ag',
  rg: 'ripgrep',
  fd: 'fd-find',
  '7z': 'p7zip-full',
  gpg: 'gnupg',
  dot: 'graphviz',
  cc: 'gcc',
  'c++': 'g++',
  make: 'make',
  'pkg-config': 'pkg-config',
};

/** Where the well-known `go generate` tools come from (`go install <path>@latest`). */
const GO_TOOL_MODULE: Readonly<Record<string, string>> = {
  stringer: 'golang.org/x/tools/cmd/stringer',
  goimports: 'golang.org/x/tools/cmd/goimports',
  mockgen: 'go.uber.org/mock/mockgen',
  'protoc-gen-go': 'google.golang.org/protobuf/cmd/protoc-gen-go',
  'protoc-gen-go-grpc': 'google.golang.org/grpc/cmd/protoc-gen-go-grpc',
  wire: 'github.com/google/wire/cmd/wire',
  enumer: 'github.com/dmarkham/enumer',
  swag: 'github.com/swaggo/swag/cmd/swag',
};

/** The command a shell or a runner says it could not find (`sh: 1: tsx: not found`, `bash: line 3: sponge: command not found`). */
export function missingCommandOf(message: string): string | undefined {
  return (
    /^(?:\S*\/)?(?:ba|da|z|k)?sh: (?:line )?\d+: ([\w.+-]+): (?:command )?not found\b/.exec(message)?.[1] ??
    /^(?:\S*\/)?(?:ba|z)?sh: ([\w.+-]+): command not found\b/.exec(message)?.[1] ??
    /^make(?:\[\d+\])?: ([\w.+-]+): (?:No such file or directory|Command not found)\b/.exec(message)?.[1] ??
    /exec: "([\w.+-]+)": executable file not found in \$PATH/.exec(message)?.[1]
  );
}

/** The names a tool lists as available, nearest to the missing one first (same prefix, containing it, then by edit distance). */
function nearestNames(missing: string, names: readonly string[]): string[] {
  const lower = missing.toLowerCase();
  const score = (n: string): number => {
    const l = n.toLowerCase();
    // By the name's words (`db` -> `db_session`, `session_db`), never by letters inside a word (`capfdbinary`).
    const words = l.split(/_+/);
    if (l.startsWith(`${lower}_`) || words[0] === lower) return 0;
    if (words.includes(lower) || lower.split(/_+/).includes(l)) return 1;
    const d = editDistance(lower, l);
    return d <= Math.max(1, Math.floor(Math.min(lower.length, l.length) / 3)) ? 1 + d : Infinity;
  };
  return names
    .filter((n) => n !== missing)
    .map((n) => ({ n, s: score(n) }))
    .filter((x) => x.s !== Infinity)
    .sort((a, b) => a.s - b.s)
    .map((x) => x.n);
}

/** A line that reports a failure (the words tools print for one), for the repeated-failure step. */
const FAILURE_WORDS = /\b(?:error|failed|failure|refused|denied|unavailable|not ready|not found|timed out|unreachable|cannot|could not|unable)\b/i;

/** The remedies the everyday tools' own words call for; none when nothing is recognised. */
export const EVERYDAY_REMEDIES: RemedyRule[] = [
  // Docker: the daemon's socket refused the step's user.
  rule('everyday/docker-socket-permission', 'wording', (i, out) => {
    const lines = messageLinesOf(i);
    let hit: { line: number; m: RegExpExecArray } | undefined;
    if ((hit = said(lines, /permission denied while trying to connect to the Docker daemon socket at (\S+?):? /))) {
      const socket = (hit.m[1] as string).replace(/^unix:\/\//, '');
      out.push({
        text: `The user the step runs as may not open the Docker daemon's socket ${inlineCode(hit.m[1] as string)} ${at(hit.line)}. Give that user access the way Docker intends: add it to the docker group, the group that owns the socket (${inlineCode(`ls -l ${socket}`)} shows owner and group; ${inlineCode('usermod -aG docker <user>')}, then restart the agent so the new group applies), or run the docker commands as a user that has access. Making the socket world-writable gives every local user root.`,
        lines: [hit.line],
      });
    }
  }),
  // Docker: a pull the registry refused. Docker's own words leave two causes open (the repository does
  // not exist, or it needs a login: a registry answers both alike so as not to reveal private names).
  rule('everyday/docker-pull-denied', 'wording', (i, out) => {
    const hit = said(messageLinesOf(i), DOCKER_PULL_DENIED);
    if (!hit) return;
    const image = hit.m[1] as string;
    const host = dockerRegistryOf(image);
    out.push({
      text: `Docker could not pull ${inlineCode(image)} ${at(hit.line)}: in its words the repository does not exist or needs a login, and it does not say which. Check the image's name and tag where the step names it (the compose file, the \`docker run\` or \`FROM\` line); if they are right, log the agent in to ${inlineCode(host)} before the pull with the job's credentials (${inlineCode(`docker login ${host}`)}; in a Pipeline, \`docker.withRegistry('https://${host}', '<credentials id>') { ... }\`).`,
      lines: [hit.line],
    });
  }),
  // A time limit that stopped a loop: the same failure printed again and again before the stop (a retry
  // loop on a probe that cannot succeed, a poll that never sees the state it waits for). The limit only
  // ended it; what failed each time is the cause to look at.
  rule('everyday/timeout-repeated-failure', 'wording', (i, out) => {
    const { f, stored, m0 } = i;
    if (f.class !== 'timeout-aborted' || f.test || abortedBy(f.message)) return;
    const before = around(stored, m0, 300, 0).slice(0, -1);
    const seen = new Map<string, { text: string; first: number; last: number; n: number }>();
    for (const l of before) {
      const text = l.text.trim();
      if (!FAILURE_WORDS.test(text) || text.length > 300) continue;
      // The same line but for its numbers, times and addresses.
      const key = text.replace(/\d+(?:[.:]\d+)*/g, '#');
      const s = seen.get(key);
      if (s) {
        s.n++;
        s.last = l.line;
      } else seen.set(key, { text, first: l.line, last: l.line, n: 1 });
    }
    const top = [...seen.values()].filter((x) => x.n >= 3).sort((a, b) => b.n - a.n || b.last - a.last)[0];
    if (!top) return;
    out.push({
      text: `Before the limit stopped it, the step printed ${inlineCode(clip(top.text, 160))} ${top.n} times (first ${at(top.first)}, last ${at(top.last)}): it kept trying something that failed each time, so the time limit only ended the attempts. Fix what that line reports (or make the loop give up after a few tries with that error) rather than raising the limit.`,
      lines: [top.first, top.last],
    });
  }),
  // Docker: no daemon answered where the CLI looked.
  rule('everyday/docker-no-daemon', 'wording', (i, out) => {
    const { f, stored } = i;
    const lines = messageLinesOf(i);
    let hit: { line: number; m: RegExpExecArray } | undefined;
    if ((hit = said(lines, /Cannot connect to the Docker daemon at (\S+?)\.? Is the docker daemon running\?|error during connect: .*?(npipe:\S+|unix:\S+|tcp:\S+)/))) {
      const where = (hit.m[1] ?? hit.m[2]) as string;
      out.push({
        text: `No Docker daemon answered at ${inlineCode(where)} ${at(hit.line)}: the docker command is on the agent, but no daemon runs there (or it listens elsewhere). Run the step on an agent that has a running Docker daemon (an agent label, a node with Docker), start the daemon there, or point ${inlineCode('DOCKER_HOST')} at a daemon the agent can reach (a remote builder, the host's socket mounted into the agent's container).`,
        lines: [hit.line],
      });
    }

    const missing = f.class === 'missing-tool' ? (f.symbol ?? missingCommandOf(f.message)) : missingCommandOf(f.message);
    if (missing) {
      // An npm script ran it: npm puts node_modules/.bin on PATH, so a package the project did not install.
      const above = around(stored, f.message_line, 12, 0);
      const run = [...above].reverse().find((l, i, all) => {
        const next = all[i - 1];
        return /^> \S+@\S+ [\w:.-]+$/.test(l.text.trim()) && next !== undefined && new RegExp(`^> (?:.*[\\s;&|(])?${escapeRegExp(missing)}(?:$|\\s)`).test(next.text.trim());
      });
      if (run) {
        const script = /^> \S+@\S+ ([\w:.-]+)$/.exec(run.text.trim())?.[1] as string;
        out.push({
          text: `The npm script ${inlineCode(script)} ${at(run.line)} runs ${inlineCode(missing)}, and npm scripts find their commands in \`node_modules/.bin\`: add the package that provides it to the project as a devDependency (${inlineCode(`npm install --save-dev <package>`)}, committing \`package.json\` and the lock file), and make sure the job installs the dependencies (\`npm ci\`) before it runs the script. If \`package.json\` already lists it, the step ran before the install.`,
          lines: [run.line],
        });
      }
      // go generate: a generator named on a //go:generate line.
      const gen = /^(\S+\.go):(\d+): running "([\w.+-]+)": exec: .*executable file not found/.exec(f.message);
      if (gen) {
        const module = GO_TOOL_MODULE[gen[3] as string];
        out.push({
          text: `\`go generate\` runs ${inlineCode(gen[3] as string)} from the \`//go:generate\` line at ${inlineCode(`${gen[1] as string}:${gen[2] as string}`)} ${at(f.message_line)}, and the agent does not have it. Install it in the step before generating: ${inlineCode(`go install ${module ?? '<its module path>'}@<version>`)} puts it in \`$(go env GOPATH)/bin\`, which must be on \`PATH\` (or call it as \`go run <module>@<version>\` on that line); or commit the generated files and drop \`go generate\` from the CI step.`,
          lines: [f.message_line],
        });
      }
      // The log itself names the package (Ubuntu's command-not-found: `sudo apt install moreutils`).
      const suggested = nearby(around(stored, f.message_line, 2, 6), /\b(?:apt|apt-get) install ([a-z0-9][\w.+-]+)/);
      const pkg = DEBIAN_PACKAGE_OF[missing];
      if (suggested) {
        out.push({ text: `The agent's shell names the package that has it: ${inlineCode(suggested.m[1] as string)} ${at(suggested.line)}; install it in the agent's image or setup step.`, lines: [suggested.line] });
      } else if (pkg && !gen && !run) {
        out.push({ text: `On Debian and Ubuntu, ${inlineCode(missing)} comes in the ${inlineCode(pkg)} package (${inlineCode(`apt-get install ${pkg}`)} in the agent's image or setup step); otherwise do without it.`, lines: [] });
      }
    }
  }),
  // A link line that names libraries before the objects that use them: ld only takes what is already undefined.
  rule('everyday/ld-library-order', 'wording', (i, out) => {
    const { f, stored } = i;
    if (f.class === 'link-error' && /undefined reference to/.test(f.message) && stored) {
      const before = around(stored, f.message_line, 30, 0).reverse();
      const link = before.find((l) => /^(?:\+ )?(?:\S*\/)?(?:cc|gcc|g\+\+|c\+\+|clang(?:\+\+)?|ld)(?:-[\d.]+)?\s.*-o\s/.test(l.text.trim()) && !/\s-c(?:\s|$)/.test(l.text));
      if (link) {
        const words = link.text.trim().replace(/^\+ /, '').split(/\s+/);
        const firstInput = words.findIndex((w, i) => i > 0 && /\.(?:o|a|so|c|cc|cpp)$/.test(w) && words[i - 1] !== '-o');
        const early = words.slice(1, firstInput < 0 ? 0 : firstInput).filter((w) => /^-l[\w.+-]+$/.test(w));
        if (early.length > 0) {
          const viaMake = around(stored, f.message_line, 0, 20).some((l) => /^make(?:\[\d+\])?: \*\*\* \[/.test(l.text.trim()));
          out.push({
            text: `The link command ${at(link.line)} names ${early.map((w) => inlineCode(w)).join(' ')} before the object files and archives that need them; the linker takes from a library only the symbols already missing when it reaches it, so those libraries were searched too early. Put the \`-l\` flags after the objects${viaMake ? ` (make's built-in link rule writes \`$(LDFLAGS)\` before the objects and \`$(LDLIBS)\` after them: libraries go in ${inlineCode('LDLIBS')}, search paths such as \`-L\` in \`LDFLAGS\`)` : ''}.`,
            lines: [link.line],
          });
        }
      }
    }
  }),
  // make: a recursively expanded variable that refers to itself.
  rule('everyday/make-recursive-variable', 'wording', (i, out) => {
    const lines = messageLinesOf(i);
    let hit: { line: number; m: RegExpExecArray } | undefined;
    if ((hit = said(lines, /^(\S*[Mm]akefile|\S+\.mk):(\d+): \*\*\* Recursive variable [`'‘]([\w.-]+)['’] references itself/))) {
      const name = hit.m[3] as string;
      out.push({
        text: `Line ${hit.m[2] as string} of ${inlineCode(hit.m[1] as string)} sets ${inlineCode(name)} with \`=\` from its own value ${at(hit.line)}: a variable set with \`=\` is expanded each time it is used, so it cannot contain itself. To add to it, write ${inlineCode(`${name} += ...`)}; to build it from its current value, ${inlineCode(`${name} := $(${name}) ...`)}.`,
        lines: [hit.line],
      });
    }
  }),
  // C/C++: a definition whose type differs from an earlier declaration (a header's prototype, as a rule):
  // the compiler names both, and only one of them was meant to change.
  rule('everyday/c-conflicting-types', 'wording', (i, out) => {
    const { stored } = i;
    const lines = messageLinesOf(i);
    let hit: { line: number; m: RegExpExecArray } | undefined;
    if ((hit = said(lines, /conflicting types for [‘'`]([\w:~]+)['’](?:; have [‘'`](.+?)['’])?/))) {
      const name = hit.m[1] as string;
      const note = nearby(around(stored, hit.line, 0, 8), /^(\S+?):(\d+)(?::\d+)?: note: previous (?:declaration|definition) (?:of [‘'`][\w:~]+['’] )?(?:with type [‘'`](.+?)['’]|is here|was here)/);
      const place = note ? `${inlineCode(`${note.m[1] as string}:${note.m[2] as string}`)} ${at(note.line)}` : 'an earlier declaration';
      const types = hit.m[2] !== undefined && note?.m[3] !== undefined ? ` (${inlineCode(hit.m[2])} here, ${inlineCode(note.m[3])} there)` : '';
      out.push({
        text: `${inlineCode(name)} is defined ${at(hit.line)} with another type than ${place} declares${types}. Make the two say the same: change the declaration${note ? ` in ${inlineCode(note.m[1] as string)}` : ''} (every file that includes it sees it, so its callers are compiled against it) or the definition, whichever the change did not mean to alter; the log does not say which.`,
        lines: [hit.line, ...(note ? [note.line] : [])],
      });
    }
  }),
  // npm ci without a lock file.
  rule('everyday/npm-ci-no-lockfile', 'wording', (i, out) => {
    const lines = messageLinesOf(i);
    let hit: { line: number; m: RegExpExecArray } | undefined;
    if ((hit = said(lines, /`npm ci` command can only install with an existing (package-lock\.json|npm-shrinkwrap\.json)/))) {
      out.push({
        text: `\`npm ci\` installs exactly what the lock file says and there is none in the checkout ${at(hit.line)}: commit \`package-lock.json\` (\`npm install\` once writes it; \`git ls-files package-lock.json\` shows whether it is tracked, and \`.gitignore\` must not list it). Switch the step to \`npm install\` only if the project means to have no lock file: installs are then no longer reproducible.`,
        lines: [hit.line],
      });
    }
  }),
  // pytest: a fixture the test asks for that nothing defines; pytest lists the ones it has.
  rule('everyday/pytest-fixture-not-found', 'wording', (i, out) => {
    const { stored } = i;
    const lines = messageLinesOf(i);
    let hit: { line: number; m: RegExpExecArray } | undefined;
    if ((hit = said(lines, /fixture '([\w]+)' not found/))) {
      const name = hit.m[1] as string;
      const list = nearby(around(stored, hit.line, 0, 4), /available fixtures: (.+)$/);
      const near = list ? nearestNames(name, (list.m[1] as string).split(/,\s*/).map((s) => s.trim()).filter((s) => /^\w+$/.test(s))).slice(0, 3) : [];
      out.push({
        text: `The test asks for the fixture ${inlineCode(name)} ${at(hit.line)} and no \`conftest.py\` or plugin it can see defines it${near.length > 0 ? `; of the fixtures pytest lists, the nearest ${near.length > 1 ? "are" : "is"} ${near.map((n) => inlineCode(n)).join(', ')} ${at((list as { line: number }).line)}` : ''}. If the fixture was renamed, take the new name as the test's parameter (and use it in the body); else define ${inlineCode(name)} with \`@pytest.fixture\` in a \`conftest.py\` beside or above the test (\`pytest --fixtures\` lists what the test can use).`,
        lines: [hit.line, ...(list && near.length > 0 ? [list.line] : [])],
      });
    }
  }),
];
