/**
 * What a compiler's or linter's diagnostic asks for, keyed on the tool's own wording (issue 25,
 * "how do I fix it?": the remedy for this error, not "change the line"). Each rule reads only the
 * names the message carries; the answer cites the message line after the step. One hint per
 * message, the first rule that matches; none when no rule does (the remedy stays general).
 */
import { editDistance } from '../../../core/log/symbols.js';
import { inlineCode as c } from '../logtext.js';
import { citedAfter } from './findingText.js';
import { HEAP_GENERAL, MISSING_TOOL_GENERAL, type RemedyRule } from './remedyShape.js';

interface Rule {
  test: RegExp;
  hint: (m: RegExpExecArray) => string;
  /** General steps (remedyShape.ts ids) this wording makes wrong: they are not emitted with it. */
  supersedes?: string[];
}

/** Bytes as MiB, for a message's sizes. */
const mib = (bytes: string): string => `${Math.round((Number(bytes) / 2 ** 20) * 10) / 10} MiB`;

const RULES: Rule[] = [
  // Go
  { test: /\b([\w$]+) declared (?:and|but) not used/, hint: (m) => `Go refuses a local variable that is never read: remove ${c(m[1] as string)} (and what computes it), or use it as the code meant to; ${c(`_ = ${m[1] as string}`)} only while the code is unfinished.` },
  { test: /"([\w./-]+)" imported (?:and|but) not used/, hint: (m) => `Go refuses an unused import: remove ${c(`"${m[1] as string}"`)} from the imports (\`goimports -w\` does it), or use it.` },
  { test: /^(?:.*: )?missing return(?: statement)?$/, hint: () => 'The function can reach its end without returning a value: add a `return` on the path that falls off the end (after the last `if`, `switch` or loop), or end it with a return or a throw/panic.' },
  { test: /cannot infer ([A-Z]\w*)/, hint: (m) => `The compiler could not work out the type parameter ${c(m[1] as string)} from the call's arguments: give it explicitly (${c(`F[${'int'}](...)`)} with the type meant), or pass arguments whose types determine it.` },
  // Java, Kotlin
  { test: /([\w.$]+) is not abstract and does not override abstract method (\w+)\(([^)]*)\) in ([\w.$]+)/, hint: (m) => `${c((m[1] as string).split('.').pop() as string)} must implement ${c(`${m[2] as string}(${(m[3] as string).replace(/java\.lang\./g, '')})`)}, which ${c((m[4] as string).split('.').pop() as string)} declares: add that method (with \`@Override\`), or make the class abstract if a subclass is meant to provide it.` },
  // TypeScript
  { test: /'([\w$.]+)' is possibly '(undefined|null)'/, hint: (m) => `Handle the ${m[2] as string} case before ${c(m[1] as string)} is used: a check (${c(`if (${m[1] as string} === ${m[2] as string}) ...`)}), a default (${c(`${m[1] as string} ?? <default>`)}) or optional chaining (${c(`${m[1] as string}?.`)}); the non-null operator (\`!\`) only where the code guarantees it is set.` },
  { test: /(?:Parameter|Variable|Member) '([\w$]+)' implicitly has an? '?any'? type/, hint: (m) => `Give ${c(m[1] as string)} a type annotation (${c(`${m[1] as string}: <type>`)}, the type it receives): the project compiles with \`noImplicitAny\` (part of \`strict\`).` },
  { test: /Cannot find module '(\.{1,2}\/[^']+)' or its corresponding type declarations/, hint: (m) => `No file answers the import ${c(m[1] as string)} from the importing file: fix the path (the file's name, its folder, its extension under \`moduleResolution\`), or add the file if it was not committed.` },
  { test: /Cannot find module '([^'.][^']*)' or its corresponding type declarations/, hint: (m) => `The package ${c(m[1] as string)} (or its types) is not installed where the compiler looks: add it to \`package.json\` (${c(`npm install ${m[1] as string}`)}), and its types if it ships none (${c(`npm install -D @types/${(m[1] as string).replace(/^@([^/]+)\//, '$1__')}`)}).` },
  { test: /has no exported member named '([\w$]+)'\. Did you mean '([\w$]+)'\?/, hint: (m) => `The module exports ${c(m[2] as string)}, not ${c(m[1] as string)} (renamed?): import ${c(m[2] as string)} and use that name, or export ${c(m[1] as string)} from the module again if other code still needs it.` },
  // C, C++
  { test: /fatal error: ([\w./+-]+\.(?:h|hh|hpp|hxx)): No such file or directory/, hint: (m) => `The compiler found no ${c(m[1] as string)} on its include path: if it is the project's own header, add its directory with \`-I\` (CPPFLAGS, \`target_include_directories\`) or fix the \`#include\` if it moved or was renamed; if it is a library's, install that library's development package.` },
  { test: /this statement may fall through/, hint: () => 'A `case` runs on into the next one: add the `break;` it is missing, or, if falling through is meant, say so with `__attribute__((fallthrough));` (C) or `[[fallthrough]];` (C++17) before the next `case`.' },
  { test: /from incompatible pointer type|incompatible pointer types? (?:passing|initializing|assigning)/, hint: () => "The pointer passed does not have the type the parameter or variable is declared with: compare the two (the compiler's `note:` lines below the error show the declaration and both types) and fix the declaration that drifted; a cast would only hide the mismatch." },
  { test: /no match for [‘'`]operator(.+?)[’'`] \(operand types are [‘'`](.+?)[’'`] and [‘'`](.+?)[’'`]\)/, hint: (m) => `No ${c(`operator${m[1] as string}`)} takes a ${c(m[2] as string)} and a ${c(m[3] as string)}: define one for that type (a free function in its namespace), or apply the operator to what the type holds (its elements in a loop).` },
  // ESLint's core rules, in ESLint's words
  { test: /Expected '(===|!==)' and instead saw '(==|!=)'/, hint: (m) => `Write ${c(m[1] as string)} where the code has ${c(m[2] as string)} (the \`eqeqeq\` rule forbids comparisons with type coercion); check that both sides have the same type, or convert one first.` },
  { test: /Unexpected console statement/, hint: () => "Remove the `console` call or use the project's logger; if the output is meant, allow it for that line (`// eslint-disable-next-line no-console`)." },
  { test: /'([\w$]+)' is (?:assigned a value|defined) but never used/, hint: (m) => `Remove ${c(m[1] as string)} (and what computes it), or use it as the code meant to; an unused parameter kept on purpose is named to fit the rule's \`argsIgnorePattern\` (often a leading \`_\`).` },
  { test: /ESLint found too many warnings \(maximum: (\d+)\)/, hint: (m) => `The lint step allows at most ${m[1] as string} warning${m[1] === '1' ? '' : 's'} (\`--max-warnings ${m[1] as string}\`): fix the warnings the report lists above it, or change the limit in the lint script if the new ones are accepted.` },
  // pytest's flags that a plugin adds: the plugin is not installed where pytest runs.
  { test: /unrecognized arguments: (-n|--numprocesses|--dist|--cov\S*|--timeout\S*|--reruns\S*|--benchmark\S*|-p xdist|--html\S*|--asyncio-mode\S*|--randomly\S*|--mypy|--flake8|--doctest-glob)\b/, hint: (m) => {
    const flag = m[1] as string;
    const plugin = /^(?:-n|--numprocesses|--dist|-p xdist)$/.test(flag) ? 'pytest-xdist' : flag.startsWith('--cov') ? 'pytest-cov' : flag.startsWith('--timeout') ? 'pytest-timeout' : flag.startsWith('--reruns') ? 'pytest-rerunfailures' : flag.startsWith('--benchmark') ? 'pytest-benchmark' : flag.startsWith('--html') ? 'pytest-html' : flag.startsWith('--asyncio') ? 'pytest-asyncio' : flag.startsWith('--randomly') ? 'pytest-randomly' : flag === '--mypy' ? 'pytest-mypy' : flag === '--flake8' ? 'pytest-flake8' : undefined;
    return plugin ? `pytest has no ${c(flag)} option of its own: it comes from the plugin ${c(plugin)}, which is not installed where the step runs pytest. Add ${c(plugin)} to the test requirements (${c(`pip install ${plugin}`)}), or drop ${c(flag)} from the command.` : `pytest does not know ${c(flag)}: install the plugin that provides it, or drop it from the command.`;
  } },
  // Node: running a file that has no executable bit (or is no program).
  { test: /spawn (\S+) EACCES/, hint: (m) => `Node could not execute ${c(m[1] as string)}: the file lacks its executable bit on the agent (or is not a program). Make it executable in the repository (${c(`git update-index --chmod=+x ${(m[1] as string).replace(/^\.\//, '')}`)}, or ${c(`chmod +x ${m[1] as string}`)} and commit), or run it through its interpreter (${c(`bash ${m[1] as string}`)}).` },
  // Maven
  { test: /'parent\.relativePath' points at (?:wrong local POM|no local POM)/, hint: () => "Maven did not find the parent POM where `<relativePath>` points (by default `../pom.xml`) and not in a repository either: set `<relativePath>` in the `<parent>` of this `pom.xml` to the parent's real path (or to the right directory depth), or install the parent first (`mvn -N install` in its directory)." },
  { test: /Unknown lifecycle phase "([^"]+)"/, hint: (m) => {
    const near = nearestPhase(m[1] as string);
    return `Maven has no phase ${c(m[1] as string)}${near ? `; the nearest lifecycle phase is ${c(near)}` : ''}: fix the name in the command (the phases are \`validate\`, \`compile\`, \`test\`, \`package\`, \`verify\`, \`install\`, \`deploy\` and those between), or give a plugin goal as \`prefix:goal\`.`;
  } },
  // ESLint 9: flat config only.
  { test: /ESLint couldn't find an eslint\.config\.\(js\|mjs\|cjs\) file/, hint: () => `ESLint 9 reads only a flat config, \`eslint.config.js\` (or \`.mjs\`/\`.cjs\`), and ignores an \`.eslintrc.*\` file (\`.eslintrc.json\`, \`.eslintrc.js\`): migrate the old one (${c('npx @eslint/migrate-config .eslintrc.json')} writes \`eslint.config.mjs\`), or keep ESLint 8 until then; \`ESLINT_USE_FLAT_CONFIG=false\` makes ESLint 9 read the old file for now (deprecated).` },
  // TypeScript: an assignment to a readonly property.
  { test: /TS2540: Cannot assign to '(\w+)' because it is a read-only property/, hint: (m) => `${c(m[1] as string)} is declared \`readonly\` (or comes from a \`Readonly<...>\` type or an \`as const\` value): build a new object with the changed value (${c(`{ ...obj, ${m[1] as string}: value }`)}) instead of assigning it, or drop \`readonly\` from the declaration if the property is meant to change.` },
  // flake8's mccabe check: a function over `max-complexity`.
  { test: /C901 '([\w.]+)' is too complex \((\d+)\)/, hint: (m) => `${c(m[1] as string)} has a McCabe complexity of ${m[2] as string}, over the \`max-complexity\` flake8 runs with (its config: \`setup.cfg\`, \`tox.ini\` or \`.flake8\`): move branches of it into helper functions (a lookup table for a chain of cases) until it is back under the limit; raise \`max-complexity\` only if the project agrees the limit is wrong.` },
  // pytest: a fixture of a wider scope asks for a function-scoped one.
  { test: /ScopeMismatch: You tried to access the (function|class|module|package) scoped fixture (\w+) with a (class|module|package|session) scoped request object/, hint: (m) => `A ${c(m[3] as string)}-scoped fixture asks for the ${m[1] as string}-scoped fixture ${c(m[2] as string)}, which pytest builds anew for each ${m[1] as string}: give the requesting fixture the narrower scope, or use a fixture of its own scope instead${m[2] === 'tmp_path' ? ` (${c('tmp_path_factory.mktemp(...)')} for ${c('tmp_path')})` : m[2] === 'monkeypatch' ? ` (${c('pytest.MonkeyPatch.context()')} for ${c('monkeypatch')})` : ''}.` },
  // The JVM
  // Memory outside the heap: -Xmx does not change it.
  { test: /OutOfMemoryError: (?:Direct buffer memory|Cannot reserve (\d+) bytes of direct buffer memory \(allocated: \d+, limit: (\d+)\))/, supersedes: [HEAP_GENERAL], hint: (m) => (m[1] ? `The code asked for ${mib(m[1])} of direct buffer memory and the cap is ${mib(m[2] as string)}. ` : '') + "The JVM ran out of direct (off-heap) buffer memory, not heap: `-XX:MaxDirectMemorySize` caps it (the step's `JAVA_TOOL_OPTIONS`, `MAVEN_OPTS` or surefire's `argLine` may set it low); raise that cap only if the work needs it, otherwise find the code that allocates direct buffers (`ByteBuffer.allocateDirect`, NIO reads of whole files) and make it reuse or release them." },
  { test: /OutOfMemoryError: unable to create (?:new )?native thread/, supersedes: [HEAP_GENERAL], hint: () => 'The JVM could not start another thread: the process hit the limit of threads (`ulimit -u`, the container\'s pids limit) or of memory for thread stacks, not the heap. Find what creates threads without bound (a pool per call, threads never joined) and reuse a bounded pool; raise the limit only if that many threads are meant.' },
  { test: /OutOfMemoryError: Metaspace/, supersedes: [HEAP_GENERAL], hint: () => "The JVM ran out of Metaspace (class metadata), not heap: raise `-XX:MaxMetaspaceSize` for the JVM that failed (Maven: `MAVEN_OPTS` or `.mvn/jvm.config`; tests: surefire's `argLine`; Gradle: `org.gradle.jvmargs`), or find what keeps loading classes (a class-loader leak, a code generator run in a loop)." },
  { test: /@(BeforeAll|AfterAll) method '[^']+' must be static/, hint: (m) => `JUnit 5 calls ${c(`@${m[1] as string}`)} methods without an instance: make the method \`static\`, or annotate the test class with ${c('@TestInstance(Lifecycle.PER_CLASS)')} so one instance serves all its tests.` },
  { test: /DateTimeParseException: Text '(\d{4}-\d{2}-\d{2}(?:T[\d:.]+)?)' could not be parsed at index (\d+)/, hint: (m) => `The text ${c(m[1] as string)} is an ISO date (${c('yyyy-MM-dd')}), and the formatter that parsed it expects another pattern (it failed at index ${m[2] as string}): parse it with the ISO form (${c('LocalDate.parse(text)')} or ${c('DateTimeFormatter.ISO_LOCAL_DATE')}), or make the formatter's pattern match what the input now holds.` },
  { test: /DateTimeParseException: Text '([^']+)' could not be parsed at index (\d+)/, hint: (m) => `The text ${c(m[1] as string)} does not fit the pattern of the formatter that parsed it, from index ${m[2] as string} on (\`LocalDate.parse\` without a formatter expects ISO ${c('yyyy-MM-dd')}): give a formatter with the pattern the text uses, or fix the input.` },
  // C++ link errors whose wording says the cause
  { test: /undefined (?:reference to|symbol:) [`'‘"]?vtable for ([\w:]+)/, hint: (m) => `The linker found no vtable for ${c(m[1] as string)}: the compiler emits it with the class's first non-inline virtual function, so one of its virtual functions (often the destructor ${c(`~${(m[1] as string).split('::').pop() as string}()`)}) is declared and never defined, or the .cpp that defines it is not in the link. Define it (or \`= default\` it) in the class's source file and make sure that file is compiled and linked.` },
  { test: /undefined (?:reference to|symbol:) [`'‘"]?([A-Za-z_]\w*)\(((?:unsigned |signed |const |struct )*[\w:]+[ *&]*(?:const[ *&]*)?(?:, ?(?:unsigned |signed |const |struct )*[\w:]+[ *&]*(?:const[ *&]*)?)*)?\)/, hint: (m) => `The reference is to a C++ function ${c(`${m[1] as string}(${m[2] ?? ''})`)} (the parameter types are part of its linked name). If ${c(m[1] as string)} is defined in a C file, its declaration must be inside \`extern "C" { ... }\` in the header the C++ code includes; otherwise the file that defines it is not in the link, or it is defined with other parameter types.` },
  // Coverage gates
  { test: /coverage threshold for (\w+) \((\d+(?:\.\d+)?%)\) not met: (\d+(?:\.\d+)?%)/, hint: (m) => `${(m[1] as string).replace(/^./, (x) => x.toUpperCase())} coverage is ${c(m[3] as string)}, under the threshold ${c(m[2] as string)}: add tests for the code the change added (the coverage table lists the files and their uncovered lines), or change \`coverageThreshold\` in the Jest configuration if the threshold itself is wrong.` },
  // A tool the step runs is not installed: the thing named by the tool's own format (helper fx5).
  { test: /^(\S*python[\d.]*): No module named ([\w.]+)$/, hint: (m) => `The Python that ran the step, ${c(m[1] as string)}, has no module ${c(m[2] as string)}: install it into that interpreter before the step (${c(`${m[1] as string} -m pip install ${(m[2] as string).split('.')[0] as string}`)}, or the requirements file the step installs from; the package's name may differ from the module's), or run the step with the Python that has it.` },
  { test: /pyenv: version [`']([^`']+)' is not installed(?: \(set by (\S+?)\))?/, hint: (m) => `pyenv has no Python ${c(m[1] as string)} on the agent${m[2] ? ` (${c(m[2])} asks for it)` : ''}: install it there (${c(`pyenv install ${m[1] as string}`)}, in the agent's image or a step before), or ask for a version that ${c('pyenv versions')} lists${m[2] ? ` in ${c((m[2]).split('/').pop() as string)}` : ''}.` },
  { test: /\bno such command: [`']([\w-]+)[`']/, hint: (m) => `cargo runs ${c(`cargo ${m[1] as string}`)} from a program named ${c(`cargo-${m[1] as string}`)} on the PATH, and the agent has none: install it there (${c(`cargo install cargo-${m[1] as string} --locked`)}, or its prebuilt binary in the agent's image), or change the CI script to a command the agent has.` },
  { test: /Missing required plugins: (.+?)\s*$/, hint: (m) => `pytest's configuration lists ${c(m[1] as string)} under \`required_plugins\` (in \`pytest.ini\`, \`pyproject.toml\`, \`tox.ini\` or \`setup.cfg\`) and the environment that runs pytest does not have it: install it there (${c(`pip install '${(m[1] as string).split(/,\s*/)[0] as string}'`)}, and list it in the test requirements), or drop it from \`required_plugins\` if the tests no longer need it.` },
  { test: /could not execute process `(\S+) \S*\brustc -vV` \(never executed\)/, hint: (m) => `cargo runs rustc through the wrapper ${c(m[1] as string)} (set by \`build.rustc-wrapper\` in \`.cargo/config.toml\` or by \`RUSTC_WRAPPER\`), and the agent cannot run it: install ${c(m[1] as string)} on the agent, or drop the wrapper setting for CI builds.` },
];

/** The remedy a diagnostic's own wording asks for, or undefined. */
export function diagnosticHint(message: string): string | undefined {
  for (const rule of RULES) {
    const m = rule.test.exec(message);
    if (m) return rule.hint(m);
  }
  return undefined;
}

/**
 * The table as remedy rules (remedyShape.ts): alternatives, most specific first, each cited after
 * the message; without a symbol to install, a known wording supersedes the missing tool's general step.
 */
export const DIAGNOSTIC_REMEDIES: RemedyRule[] = RULES.map((r, n) => ({
  id: `diagnostic/${n}`,
  specificity: 'wording',
  group: 'diagnostic',
  supersedes: [MISSING_TOOL_GENERAL, ...(r.supersedes ?? [])],
  steps: (i) => {
    const m = r.test.exec(i.f.message);
    return m ? [{ text: citedAfter(r.hint(m), i.m), lines: [] }] : [];
  },
}));

/** Maven's default and clean/site lifecycle phases (Maven's own list). */
const MAVEN_PHASES = ['validate', 'initialize', 'generate-sources', 'process-sources', 'generate-resources', 'process-resources', 'compile', 'process-classes', 'generate-test-sources', 'process-test-sources', 'generate-test-resources', 'process-test-resources', 'test-compile', 'process-test-classes', 'test', 'prepare-package', 'package', 'pre-integration-test', 'integration-test', 'post-integration-test', 'verify', 'install', 'deploy', 'pre-clean', 'clean', 'post-clean', 'pre-site', 'site', 'post-site', 'site-deploy'];

/** The phase a misspelt one most likely meant: within two edits (or a third of its length). */
function nearestPhase(name: string): string | undefined {
  const ranked = MAVEN_PHASES.map((p) => ({ p, d: editDistance(name.toLowerCase(), p) })).sort((a, b) => a.d - b.d);
  const best = ranked[0];
  return best && best.d <= Math.max(2, Math.floor(name.length / 3)) && best.d < (ranked[1]?.d ?? Infinity) ? best.p : undefined;
}
