/**
 * What a question asks, by weighted cues (keywords, synonyms, phrasings). A question may ask
 * several things ("who started it and with which parameters?"): it is cut into clauses and each
 * clause gets its best intent.
 */

export type IntentId =
  | 'failure'
  | 'fix'
  | 'tests'
  | 'ciVersion'
  | 'plugins'
  | 'executors'
  | 'master'
  | 'agents'
  | 'system'
  | 'aborter'
  | 'causes'
  | 'parameters'
  | 'duration'
  | 'result'
  | 'previous'
  | 'buildable'
  | 'jobType'
  | 'jobDescription'
  | 'systemMessage'
  | 'rootUrl'
  | 'changes'
  | 'builtOn'
  | 'startTime'
  | 'screen'
  | 'summary'
  | 'help'
  | 'step'
  | 'logLines'
  | 'flaky'
  | 'revision'
  | 'rerun'
  | 'showFile'
  | 'jobName'
  | 'buildNumber'
  | 'health'
  | 'queue'
  | 'upstream'
  | 'downstream'
  | 'config'
  | 'concurrency'
  | 'environment'
  | 'contextProblem'
  | 'lastSuccess'
  | 'failingSince'
  | 'seenBefore'
  | 'infraOrCode'
  | 'worksLocally';

type Cue = [RegExp, number];

/** "Can I ignore it?", "is it safe to skip this test?" (the flaky answer takes it, like "can I just retry?"). */
export const IGNORE_QUESTION = /\b(?:can|could|should|shall|may|is it (?:ok|okay|safe|fine))\b.*\b(?:ignore|disregard|mute|skip (?:it|this|that|the (?:test|failure|error|step)))\b/i;

