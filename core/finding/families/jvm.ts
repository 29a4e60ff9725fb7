/**
 * The JVM: java, Maven and its plugins (surefire, enforcer), Gradle: evidence rules of the tuning rounds 9, 11, 13 (issue 25; docs/notes/analyzer.md, each
 * round's "opened" section), kept by tool family (rv3, session 43). Each is a tool's own wording for one cause,
 * never a case's words. Tried with RULES (rules.ts): `JVM_FIRST_RULES` before the general rules (each is
 * narrower than a general rule that matches the same line), `JVM_RULES` after the general rules and the cross-tool families' (rules.ts).
 */
import type { Rule } from '../ruleTypes.js';

export const JVM_FIRST_RULES: Rule[] = [
  // Groovy's Grape resolving a script's `@Grab` (Ivy's words: `Error grabbing Grapes -- [unresolved dependency:
  // org.apache.commons#commons-csv;1.14.0: not found]`, under `General error during conversion:` of the compiler or a
  // `RuntimeException`): the dependency could not be fetched or found, before the script ran (session 53, t28: round 27).
  { cls: 'dependency-resolution', priority: 11, confidence: 'high', re: /\bError grabbing Grapes -- \[unresolved dependency: ([\w.-]+#[\w.-]+)[;\]]/, read: (m) => ({ tool: 'groovy', dependency: m[1] as string }) },
  // The java launcher given a jar that is not there (`Error: Unable to access jarfile target/x-1.4.0.jar`): the
  // command names a file the build did not make (an old artifact name, a wrong directory): the script's (medium: a
  // build that failed to make it would have said so above).
  { cls: 'ci-script', priority: 15, confidence: 'medium', re: /^Error: Unable to access jarfile (\S+)/, read: (m) => ({ tool: 'java', symbol: m[1] as string }) },
  // The JVM launcher that cannot load a build tool's wrapper (`Error: Could not find or load main class
  // org.gradle.wrapper.GradleWrapperMain`, Maven's `org.apache.maven.wrapper.MavenWrapperMain`): the wrapper's jar
  // (gradle/wrapper/gradle-wrapper.jar, .mvn/wrapper/maven-wrapper.jar) is not in the checkout, so the build tool never
  // started: a missing tool, not an exception of the project's code (round 18, helper t19).
  { cls: 'missing-tool', priority: 15, confidence: 'high', re: /^Error: Could not find or load main class ((?:[\w$]+\.)*wrapper\.\w*WrapperMain)\b/, read: (m) => ({ tool: /gradle/i.test(m[1] as string) ? 'gradle' : 'maven', symbol: m[1] as string }) },
  // Maven's `-pl`/`--projects` naming no module of the reactor (MavenExecutionException `Could not find the selected
  // project in the reactor: x`): the script's selection, nothing was built.
  { cls: 'ci-script', priority: 15, confidence: 'high', re: /\bCould not find the selected project in the reactor: (\S+)/, read: (m) => ({ tool: 'maven', symbol: m[1] as string }) },
  // The JDK's HTTP client (java.net.http) giving up on a server: `HttpTimeoutException: request timed out`,
  // `HttpConnectTimeoutException: HTTP connect timed out`: the network (or the service behind it), not the code.
  { cls: 'network', priority: 39, confidence: 'high', re: /\bjava\.net\.http\.Http(?:Connect)?TimeoutException\b/, read: () => ({ tool: 'java', exception: 'HttpTimeoutException' }) },
  // Surefire's forked test JVM that died while running the tests (`The forked VM terminated without properly saying
  // goodbye. VM crash or System.exit called?`, its `Process Exit Code: N` below): a crash inside the test run, a test
  // error (a test or the code under it called System.exit, or the JVM crashed). Exit code 137 (a kill) is read as
  // memory with this line as its message (tune5), so that code is left to it.
  {
    cls: 'test-error',
    priority: 30,
    confidence: 'medium',
    re: /\bThe forked VM terminated without properly saying goodbye\. VM crash or System\.exit called\?/,
    near: { re: /\bProcess Exit Code: (?!137\b)\d+/, from: 1, to: 6, required: true },
    read: () => ({ tool: 'maven-surefire' }),
  },
];

export const JVM_RULES: Rule[] = [
  // Surefire's verdict on a forked test JVM that died (`The forked VM terminated without properly saying goodbye.
  // VM crash or System.exit called?`) says why only in its exit code a few lines below: 137 (SIGKILL, the kernel's
  // OOM killer or a container's memory limit) is out of memory (helper t10). Any other code stays unexplained.
  {
    cls: 'out-of-memory',
    priority: 19,
    confidence: 'high',
    re: /The forked VM terminated without properly saying goodbye\b/,
    below: /Process Exit Code: 137\b/,
    read: () => ({ tool: 'surefire', exception: 'killed' }),
  },
  // Surefire's report of a forked test JVM that ran out of memory: the forked JVM's OutOfMemoryError message on the line
  // under `There was an error in the forked process` (`[ERROR] Java heap space`, `GC overhead limit exceeded`,
  // `Metaspace`), the test JVM's heap (argLine -Xmx) too small for what the tests did (test/fixtures/grammar
  // maven-surefire-fork-heap, surefire 3.2.5; session 49).
  {
    cls: 'out-of-memory',
    priority: 19,
    confidence: 'high',
    re: /^(?:\[ERROR\]\s+)?(Java heap space|GC overhead limit exceeded|Metaspace|Compressed class space|Requested array size exceeds VM limit)\s*$/,
    near: { re: /\bThere was an error in the forked process$/, from: -1, to: -1, required: true },
    read: (m) => ({ tool: 'surefire', exception: `OutOfMemoryError: ${m[1] as string}` }),
  },
  // Gradle's Exec task or plugin that could not start its program (`> A problem occurred starting process
  // 'command 'protoc''`): the program is not installed or not on the PATH of the build.
  { cls: 'missing-tool', priority: 46, confidence: 'medium', re: /^(?:> )?A problem occurred starting process 'command '([^']+)''/, read: (m) => ({ tool: 'gradle', symbol: m[1] as string }) },
  // Where the script ran a tool from the wrong directory or with a selection that names nothing: Maven's
  // MissingProjectException (`The goal you specified requires a project to execute but there is no POM in this
  // directory`), npm's `No workspaces found:` for its `--workspace` (helper t13): the script's call, ci-script.
  { cls: 'ci-script', priority: 15, confidence: 'high', re: /\bThe goal you specified requires a project to execute but there is no POM in this directory\b/, read: () => ({ tool: 'maven' }) },
  // The Maven enforcer's DependencyConvergence and RequireUpperBoundDeps rules (`Dependency convergence error for
  // g:a:jar:v. Paths to dependency are:`, `Require upper bound dependencies error for g:a:v paths to dependency are:`):
  // two paths of the dependency tree ask for different versions of one artifact, a resolution failure (helper t13).
  { cls: 'dependency-resolution', priority: 45, confidence: 'high', re: /\b(?:Dependency convergence|Require upper bound dependencies) error for (\S+?)\.? [Pp]aths to dependency are:/, read: (m) => ({ tool: 'maven-enforcer', dependency: m[1] as string }) },
];
