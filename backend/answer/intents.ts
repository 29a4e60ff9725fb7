/**
 * What a question asks, by weighted cues (keywords, synonyms, phrasings). A question may ask
 * several things ("who started it and with which parameters?"): it is cut into clauses and each
 * clause gets its best intent.
 */

export type IntentId =
  | 'failure'
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
  | 'help';

type Cue = [RegExp, number];

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
    'failure',
    [
      [/\b(why|how come|reason)\b.*\b(fail\w*|broke\w*|break\w*|red|error\w*|crash\w*|unstable)\b/, 6],
      [/\bwhat\b.*\b(broke|went wrong|go wrong|happened|is wrong|'?s wrong|failed|is failing|caused)\b/, 5],
      [/\b(errors?|exceptions?|stack ?traces?|tracebacks?|failures?|root cause|cause of|panic)\b/, 3],
      [/\b(fail\w*|broke\w*|crash\w*|red)\b/, 2],
      [/\b(fix|how do i fix|how to fix|resolve|debug|troubleshoot)\b/, 3],
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
      [/\bversions?\b/, 2],
      [/\b(jenkins|ci|server|controller|core|instance)\b/, 1],
      [/\b(which|what)\s+jenkins\b|\bjenkins\s+(release|lts|build number)\b/, 2],
      [/\b(up to date|outdated|upgrade|latest)\b/, 1],
    ],
  ],
  [
    'executors',
    [
      [/\bexecutors?\b/, 6],
      [/\b(parallel|concurrent|simultaneous)\b.*\bbuilds?\b|\bbuild slots?\b/, 4],
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
    ],
  ],
  [
    'causes',
    [
      [/\bwho\b.*\b(start\w*|trigger\w*|kick\w*|ran|run|launch\w*|push\w*|requested)\b/, 6],
      [/\b(causes?|caused by|trigger(ed|s)?|started by|kicked off|launched by)\b/, 3],
      [/\bwhy\b.*\b(run|ran|start|started|triggered|built)\b/, 3],
    ],
  ],
  [
    'parameters',
    [
      [/\bparam(eter)?s?\b/, 6],
      [/\b(arguments|inputs|variables|options)\b/, 2],
      [/\bwith what values\b|\bwhich values\b/, 3],
    ],
  ],
  [
    'duration',
    [
      [/\bhow long\b/, 6],
      [/\b(duration|took|take|elapsed|run ?time|build time|minutes|seconds)\b/, 3],
      [/\b(slow|fast|quick)\b/, 2],
    ],
  ],
  [
    'previous',
    [
      [/\b(previous|prior|preceding|earlier|last time|before)\b.*\b(build|run|one)\b/, 5],
      [/\b(previous|prior|preceding)\b/, 3],
      [/\bbuild before\b|\bbefore (this|that|it)\b/, 3],
      [/\b(regression|new failure|first time|used to (work|pass))\b/, 3],
    ],
  ],
  [
    'result',
    [
      [/\b(result|outcome|verdict)\b/, 4],
      [/\bstatus\b/, 2],
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
    ],
  ],
  [
    'jobType',
    [
      [/\b(type|kind|sort)\b.*\b(job|project)\b|\b(job|project)\b.*\btype\b/, 6],
      [/\b(pipeline|freestyle|free-style|multibranch|multi-branch|maven project|matrix)\b/, 2],
      [/\b(is|was) (this|it|the job) an? (pipeline|freestyle|free-style|multibranch|multi-branch|maven|matrix)\b/, 4],
    ],
  ],
  [
    'jobDescription',
    [
      [/\bdescri(ption|be)\b/, 4],
      [/\bwhat (does|is) (this|the) (job|project|pipeline)( do| for| about)?\b/, 5],
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
    ],
  ],
  [
    'changes',
    [
      [/\b(changes?|changed|commits?|changesets?|diffs?|scm|revision|sha)\b/, 4],
      [/\bwho\b.*\b(commit\w*|push\w*|merg\w*)\b/, 3],
    ],
  ],
  [
    'builtOn',
    [
      [/\b(which|what|where)\b.*\b(node|agent|machine|host|slave|worker)\b.*\b(run|ran|built|build|execute\w*)\b/, 6],
      [/\b(built|ran|run|executed) on\b/, 5],
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
      [/^\s*(hi|hello|hey|yo|help|thanks|thank you|good (morning|evening|night))\b/, 5],
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

/** Lower case, curly quotes straightened, contractions the cues know. */
export function normalizeQuestion(text: string): string {
  return text
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/\bwhat's\b/g, 'what is')
    .replace(/\bwho's\b/g, 'who is')
    .replace(/\bdidn't\b/g, 'did not')
    .replace(/\bisn't\b/g, 'is not')
    .replace(/\baren't\b/g, 'are not')
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
    ['result', 'tests'],
    ['master', 'executors'],
    ['help', 'summary'],
  ];
  const kept = found.filter((id) => !dropWhenPresent.some(([drop, keep]) => id === drop && found.includes(keep)));
  return kept.slice(0, max);
}
