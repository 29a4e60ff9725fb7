/**
 * The words any tool uses for a cause (issue 25, round 6 preparation): a full disk, memory that
 * ran out, a time limit, a lost agent, a network that did not answer, a refused credential, a
 * program or version the machine lacks, a dependency the resolver could not provide, and the CI
 * script's own shell and invocation errors. No tool's format: the message's own words, whatever
 * program printed them. Used by the general evidence (evidence.ts, ablation.ts), which decides
 * only what the tool-family rules (rules.ts) left unknown; priorities as rules.ts's (a cause wins
 * over what it produced: the exception a full disk raised, the test a time limit stopped).
 */
import type { Rule } from './ruleTypes.js';

export const WORD_RULES: Rule[] = [
  // The machine that ran the build went away (an ssh session to the agent, the agent itself).
  {
    cls: 'agent-lost',
    priority: 5,
    confidence: 'medium',
    re: /\b(?:[Cc]onnection|[Cc]hannel|[Ss]ession) (?:to \S+ )?(?:was )?closed by (?:the )?remote(?: host| end| side)?\b|\bserver \S+ not responding\b|\b(?:agent|runner|worker|executor|build node)\b.{0,40}\b(?:went offline|was marked offline|(?:was |has been )?disconnected|lost (?:the )?connection|stopped responding)\b|\blost (?:the )?connection to (?:the )?(?:agent|runner|worker|executor|build node)\b/,
  },
  // Disk.
  {
    cls: 'disk-full',
    priority: 20,
    confidence: 'medium',
    re: /\bno space left on device\b|\bENOSPC\b|\bdisk quota exceeded\b|\b(?:disk|file ?system|volume|device|partition) (?:is )?full\b|\bnot enough (?:free )?(?:disk )?space\b|\bout of disk space\b|\bStorageFull\b|\berrno[= ]28\b|\bdatabase or disk is full\b|\bWrote only \d+ of \d+ bytes\b/i,
  },
  // Memory: the program's own report, the allocator's refusal, or the kernel's kill.
  {
    cls: 'out-of-memory',
    priority: 20,
    confidence: 'medium',
    re: /\bout of memory\b|\bmalloc (?:of (?:size )?\d+ (?:bytes )?)?failed\b|\bOutOfMemory(?:Error|Exception)?\b|\bcannot allocate memory\b|\bmemory allocation (?:of \d+ bytes )?failed\b|\b(?:failed|unable) to allocate (?:\d+ bytes|memory)\b|\berror allocating \d+ bytes\b|\b(?:heap|memory) (?:space )?exhausted\b|\ballowed memory size of \d+ bytes exhausted\b|\bMemoryError\b|\bbad_alloc\b|\bnot enough memory\b|\bOOM[- ]?[Kk]illed\b|\bKilled process \d+\b|^\s*(?:\S+: line \d+: +\d+ )?Killed(?:\s+\S.*)?$|^\S*make(?:\[\d+\])?: \*\*\* \[[^\]]*\] Killed$|\bcannot allocate \d+ bytes\b|\bexit (?:code|status) 137\b|\bsignal 9\b|\bSIGKILL\b/i,
  },
  // A dependency the resolver could not provide (before the network rule: a resolver's verdict may name its registry's URL).
  // Or installed versions that do not fit each other (`pip check`'s `X 1.0 has requirement Y==2, but you have Y 3`, pip's
  // resolver's `... which is incompatible`, npm's EOVERRIDE `conflicts with direct dependency`, go's `module declares its
  // path as: X` of a required or replaced module): round 18, t19.
  {
    cls: 'dependency-resolution',
    priority: 45,
    confidence: 'medium',
    re: /\bnot found in (?:the )?(?:registry|index|package index|repositor(?:y|ies))\b|\bno matching (?:version|versions|package|distribution)\b|\bcould not find (?:a )?(?:version|package|gem|artifact|dependency|library|crate) (?:that |for |named |['"`])|\b(?:unable|failed|could not|cannot) (?:to )?resolve (?:dependenc|the dependency|all dependencies|artifact|package|version)|\bcould not be resolved\b|\bversion solving failed\b|\bconflicting dependencies\b|\bunable to resolve dependency tree\b|\bunsatisfiable\b|\b(?:library|package|module|crate|gem|dependency) ["'`][\w.:/@+-]+["'`].{0,50}\bnot found\b|\bcannot find (?:package|module)(?: providing package)? ["'`]?(?![./])[\w@]|\bcould not find a package\b|\bcould not find (?:artifact )?[\w.-]+:[\w.-]+(?::[\w.-]+)*:\d|\b(?:do|does) not match the (?:hashes|checksums?)\b|\blib[\w+-]* (?:was )?not found\b|\binstall (?:the )?\S+-(?:dev|devel)\b|\bNo module named '[^'.]+'|\bCan't locate \S+ in @INC\b|\b(?:hashes|checksums?|integrity)\b.{0,30}\b(?:mismatch|do not match|does not match|check failed)\b|\bdepends on .{1,60} but .{1,60} does not have\b|\bin offline mode\b|\bhas requirement .{1,100}?, but you have\b|\brequires .{1,100}?, but you have .{1,100}? which is incompatible\b|\brequires [\w.-]+, which is not installed\b|\bconflicts with direct dependency\b|\bmodule declares its path as:/i,
  },
  // The network: a connection that was refused, a name that did not resolve, a route or TLS that failed.
  {
    cls: 'network',
    priority: 39,
    confidence: 'medium',
    // The JVM names a failed connection by its exception alone (java.net.http's `java.net.ConnectException` with no message).
    re: /\bconnection refused\b|\bjava\.net\.(?:ConnectException|NoRouteToHostException|http\.HttpConnectTimeoutException)\b|\bECONNREFUSED\b|\bECONNRESET\b|\bETIMEDOUT\b|\bENOTFOUND\b|\bEAI_AGAIN\b|\bEHOSTUNREACH\b|\bENETUNREACH\b|\bcould(?: not|n't) resolve (?:host|hostname|proxy)\b|\bname or service not known\b|\btemporary failure in name resolution\b|\bno such host\b|\bgetaddrinfo\b|\bnetwork is unreachable\b|\bno route to host\b|\bhost (?:is )?unreachable\b|\bconnection (?:reset|timed out|aborted)\b|\b(?:connect(?:ion)?|socket|read) time ?out\b|\btimed out waiting for (?:a |the )?connection\b|\b(?:failed|unable|could not|couldn't|cannot|can't) (?:to )?(?:connect|establish (?:a )?(?:new )?connection|open (?:a )?TCP connection)\b|\bcouldn't connect to server\b|\bdial tcp\b|\bTLS handshake (?:timeout|failed|error)\b|\bcertificate verify failed\b|\b(?:502 Bad Gateway|503 Service Unavailable|504 Gateway Time-?out)\b|\bClient\.Timeout exceeded\b|\bnet\/http: (?:request canceled|timeout awaiting response headers)\b/i,
  },
  // A time limit: the runner's, the CI's, `timeout`'s exit status 124.
  {
    cls: 'timeout-aborted',
    priority: 25,
    confidence: 'medium',
    // Not a connection's or a socket's limit (the network's), nor a quoted source line that raises one, nor a Go test's
    // own report line (`store_test.go:41: query: context deadline exceeded`: the test reports its operation's error); nor
    // Go's HTTP client's own limit (`Get "url": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`:
    // the server never answered in time, a network failure as curl's `(28) Operation timed out` is; round 18, t19).
    re: /^(?!.*\b(?:connect\w*|socket|network|dial|proxy|Client\.Timeout)\b)(?!\s*>\s)(?!.*\braise\b)(?!\s*\w+_test\.go:\d+: ).*(?:\btimed out\b|\btime ?out (?:after|of \d|exceeded|expired|reached|\(after)|\btimeout\b.{0,20}\bexceeded\b|\b\w*Timeout(?:Error|Exception)\b|\*\*\*Timeout\b|\bdeadline exceeded\b|\bDeadlineExceeded\b|\bexceeds? the deadline\b|\btime limit (?:exceeded|reached)\b|\bexceeded (?:the |its )?(?:time limit|timeout|maximum execution time)\b|\bexit (?:code|status) 124\b|\btook too long\b)/i,
  },
  // A credential or a permission the system refused.
  {
    cls: 'permission-credentials',
    priority: 50,
    confidence: 'medium',
    re: /\bpermission denied\b|\b(?:password|passphrase) (?:was |is )?(?:incorrect|wrong)\b|\b(?:incorrect|wrong) (?:password|passphrase)\b|\bfailed to authenticate\b|(?<![\w./-])EACCES(?![\w/-])|(?<![\w./-])EPERM(?![\w/-])|\boperation not permitted\b|\baccess (?:is )?denied\b|\bnot authori[sz]ed\b|\bunauthori[sz]ed\b|\bforbidden\b|(?:\berror|\bstatus|\bcode|\bHTTP(?:\/[\d.]+)?|\bresponse)[: ]+40[13]\b|\bE40[13]\b|\bauthentication (?:failed|required|failure)\b|\bunable to authenticate\b|\binvalid (?:credentials|token|password|username|api key)\b|\bbad credentials\b|\blogin failed\b|\bhost key verification failed\b|\bPermissionError\b|\bAccessDenied\w*\b|\battempt to write a readonly database\b|\bexit (?:code|status) 126\b|\bno identit(?:y|ies) matched\b|\bno (?:matching|suitable|usable) (?:secret |private )?key\b|\bdecryption failed\b|\bbad decrypt\b/i,
  },
  // A program the machine lacks, or one of a version the project cannot use.
  {
    cls: 'missing-tool',
    priority: 55,
    confidence: 'medium',
    re: /\bcommand not found\b|^(?:\S*\/)?python[\d.]*: No module named [\w.]+$|^(?:\S+: )?(?:line )?\d+: [\w.+-]+: not found$|\bexecutable file not found\b|\bis not recognized as (?:an internal or external command|the name of a cmdlet)\b|\bcannot run program\b|\b(?:program|command|executable|binary|tool) ["'`]?[\w.+-]+["'`]? (?:is )?not (?:found|installed)\b|\bis not installed\b|\bor (?:higher|newer|later) is required\b|\byou are (?:running|using) (?:version )?\d|\bnot in the allowed range\b|\b(?:release|version) \S+ (?:is )?not supported\b|\bunsupported (?:engine|runtime|toolchain|interpreter)\b|\b(?:requires|needs) (?:a )?newer (?:version|release)\b|\bversion \S+ is too old\b|\bexit (?:code|status) 127\b|\b(?!lib)(?<prog>[\w+-]+) (?:was )?not found\b.{0,80}\binstall (?:it\b|\k<prog>\b)|\b(?!lib)[\w.+-]+ is required to (?:build|run|generate|compile)\b/i,
  },
  // The linker's words (every linker uses them: GNU ld, gold, lld, mold, the MSVC linker, a loader's `undefined symbol`).
  {
    cls: 'link-error',
    priority: 32,
    confidence: 'medium',
    re: /\bundefined reference to\b|\bmultiple definition of\b|\bcannot find -l\S+|\bunable to find library -l\S+|\bundefined symbol\b|\bUndefined symbols for architecture\b|\bunresolved external symbol\b/,
  },
  // The CI script's own errors: its shell's syntax and variables, a wrong invocation, a name the build does not define.
  {
    cls: 'ci-script',
    priority: 14,
    confidence: 'medium',
    re: /^(?:\S+: )?line \d+: (?:.*: )?(?:syntax error\b|unbound variable$|bad substitution$|ambiguous redirect$|cd: .+: No such file or directory$|\.{0,2}\/[\w./-]+: No such file or directory$)|^(?:\S+: )?(?:\d+: )?Syntax error: .+ unexpected\b|\bmissing separator\b|\bNo rule to make target .*\bStop\.|\b(?:[Mm]issing|[Uu]nknown) (?:script|task|target|goal)\b|\b(?:task|target|goal|script) ["'`][\w:.-]+["'`] (?:not found|does not exist|is not defined)\b|\berror: unrecognized arguments?\b|\bMerge conflict in\b|^\s*! \[(?:rejected|remote rejected)\]/i,
  },
];