/** Cues and their weights; the order breaks ties (earlier wins). */
const INTENTS: [IntentId, Cue[]][] = [
  [
    'aborter',
    [
      [/\bwho\b.*\b(abort(ed)?|cancel+(ed)?|stop(ped)?|kill(ed)?|interrupt(ed)?)\b/, 8],
      [/\b(aborted|cancel+ed|stopped|killed) by\b/, 6],
    ],
  ],
  [
    'tests',
    [
      [/\b(tests?|specs?|test cases?|test suites?|junit|unit tests?)\b/, 3],
      [/\b(which|what|how many|list|name|show)\b.*\btests?\b/, 2],
      [/\btests?\b.*\b(fail\w*|broke\w*|red|flak\w*)\b|\bfail\w*\s+(tests?|specs?)\b/, 5],
    ],
  ],
  [
    // "How do I fix it?" is its own answer (issue 25), not the diagnosis again.
    'fix',
    [
      [/\b(fix|fixes|fixing|remedy|solution|resolve|solve|repair)\b/, 4],
      [/\bhow (do|can|should|would|to) (i|we|you)?\s*(fix|solve|resolve|repair|correct)\b|\bhow to (fix|solve|resolve|repair)\b/, 9],
      [/\b(fix|solve|repair|resolve|correct)\b.*\b(build|it|this|that|error|failure|pipeline|job|problem|issue|test)\b/, 8],
      [/\bhelp me\b.*\b(fix|debug|solve|repair|troubleshoot)\b/, 12],
      // A follow-up about the change to make (ux6: "which import should I move?" got the log's head).
      [/\b(which|what) (\w+ )?(should|must|do|can) (i|we) (change|move|edit|remove|delete|rename|update|add|touch)\b/, 8],
      // "should I change src/ringbuf.c?", "is the bug in cart.js?": a follow-up about where to make the fix (ux8), not about the build's changes.
      [/\b(should|must|shall|do|can) (i|we) (need to |have to )?(change|edit|modify|touch|update)\b|\b(is|was) the (bug|problem|error|fault|fix) in\b/, 8],
      // "should I make roundCents public again?" (ux9: answered as a question about `make`).
      [/\b(should|must|shall|can) (i|we) (just )?make \S+ (public|private|internal|protected|static|final|open|nullable|optional|const|async|virtual)\b/, 8],
      [/\bwhat (should|do|can|must) (i|we) do\b|\bnext steps?\b|\bhow (do|can|should) (i|we) (get|make) (it|this|the build) (green|pass\w*|work\w*)\b|\bwhat (should|do) (i|we) change\b/, 8],
      // German and French: "wie behebe ich das", "comment corriger".
      [/\b(beheben|behebe|reparieren|corriger|réparer|reparer)\b/, 8],
    ],
  ],
  [
    // "It works on my machine (on my Mac), why not on CI?": what the CI run shows of where and with what it ran (ux14).
    'worksLocally',
    [
      [/\b(?:works?|worked|passe[sd]|pass|runs?|ran|fine|green|ok|builds?|succeeds?)\b.*\b(?:on|in) (?:my|our) (?:own )?(?:machine|mac|macbook|laptop|computer|pc|box|workstation|desktop|local\w*|dev (?:machine|box|env\w*))\b/, 14],
      [/\b(?:works?|worked|passe[sd]|pass|runs?|ran|fine|green|builds?)\b.*\blocally\b|\blocally\b.*\b(?:works?|worked|passe[sd]|fine|green)\b/, 14],
      [/\b(?:fails?|failing|broken|red)\b.*\bonly (?:on|in) (?:ci|jenkins|the agent|the build server|the runner)\b|\bonly (?:fails?|failing|breaks?|broken)\b.*\b(?:on|in) (?:ci|jenkins|the agent|the build server|the runner)\b|\bdiffer\w* between (?:my|our) (?:machine|mac|laptop|local\w*) and (?:ci|jenkins)\b/, 12],
    ],
  ],
  [
    // "Was it the infrastructure or the code?": which side the first error is on (issue 25).
    'infraOrCode',
    [
      [/\b(infra\w*|environment\w*|agents?|machines?|runners?|network|ci|jenkins|setup)\b.*\b(or|vs\.?|versus)\b.*\b(code|tests?|changes?|commits?|my|our|us)\b/, 12],
      [/\b(code|tests?|changes?|commits?)\b.*\b(or|vs\.?|versus)\b.*\b(infra\w*|environment\w*|agents?|machines?|runners?|ci|jenkins|setup)\b/, 12],
      [/\bis (it|this) (my|our|the) (code|fault|change)\b|\b(my|our) (fault|code'?s? fault)\b|\bis (it|this) (an? )?(infra\w*|environment\w*) (problem|issue|failure)\b/, 10],
    ],
  ],
  [
    'failure',
    [
      [/\b(why|how come|reason)\b.*\b(fail\w*|broke\w*|break\w*|red|error\w*|crash\w*|unstable|abort\w*|stopp?ed|killed|cancel+ed)\b/, 6],
      // German and French: "warum ist der Build fehlgeschlagen", "pourquoi le build a échoué".
      [/\b(warum|wieso|weshalb|pourquoi)\b|\b(fehlgeschlagen|fehler|kaputt|échoué|echoue|erreur|cassé|plantage)\b/, 6],
      [/\b(which|what) (file|line)\b.*\b(error|fail\w*|broke\w*|problem)\b|\bwhere\b.*\b(error|fail\w*|broke\w*|problem|bug|issue|wrong|culprit)\b/, 4],
      // A bare "where is it?" in a chat about a failed build asks where the failure is (ux8: "I can't answer that").
      [/^(?:and |so )?where(?: (?:is|was) (?:it|this|that))?(?: exactly)?$/, 6],
      // "was it a timeout?", "did it run out of memory?": a question about the failure's kind.
      [/\b(out of memory|oom|time ?outs?|timed out|dns|disk full|flaky network)\b/, 6],
      [/\b(network|dns|permissions?|auth\w*|credentials?|compil\w*|dependenc\w*|disk|docker|memory|proxy|firewall)\b.*\b(issues?|problems?|errors?|failures?|denied|full)\b/, 6],
      [/^\W*(the |root |what is the )?cause\W*$|\b(which|what) (file|line)\b/, 6],
      // "what does the compiler say?", "show me the error": the error's own text.
      [/\bwhat does the (compiler?|linter|type ?checker|error|build)\b.*\bsay\b|\bshow (me )?the (errors?|compiler (errors?|output))\b/, 6],
      [/\bwhat\b.*\b(broke|went wrong|go wrong|happened|is wrong|'?s wrong|failed|is failing|caused)\b/, 5],
      [/\b(errors?|exceptions?|stack ?traces?|tracebacks?|failures?|root cause|cause of|panic)\b/, 3],
      [/\b(fail\w*|broke\w*|crash\w*|red)\b/, 2],
      [/\b(build|pipeline|job|it|run|deploy\w*|stage|step)\b.*\b(fail\w*|broke\w*|crash\w*)\b/, 2],
      [/\b(debug|troubleshoot)\b/, 3],
      // "why did the Build stage pass?": a stage that passed in a failed build is part of how it failed, not "did the build pass?" (ux10).
      [/\bwhy\b.*\b(stage|step)\b.*\b(pass\w*|succe\w*|green|ok)\b|\bwhy\b.*\b(pass\w*|succe\w*|green)\b.*\b(stage|step)\b/, 6],
      [/\b(docker|daemon|container)\b.*\b(down|broken|not running|problem|issue|fail\w*)\b/, 6],
      // "What does ERR_PACKAGE_PATH_NOT_EXPORTED mean?", "why ENOENT?": an error code (marked `%name`) is the failure's (ux14).
      [/%[a-z]/, 4],
      [/\bwhat (?:does|do|is|are|'?s)\b.*%[a-z]|%[a-z][a-z0-9_]*\b.*\b(?:mean\w*|stand for)\b|\bexplain\b.*%[a-z]/, 8],
      [/\b(log|console|output)\b/, 1],
    ],
  ],
  [
    'plugins',
    [
      [/\bplug-?ins?\b/, 4],
      [/\b(installed|enabled)\b/, 2],
      [/\b(is|are)\b.+\b(installed|enabled)\b/, 1],
      [/\b(do|does)\s+(we|it|jenkins|the server|this server|this instance)\s+have\b/, 3],
    ],
  ],
  [
    'ciVersion',
    [
      [/\bver(sions?|s)?\b/, 2],
      [/\b(jenkins|ci|server|controller|core|instance)\b/, 1],
      [/\b(which|what)\s+jenkins\b|\bjenkins\s+(release|lts|build number)\b/, 2],
      [/\b(up to date|outdated|upgrade|latest)\b/, 1],
      [/\b(jenkins|ci|server|controller|core|instance)\b.*\b(up to date|outdated|upgrad\w*|latest|too old|old)\b/, 3],
    ],
  ],
  [
    'executors',
    [
      [/\bexecutors?\b/, 6],
      [/\b(parallel|concurrent|simultaneous)\b.*\bbuilds?\b|\bbuild slots?\b/, 4],
      [/\bhow many builds\b.*\b(parallel|concurrent\w*|at once|same time|simultaneous\w*)\b/, 6],
    ],
  ],
  [
    'master',
    [
      [/\b(master|controller|built-?in( node)?|main node|primary node)\b/, 3],
      [/\b(online|offline|up|down|alive|healthy|reachable|connected|disconnected)\b/, 1],
    ],
  ],
  [
    'agents',
    [
      [/\b(agents?|slaves?|nodes|workers?|build machines?|runners?|clouds?)\b/, 4],
      [/\b(online|offline|down|disconnected|connected|idle|available)\b/, 1],
    ],
  ],
  [
    'system',
    [
      [/\b(os|operating system|linux|windows|mac ?os|kernel|arch(itecture)?|platform)\b/, 4],
      [/\b(memory|ram|heap|cpus?|cores?|processors?|hardware|specs|disk|storage|disk space|time ?zone|locale|encoding|uptime|load average)\b/, 4],
      [/\b(java|jvm|jdk|jre)\b/, 3],
      [/\b(java|jvm|jdk|jre|os|kernel)\b.*\bversion\b|\bversion\b.*\b(java|jvm|jdk|jre|os|kernel)\b/, 3],
    ],
  ],
  [
    'causes',
    [
      [/\bwho\b.*\b(start\w*|trigger\w*|kick\w*|ran|run|launch\w*|push\w*|requested)\b/, 6],
      [/\b(causes?|caused by|trigger(ed|s)?|started by|kicked off|launched by)\b/, 3],
      [/\bwhy\b.*\b(run|ran|start|started|triggered|built)\b/, 3],
      [/\b(wer|qui)\b.*\b(gestartet|ausgelöst|angestoßen|lancé|lance|déclenché|declenche|démarré)\b/, 8],
    ],
  ],
  [
    'parameters',
    [
      [/\bparam(eter)?s?\b/, 6],
      [/\b(args|arguments|inputs|build (variables|options))\b/, 4],
      [/\b(variables|options)\b/, 2],
      [/\bwith what values\b|\bwhich values\b/, 3],
    ],
  ],
  [
    'duration',
    [
      [/\bhow long\b/, 6],
      [/\b(duration|took|take|taken|elapsed|run ?time|build time|timing|time spent|minutes|seconds)\b/, 3],
      [/\b(slow|fast|quick)(er|est)?\b|\bthan usual\b/, 4],
      [/\bwie lange\b|\bcombien de temps\b|\bdurée\b|\bdauer\b/, 6],
    ],
  ],
  [
    'previous',
    [
      [/\b(previous|prior|preceding|earlier|last time|before)\b.*\b(build|run|one)\b/, 5],
      [/\b(previous|prior|preceding)\b/, 3],
      [/\b(did|was|has) (it|this|the build|the job) (work|pass|succeed|been green|green)\w* (before|previously|last time|yesterday)\b|\bused to\b/, 6],
      [/\bbuild before\b|\bbefore (this|that|it)\b/, 3],
      [/\b(regression|new failure|first time|used to (work|pass))\b/, 3],
    ],
  ],
  [
    'result',
    [
      [/\b(result|outcome|verdict)\b/, 4],
      [/\bstatus\b/, 3],
      [/\b(did|has|was|is)\b.*\b(pass\w*|succe\w*|green|fail\w*|red|work|ok|broken|unstable|abort\w*|finish\w*|done)\b/, 3],
      [/\b(still running|still building|in progress|(is|was) (it|the build) (running|building|finished|done))\b/, 4],
    ],
  ],
  [
    'buildable',
    [
      [/\bbuildable\b/, 7],
      [/\b(disabled|enabled)\b/, 2],
      [/\bcan (i|we|you|it|they) (be )?(build|run|trigger|start)\b/, 4],
      [/\bcan (this|the|that) (job|project|pipeline) be (built|run|triggered|started)\b/, 7],
      [/\b(is|was) (it|this|that|the) ?(job|project|pipeline)? (disabled|enabled)\b/, 6],
    ],
  ],
  [
    'jobType',
    [
      [/\b(type|kind|sort)\b.*\b(job|project)\b|\b(job|project)\b.*\btype\b/, 6],
      [/\b(pipeline|freestyle|free-style|multibranch|multi-branch|maven project|matrix)\b/, 2],
      [/\b(is|was) (this|it|the job) an? (pipeline|freestyle|free-style|multibranch|multi-branch|maven|matrix)\b/, 4],
      [/\b(is|was)\b.*\ban? (pipeline|freestyle|free-style|multibranch|multi-branch|maven|matrix)( job| project)?\s*$/, 4],
      [/\bjenkinsfile\b|\bpipeline (job|project)\b/, 5],
    ],
  ],
  [
    'jobDescription',
    [
      [/\bdescri(ption|be)\b/, 4],
      [/\bwhat (does|is) (this|the) (job|project|pipeline)( do| for| about)?\b/, 5],
      [/\bwhat does [\w./-]+ do\s*$|\bwhat is [\w./-]+ for\s*$/, 5],
      [/\b(job|project)\b/, 1],
    ],
  ],
  [
    'systemMessage',
    [
      [/\bsystem message\b/, 8],
      [/\b(banner|announcement|motd|message of the day|notice)\b/, 4],
    ],
  ],
  [
    'rootUrl',
    [
      [/\b(root|base|jenkins|server|ci|instance)\s+(url|address)\b/, 7],
      [/\burl\b|\bwhere is (jenkins|the server)\b|\bhostname\b/, 4],
      [/\b(link|address)\b|\bwhere can i (open|find|see)\b/, 4],
      [/\b(job|build|project|pipeline)('?s)? (url|link|address|web ?page)\b|\b(url|link|address) (of|to|for) (the|this) (job|build|project|pipeline)\b/, 5],
    ],
  ],
  [
    'changes',
    [
      [/\b(changes?|changed|commits?|changesets?|diffs?|scm|revision|sha|changelog|change log|different|difference|what is new)\b/, 4],
      [/\bwho\b.*\b(commit\w*|push\w*|merg\w*)\b/, 3],
      [/\bwho\b.*\b(broke|break\w*|caused|responsible|to blame)\b|\bwhose (fault|commit|change)\b/, 8],
      [/\bsince\b.*\b(green|pass\w*|success\w*|last good|working)\b/, 5],
    ],
  ],
  [
    'builtOn',
    [
      [/\b(which|what|where)\b.*\b(node|agent|machine|host|slave|worker)\b.*\b(run|ran|built|build|execute\w*)\b/, 6],
      [/\b(built|ran|run|executed) on\b/, 5],
      [/\b(which|what)\s+(node|agent|machine|host|slave|worker|box)\b/, 5],
      [/\bwhere\b.*\b(run|ran|built|executed)\b/, 6],
    ],
  ],
  [
    'startTime',
    [
      [/\bwhen\b.*\b(start\w*|run|ran|build|built|trigger\w*|happen\w*)\b/, 5],
      [/\b(timestamp|what time|what date|start time|started at)\b/, 5],
    ],
  ],
  [
    'screen',
    [
      [/\bwhere am i\b|\b(current|this) (page|screen|view)\b|\bwhich (page|screen)\b|\bcurrent ?screen\b/, 6],
      [/\b(what|which) (jenkins |ci )?(page|screen|view)\b|\b(page|screen) (am i|i am|i'?m)\b|\blooking at\b/, 6],
      [/\b(page|screen|view)\b.*\b(is this|am i|i'?m on|i was on|looking at)\b/, 3],
    ],
  ],
  [
    'step',
    [
      [/\b(which|what)\b.*\b(command|cmd|step|stage|task|script)\b.*\b(fail\w*|broke\w*|error\w*|died|crash\w*|exit\w*)\b/, 8],
      [/\b(which|what|in which)\s+(command|stage|step)\b/, 5],
      [/\bexit ?(code|status)\b|\breturn code\b/, 8],
    ],
  ],
  [
    'logLines',
    [
      // "line 7" of a source file the question names (`src/lib.rs:7`, "line 7 of main.go") is not the log's line 7 (ux9).
      [/^(?!.*[\w-]\.(?:java|kt|kts|scala|groovy|gradle|ts|tsx|mts|js|jsx|mjs|cjs|py|go|rs|c|cc|cpp|h|hpp|cs|rb|php|swift)\b).*\b(lines?|l)\s*#?\d+/, 9],
      [/\b(last|first|final)\s+(\d+\s+)?lines?\b|\b(tail|head|end|start|beginning|bottom|top) of the (log|console|output)\b|\btail\b/, 8],
      [/^(?!.*\b(error|fail\w*|exception|problem|wrong)\b).*\b(show|print|display|dump|paste|see|view|open)\b.*\b(log|console|output)\b/, 5],
    ],
  ],
  [
    // "show me the Jenkinsfile", "show me OrderTotals.java", "open src/app.ts" (answered from workspace snippets).
    'showFile',
    [
      [/\b(show|open|print|display|dump|paste|see|view|read|cat|give)\b.*\b(jenkinsfile|pipeline (script|definition|code|file)|workflowscript)\b/, 10],
      // (A job's config.xml is Jenkins' own file, not the workspace's: the job facts answer it.)
      [/^(?!.*\b(job'?s?|project'?s?|pipeline'?s?)\b.*\bconfig\.xml\b)(?=.*\b(show|open|print|display|dump|paste|see|view|read|cat|give|what is in|contents? of)\b.*[\w-]\.(?:java|kt|kts|scala|groovy|gradle|ts|tsx|mts|js|jsx|mjs|cjs|py|go|rs|c|cc|cpp|h|hpp|cs|rb|php|swift|xml|json|ya?ml|toml|properties|sh|md|txt|cfg|ini|sql)\b)/, 10],
      [/\bjenkinsfile\b/, 4],
    ],
  ],
  [
    'flaky',
    [
      [/\b(flak\w*|intermittent\w*|random\w*|sporadic\w*|transient|one-off|fluke|just retry|re-?run (it|fix))\b/, 9],
      // "can I ignore it?": only noise may be ignored, and the flaky answer says what one build shows of that (ux7).
      [IGNORE_QUESTION, 9],
    ],
  ],
  [
    'revision',
    [
      [/\b(which|what)\b.*\b(commit|revision|sha|hash|branch|ref|tag)\b.*\b(built|build|checked out|used|tested|deployed|run|ran|was it|is it|on)\b/, 7],
      [/\b(which|what)\s+(branch|revision|sha|git ref)\b|\bbranch\b/, 5],
      [/\bgit (commit|sha|revision|hash)\b|\bcommit (sha|hash|id)\b/, 5],
    ],
  ],
  [
    'rerun',
    [
      [/\b(re-?run|retry|rebuild|re-?trigger|restart|replay|build (it )?again|run (it )?again|start (it )?again|kick (it )?off again)\b/, 7],
    ],
  ],
  [
    'queue',
    [
      // "why is it queued?", "is my build stuck because the built-in node is offline?"
      [/\b(queued?|queuing|queueing|stuck|hang(ing|s)?|hung|pending|waiting|blocked)\b/, 7],
      [/\b(not|never|won'?t|doesn'?t|does not|didn'?t|did not)\s+(start\w*|run\w*|begin\w*|pick\w* up)\b/, 7],
      [/\b(no|any|free|available|idle)\s+executors?\b.*\b(build|job|run)\b|\bwaiting for (an )?(executor|agent|node)\b/, 4],
    ],
  ],
  [
    'jobName',
    [
      [/\b(which|what)\s+(job|project|pipeline)\b.*\b(is (this|it)|am i|this is|are we|we are|looking at|on|viewing)\b/, 7],
      [/\bjob('?s)?\s+name\b|\bname of (the|this) (job|project|pipeline)\b|\b(which|what) (job|project|pipeline)\s*$/, 7],
      [/\bwhat (job|project|pipeline) (is|was) (this|it|that|built|running)\b/, 7],
    ],
  ],
  [
    'buildNumber',
    [
      [/\bbuild\s*(number|no\.?|num|#|id)\b|\bnumber of (the|this) build\b/, 7],
      [/\b(which|what)\s+(build|run)\s+(is|was)\s+(this|it|that)\b|\b(which|what) build am i\b/, 7],
    ],
  ],
  [
    'health',
    [
      [/\bhealth\s*score\b|\bweather\b.*\b(job|project|pipeline|icon|build)s?\b|\b(job|project|pipeline)('?s)? weather\b|\b(build )?stability\b/, 8],
      [/\b(job|project|pipeline)\b.*\bhealth(y)?\b|\bhealth(y)?\b.*\b(job|project|pipeline)\b/, 7],
      [/\b(is|how) (this|the|that) (job|project|pipeline) (stable|healthy|reliable)\b|\bhow (stable|healthy|reliable) is (this|the|that|it)\b/, 8],
    ],
  ],
  [
    'upstream',
    [
      [/\bupstream\b/, 9],
      [/\b(jobs?|projects?|pipelines?)\b.*\btrigger\w*\s+(this|the|it|our)\b/, 9],
      [/\b(jobs?|projects?|pipelines?)\s+(that\s+)?(runs?|ran|builds?|is built|go(es)?|comes?)\s+(right\s+)?before\b/, 10],
      [/\bwhat\s+(starts|triggers|kicks off)\s+(this|the|it)\b/, 9],
    ],
  ],
  [
    'downstream',
    [
      [/\bdownstream\b/, 9],
      [/\b(jobs?|projects?|pipelines?)\b.*\b(runs?|ran|triggered|start\w*|built|go(es)?)\s+(right\s+)?after\b/, 10],
      [/\bwhat\s+(jobs?\s+|projects?\s+)?(does|will|did)\s+(this|it|the)\s*(job|project|pipeline|build)?\s*(trigger|start|kick off)\b/, 10],
      [/\b(triggered|started|runs?|built|kicked off)\s+(right\s+)?after\s+(this|the|it)\b|\bafter (this|the) (job|build|project)\b.*\b(trigger\w*|start\w*|run\w*)\b/, 10],
    ],
  ],
  [
    'config',
    [
      [/\bconfig(\.xml|uration|s)?\b/, 7],
      [/\b(job|pipeline|project)\s+(definition|settings|setup)\b|\bjenkinsfile\b|\bconfigured\b/, 4],
      [/\b(repo|repository|scm|git url|remote)\b.*\b(job|project|pipeline|config\w*)\b|\b(job|project|pipeline)\b.*\b(repo|repository|scm)\b/, 6],
    ],
  ],
  [
    'concurrency',
    [
      [/\bconcurrent(ly)?\b|\bsimultaneous(ly)?\b|\b(same time|at once|in parallel)\b/, 5],
      [/\b(this|the|that) (job|project|pipeline)\b|\bof (this|the) (job|project|pipeline)\b|\btwo builds\b|\bbuilds of\b/, 2],
    ],
  ],
  [
    'environment',
    [
      [/\b(environment|env)\b/, 7],
      // A variable named outright: GIT_URL, BUILD_URL, CHANGE_ID... (written in capitals: normalizeQuestion marks it `$git_url`),
      // or in lower case with a CI variable's prefix or beside "variable". A code name (`to_string`, `read_stations`) is none (ux13).
      [/\$[a-z][a-z0-9]*_[a-z0-9_]+\b/, 6],
      [/\b(?:git|build|job|node|change|branch|jenkins|github|gitlab|ci|runner|workspace|executor|bitbucket)_[a-z0-9_]+\b|\bvar(?:iable)?s?\b.*\b[a-z][a-z0-9]*_[a-z0-9_]+\b|\b[a-z][a-z0-9]*_[a-z0-9_]+\b.*\bvar(?:iable)?s?\b/, 6],
    ],
  ],
  [
    'contextProblem',
    [
      [/\b(problems?|errors?|issues?|trouble|fail\w*|wrong)\b.*\b(read\w*|pars\w*|upload\w*|collect\w*|sen[dt]\w*)\b.*\bcontext\b/, 11],
      [/\bcontext\b.*\b(problems?|errors?|issues?|missing|incomplete|fail\w*|broken|partial|complete)\b|\bcontext ?parsing\b/, 11],
      [/\b(missing|incomplete|partial|unread\w*|problems? reading)\b.*\bcontext\b/, 11],
    ],
  ],
  [
    'failingSince',
    [
      [/\b(since when|how long)\b.*\b(fail\w*|broken|red|erroring|happening)\b/, 10],
      [/\bwhen did (it|this|the (builds?|jobs?|tests?))\b.*\b(start|begin)\w*\s+(to\s+)?(fail|break|error|go red)\w*/, 10],
      [/\bwhen did (this|the) (failure|error|problem|breakage)\b.*\b(start|begin|first)\w*/, 10],
      [/\b(fail\w*|broken|red)\s+(since|for how long)\b/, 8],
    ],
  ],
  [
    'seenBefore',
    [
      [/\b(happen\w*|seen|occur\w*|fail\w* (like this|this way|the same way))\b.*\b(before|previously|earlier|in the past)\b/, 10],
      [/\b(is|was) (this|it) (a )?new (failure|error|problem)?\b|\bfirst time\b|\b(same|this) (failure|error) (before|again)\b|\bis (this|it) new\b/, 9],
      [/\b(recurring|recurrent|again and again|keeps? failing|failing again)\b/, 8],
    ],
  ],
  [
    'lastSuccess',
    [
      // "what changed since the last green build" asks about changes, not about that build.
      [/^(?!.*\b(chang\w*|since|diff\w*|commits?)\b).*(\blast\s+(successful|good|green|passing|stable|working)\b|\blast\s+(passed|succeeded)\b)/, 10],
      [/^(?!.*\b(chang\w*|since|diff\w*|commits?)\b).*\bwhen\b.*\b(last|latest)\b.*\b(pass\w*|succe\w*|green|work\w*)\b/, 10],
      [/\b(when|which build)\b.*\b(did|was)\b.*\b(last)\b/, 3],
    ],
  ],
  [
    'summary',
    [
      [/\b(summar\w+|overview|tl;?dr|recap|brief me|status report|what do you know|tell me (about|everything)|what'?s going on|catch me up)\b/, 6],
      [/\b(context|everything)\b/, 2],
    ],
  ],
  [
    'help',
    [
      [/^\s*(hi|hello|hey|yo|help|thanks|thank you|thx|ty|cheers|merci|danke|hallo|bonjour|good (morning|evening|night))\b/, 5],
      [/\bwhat can (you|i) (do|answer|ask)\b|\bwho are you\b|\bhelp\b/, 6],
    ],
  ],
];

/** Below this a clause is not understood. */
const THRESHOLD = 3;

export interface IntentScore {
  id: IntentId;
  score: number;
}

/** Every intent that scores on `text`, best first. */
export function scoreIntents(text: string): IntentScore[] {
  const lower = normalizeQuestion(text);
  const scores: IntentScore[] = [];
  for (const [id, cues] of INTENTS) {
    let score = 0;
    for (const [pattern, weight] of cues) if (pattern.test(lower)) score += weight;
    if (score > 0) scores.push({ id, score });
  }
  // Stable sort keeps the table order for ties.
  return scores.sort((a, b) => b.score - a.score);
}

/**
 * Domain words the cues are written in: a question word that is not a known word but one typo
 * away from one of these (same first letter; a swap of two letters counts as one typo) is read
 * as it ("fial" is "fail", "pluign" is "plugin").
 */
const CUE_WORDS = (
  'fail failed failing fails failure failures build builds built broke broken error errors exception ' +
  'plugin plugins version versions jenkins executor executors parameter parameters params duration trigger ' +
  'triggered started agent agents offline online changed changes commit commits summary summarize summarise ' +
  'timeout memory network permission permissions stage command tests flaky result passed previous branch ' +
  'installed install wrong happened aborted description system message executed running cancelled revision ' +
  'dependency dependencies compile compilation console output pipeline upstream unstable successful success ' +
  'stacktrace workspace executed'
).split(' ');

/** Words that look like typos of cue words but are words of their own ("tail", "went", "state"). */
const KNOWN_WORDS = new Set([
  ...CUE_WORDS,
  ...(
    'tail text file fall last fast past list lost head time take took note code load plan rest stop step show ' +
    'what which where when while with this that then than they them there their these those does did done ' +
    'doing have has was were will would should could about after again also because before being from into ' +
    'just like make more most much only other over same some such very your yours went want wants know need ' +
    'tell give fine work works worked working state status cause causes caused green main master controller ' +
    'server timer deploy deployed image docker artifact artifacts credentials secret secrets slave slaves ' +
    'worker workers label labels user users tool tools missing exit exited test node nodes line lines pass ' +
    'start stage stages logs slow slower faster long short today ever never always every everything anything ' +
    'something here help hello thanks thank please debug fixed jobs runs ran job fail mail rail bail sail ' +
    'wait went whole world word bring brings broken brown abort about above agent again against ' +
    'change chance charge check comment common couple current data date days during each else enough even ' +
    'find first full good great know latest least left less likely look looks many maybe means mine move ' +
    'name named names next number once open part people place point possible probably quick real really ' +
    'reason right same says seems send sent since size still sure system take talk team thing things think ' +
    'though through told tried true trying turn under until upon used using version view ways week well ' +
    'whole whose wrote year years yesterday'
  ).split(' '),
]);

/** Short typos people make often, fixed outright. */
const COMMON_TYPOS: Record<string, string> = { teh: 'the', waht: 'what', whta: 'what', hwo: 'how', y: 'why', u: 'you', r: 'are', pls: 'please', plz: 'please', whats: 'what is', hows: 'how is', wheres: 'where is' };

/** Optimal string alignment distance: insertions, deletions, substitutions, adjacent swaps. */
function typoDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i] as number[];
      const up = d[i - 1] as number[];
      row[j] = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

const corrections = new Map<string, string>();

/** The vocabulary word a typo stands for, or the word itself. */
function correctWord(word: string): string {
  const common = COMMON_TYPOS[word];
  if (common !== undefined) return common;
  if (word.length < 4 || KNOWN_WORDS.has(word) || !/^[a-z]+$/.test(word)) return word;
  const known = corrections.get(word);
  if (known !== undefined) return known;
  const max = word.length >= 8 ? 2 : 1;
  let best = word;
  let bestDistance = max + 1;
  for (const candidate of CUE_WORDS) {
    if (candidate.length < 4 || candidate[0] !== word[0]) continue;
    const distance = typoDistance(word, candidate, max);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (corrections.size < 5000) corrections.set(word, best);
  return best;
}

/**
 * An error code as programs print it, in capitals: Node's `ERR_PACKAGE_PATH_NOT_EXPORTED`, C's
 * `EXIT_FAILURE`, an errno name (`ENOENT`, `EADDRINUSE`, `EAI_AGAIN`), npm's `ELIFECYCLE`, a name that says
 * it is an error after its first word (`SSL_ERROR_SYSCALL`, `TLS_HANDSHAKE_TIMEOUT`; `ERROR_LOG_DIR` may be a setting). Asked about, it is the failure's, not an
 * environment variable's (ux14; rv1's item 4).
 */
export const ERROR_CODE =
  /(?<![\w$%])(?:(?:ERR|EXIT)_[A-Z0-9_]+|E(?:NO[A-Z]{2,}|ACCES|ADDR(?:INUSE|NOTAVAIL)|CONN(?:REFUSED|RESET|ABORTED)|TIMEDOUT|PERM|EXIST|ISDIR|MFILE|NFILE|PIPE|AGAIN|AI_[A-Z]+|BUSY|INVAL|LOOP|NAMETOOLONG|ROFS|XDEV|HOSTUNREACH|NETUNREACH|LIFECYCLE|RESOLVE|INTEGRITY|BADF|FAULT|INTR|NOTEMPTY|NOTFOUND|NOTDIR|NOTCONN|CANCELED|OVERFLOW|2BIG|DQUOT|SRCH|CHILD|DEADLK)|[A-Z][A-Z0-9]*_(?:[A-Z0-9]+_)*(?:ERROR|FAILED|FAILURE|EXCEPTION|DENIED|REFUSED|TIMEOUT|TIMEDOUT|INVALID|MISMATCH)(?:_[A-Z0-9]+)*)\b/g;

/** Lower case (an error code marked `%name`; another name in capitals with an underscore, a variable's, marked `$name`), curly quotes straightened, contractions the cues know, typos of cue words fixed. */
export function normalizeQuestion(text: string): string {
  return text
    .replace(ERROR_CODE, (name) => `%${name}`)
    .replace(/(?<![\w$%])[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/g, (name) => `$${name}`)
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/\bwhat's\b/g, 'what is')
    .replace(/\bwho's\b/g, 'who is')
    .replace(/\bdidn't\b/g, 'did not')
    .replace(/\bisn't\b/g, 'is not')
    .replace(/\baren't\b/g, 'are not')
    .replace(/\p{L}+/gu, (word) => correctWord(word))
    .replace(/\s+/g, ' ')
    .trim();
}

/** Splits a question into sentences: the pieces that may each ask something. */
export function clausesOf(text: string): string[] {
  return normalizeQuestion(text)
    .split(/[?;\n]+|\.\s+/)
    .map((c) => c.trim())
    .filter((c) => c.length > 0);
}

function bestIntent(text: string): IntentId | undefined {
  const best = scoreIntents(text)[0];
  return best && best.score >= THRESHOLD ? best.id : undefined;
}

/**
 * The intents of one sentence: "who started it and with which parameters" asks two things, "is
 * the git and the docker plugin installed" one. A sentence is split on "and" and commas only
 * when at least two of its parts are understood on their own.
 */
function intentsOfClause(clause: string): IntentId[] {
  const parts = clause.split(/,\s*(?:and\s+)?|\s+and\s+(?:also\s+)?|\s+also\s+/).filter((p) => p.trim());
  if (parts.length > 1) {
    const understood = parts.map(bestIntent).filter((id): id is IntentId => id !== undefined);
    if (understood.length >= 2) return understood;
  }
  const whole = bestIntent(clause);
  return whole ? [whole] : [];
}

/**
 * The intents a question asks, in the order asked, at most `max`. A clause that matches nothing
 * on its own is ignored; when no clause matches, the whole question is tried once more (cues
 * may span a clause boundary).
 */
export function detectIntents(question: string, max = 3): IntentId[] {
  const found: IntentId[] = [];
  for (const clause of clausesOf(question)) {
    for (const id of intentsOfClause(clause)) if (!found.includes(id)) found.push(id);
  }
  if (found.length === 0) {
    const whole = bestIntent(normalizeQuestion(question));
    if (whole) found.push(whole);
  }
  // Asking why a build failed and whether it failed is one question, not two.
  const dropWhenPresent: [IntentId, IntentId][] = [
    ['result', 'failure'],
    ['result', 'fix'],
    ['result', 'tests'],
    ['master', 'executors'],
    ['help', 'summary'],
    // "It works on my Mac, why does it fail here?" asks what differs, the failure named in that answer.
    ['failure', 'worksLocally'],
  ];
  const kept = found.filter((id) => !dropWhenPresent.some(([drop, keep]) => id === drop && found.includes(keep)));
  return kept.slice(0, max);
}
