/**
 * Jenkins homes with long build histories (issue 29), written as Jenkins writes them: build.xml
 * with the git plugin's BuildData (the commit built), changelog.xml in the git plugin's raw
 * `git whatchanged` form (empty when the build brought no new commit), junitResult.xml in the
 * junit plugin's shape, and the console log.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface HistoryBuild {
  number: number;
  result: 'SUCCESS' | 'FAILURE' | 'UNSTABLE' | 'ABORTED';
  commit: string;
  /** Commits this build recorded as new (0: an empty changelog). */
  changes: number;
  log?: string;
  /** Tests in the report: `Class.name` -> failed (true) or passed (false). */
  tests?: Record<string, boolean>;
  timestamp: number;
}

export function historyBuildXml(b: HistoryBuild): string {
  return `<?xml version='1.1' encoding='UTF-8'?>
<build>
  <actions>
    <hudson.plugins.git.util.BuildData plugin="git@5.2.1">
      <buildsByBranchName>
        <entry>
          <string>origin/main</string>
          <hudson.plugins.git.util.Build>
            <marked plugin="git-client@4.6.0"><sha1>${b.commit}</sha1><branches class="list"><hudson.plugins.git.Branch><sha1 reference="../../../sha1"/><name>origin/main</name></hudson.plugins.git.Branch></branches></marked>
            <revision reference="../marked"/>
            <hudsonBuildNumber>${b.number}</hudsonBuildNumber>
          </hudson.plugins.git.util.Build>
        </entry>
      </buildsByBranchName>
      <remoteUrls><string>https://git.example.test/app.git</string></remoteUrls>
    </hudson.plugins.git.util.BuildData>
  </actions>
  <queueId>${b.number}</queueId>
  <timestamp>${b.timestamp}</timestamp>
  <startTime>${b.timestamp + 3}</startTime>
  <result>${b.result}</result>
  <duration>61000</duration>
  <builtOn></builtOn>
</build>
`;
}

function changelog(b: HistoryBuild): string {
  const out: string[] = [];
  for (let i = 0; i < b.changes; i++) {
    const sha = (b.commit + i.toString(16)).padEnd(40, '0').slice(0, 40);
    out.push(`commit ${sha}`, `author Dev <dev@example.test> ${Math.floor(b.timestamp / 1000)} +0000`, '', `    change ${i} of build ${b.number}`, '');
  }
  return out.join('\n');
}

function junitXml(tests: Record<string, boolean>): string {
  const byClass = new Map<string, [string, boolean][]>();
  for (const [full, failed] of Object.entries(tests)) {
    const at = full.lastIndexOf('.');
    const cls = full.slice(0, at);
    byClass.set(cls, [...(byClass.get(cls) ?? []), [full.slice(at + 1), failed]]);
  }
  const suites = [...byClass.entries()].map(
    ([cls, cases]) =>
      `<suite><file>target/surefire-reports/TEST-${cls}.xml</file><name>${cls}</name><duration>0.5</duration><cases>` +
      cases
        .map(
          ([name, failed]) =>
            `<case><duration>0.01</duration><className>${cls}</className><testName>${name}</testName><skipped>false</skipped>` +
            (failed ? `<errorStackTrace>java.lang.AssertionError: expected:&lt;1&gt; but was:&lt;2&gt;\n\tat ${cls}.${name}(X.java:10)</errorStackTrace><errorDetails>expected:&lt;1&gt; but was:&lt;2&gt;</errorDetails>` : '') +
            `<failedSince>0</failedSince></case>`,
        )
        .join('') +
      `</cases></suite>`,
  );
  return `<?xml version='1.1' encoding='UTF-8'?>\n<result plugin="junit@1265.v65b_14fa_f12f0"><suites>${suites.join('')}</suites><duration>1.0</duration><keepLongStdio>false</keepLongStdio></result>\n`;
}

/** A Maven compile failure naming `symbol` in `file` (line numbers vary between builds). */
export function compileLog(symbol: string, file: string, line: number): string {
  return [
    'Started by an SCM change',
    'Building in workspace /var/jenkins_home/workspace/app',
    '+ mvn -B package',
    '[INFO] Compiling 12 source files to /var/jenkins_home/workspace/app/target/classes',
    '[INFO] -------------------------------------------------------------',
    '[ERROR] COMPILATION ERROR : ',
    '[INFO] -------------------------------------------------------------',
    `[ERROR] /var/jenkins_home/workspace/app/${file}:[${line},17] cannot find symbol`,
    `  symbol:   method ${symbol}()`,
    '  location: class com.acme.Orders',
    '[INFO] BUILD FAILURE',
    'Build step \'Invoke top-level Maven targets\' marked build as failure',
    'Finished: FAILURE',
    '',
  ].join('\n');
}

export function testLog(failed: string[]): string {
  return [
    'Started by an SCM change',
    '+ mvn -B test',
    ...failed.flatMap((t) => [`[ERROR] ${t.replace(/\.([^.]+)$/, '.$1:10')} expected:<1> but was:<2>`]),
    `[ERROR] Tests run: 40, Failures: ${failed.length}, Errors: 0, Skipped: 0`,
    '[INFO] BUILD FAILURE',
    'Finished: UNSTABLE',
    '',
  ].join('\n');
}

/** Writes one build into the job folder (log, changelog, report, then build.xml last). */
export function writeHistoryBuild(jobDir: string, b: HistoryBuild): void {
  const dir = path.join(jobDir, 'builds', String(b.number));
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'log'), b.log ?? (b.result === 'SUCCESS' ? 'Started by an SCM change\n+ mvn -B package\n[INFO] BUILD SUCCESS\nFinished: SUCCESS\n' : compileLog('getTotal', 'src/main/java/com/acme/Orders.java', 40)));
  fs.writeFileSync(path.join(dir, 'changelog.xml'), changelog(b));
  if (b.tests) fs.writeFileSync(path.join(dir, 'junitResult.xml'), junitXml(b.tests));
  fs.writeFileSync(path.join(dir, 'build.xml'), historyBuildXml(b));
}

/** Writes `builds/permalinks` and nextBuildNumber as Jenkins keeps them. */
export function finishJob(jobDir: string, last: number): void {
  fs.writeFileSync(path.join(jobDir, 'nextBuildNumber'), `${last + 1}\n`);
}
