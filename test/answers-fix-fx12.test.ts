/**
 * "How do I fix it?" from what the project declares (helper fx12, issue 25 point 3): a member the type does not have
 * and no member named like it, answered with the type's members the failing file does not use
 * (jenkins/workspace/suggestions.ts `membersNotUsedIn`, backend/answer/local/unusedMembers.ts); a switch that misses
 * values of its enum, answered with the project's enum constants it has no case for (jenkins/workspace/enumCases.ts,
 * backend/answer/local/enumCaseSteps.ts); a manifest asking for what its lock file does not record
 * (jenkins/workspace/lockDrift.ts, backend/answer/local/lockSteps.ts); a name the file it is taken from (an include, a
 * Rust module) no longer declares, answered with that file's names the failing file does not use
 * (jenkins/workspace/importedNames.ts); Maven's `-pl` module the reactor lacks, answered with the root POM's modules
 * (jenkins/workspace/clues.ts). Made-up projects with the tools' own output (gcc 12, clang 14, go1.19, javac 17,
 * cargo, Maven 3.8, run on this machine), each shape with a case where nothing may be said; then the real cases of the tuning rounds
 * (<= 19). Every citation checked.
 */
import { fixOfRealCase, fixOfShellLog } from './helpers/shellLogFix.js';
import { project, removeProjects } from './helpers/projectDir.js';
import { withMemberRenamed } from '../backend/answer/local/unusedMembers.js';
import { caseLabels, enumConstants } from '../jenkins/workspace/enumCases.js';
import { membersNotUsedIn } from '../jenkins/workspace/suggestions.js';

afterAll(removeProjects);

describe('a member the type does not have, and none named like it', () => {
  const frameH = '#ifndef FRAME_H\n#define FRAME_H\n#include <stddef.h>\nstruct frame {\n    unsigned char *data;\n    size_t size;\n};\n#endif\n';
  const sumC = '#include "frame.h"\n\nsize_t frame_sum(const struct frame *f)\n{\n    size_t s = 0;\n    for (size_t i = 0; i < f->len; i++)\n        s += f->data[i];\n    return s;\n}\n';
  // gcc 12's own output for sum.c.
  const gccLog = ['+ gcc -c sum.c -o sum.o', 'sum.c: In function ‘frame_sum’:', 'sum.c:6:29: error: ‘const struct frame’ has no member named ‘len’', '    6 |     for (size_t i = 0; i < f->len; i++)', '      |                             ^~'];

  it('C: the one field the file does not use, and the line with it', async () => {
    const fix = await fixOfShellLog(gccLog, 'frames', '/tmp/jenkins7.sh', project({ 'frame.h': frameH, 'sum.c': sumC }));
    expect(fix).toContain('`len` is not a member of `frame`, where line 6 of `sum.c` uses it, and no member of `frame` has a name like it.');
    expect(fix).toContain('`size` (`frame.h:6`) is the only one this file does not use already');
    expect(fix).toContain('the line reads `for (size_t i = 0; i < f->size; i++)`');
    expect(fix).toContain("I can't tell from the log whether that is the rename");
  });

  it('C: nothing of the kind when the file already uses every member', async () => {
    const uses = sumC.replace('        s += f->data[i];', '        s += f->data[i] + f->size;');
    const fix = await fixOfShellLog(gccLog, 'frames', '/tmp/jenkins7.sh', project({ 'frame.h': frameH, 'sum.c': uses }));
    expect(fix).not.toContain('does not use already');
    expect(fix).not.toContain('f->size; i++');
  });

  it('Go: a method for a field read as a value gets its parentheses; its doc comment is not its line', async () => {
    const invoice = 'package billing\n\n// Invoice collects lines.\ntype Invoice struct {\n\tNumber string\n\ttotal  int64\n}\n\n// Sum returns the invoice total in cents.\nfunc (i *Invoice) Sum() int64 { return i.total }\n';
    const main = 'package main\n\nimport (\n\t"fmt"\n\n\t"example.com/shop/billing"\n)\n\nfunc main() {\n\tinv := &billing.Invoice{Number: "2026-0042"}\n\tfmt.Printf("invoice %s: total %d\\n", inv.Number, inv.Total)\n}\n';
    const log = ['+ go build ./cmd/report', '# example.com/shop/cmd/report', 'cmd/report/main.go:11:55: inv.Total undefined (type *billing.Invoice has no field or method Total)'];
    const fix = await fixOfShellLog(log, 'shop', '/tmp/jenkins7.sh', project({ 'go.mod': 'module example.com/shop\n\ngo 1.19\n', 'billing/invoice.go': invoice, 'cmd/report/main.go': main }));
    // `total` is lower-case in another package: never offered (fx9).
    expect(fix).toContain('`Sum()` (`billing/invoice.go:10`) is the only one this file does not use already');
    expect(fix).toContain('inv.Sum())');
    expect(fix).not.toContain('`total`');
  });

  it('offers a constant for a missing constant, a name for a name (an enum field is not what a constant became)', () => {
    const members = [{ name: 'status', kind: 'value', index: 3 }, { name: 'RATE_LIMITED', kind: 'value', index: 2 }, { name: 'retryable', kind: 'value', index: 4 }];
    expect(membersNotUsedIn(['return ErrorCodes.QUOTA_EXCEEDED;'], 'ErrorCodes', 'QUOTA_EXCEEDED', members).map((m) => m.name)).toEqual(['RATE_LIMITED']);
    expect(membersNotUsedIn(['return e.state;'], 'ErrorCodes', 'state', members).map((m) => m.name)).toEqual(['status', 'retryable']);
  });

  it('rewrites only member accesses of the missing name', () => {
    expect(withMemberRenamed('    .backoff_ms = 200,', 'backoff_ms', 'base_delay_ms', false)).toBe('    .base_delay_ms = 200,');
    expect(withMemberRenamed('x = s.available() + available', 'available', 'onHand', true)).toBe('x = s.onHand() + available');
    expect(withMemberRenamed('total(x)', 'total', 'sum', true)).toBeUndefined();
  });
});

describe('a name the included file no longer declares', () => {
  const config = '#ifndef CONFIG_H\n#define CONFIG_H\n#define RETRY_LIMIT 5\n#define BASE_DELAY_MS 100\n#endif\n';
  const backoff = '#include "config.h"\n\nunsigned backoff_delay(unsigned attempt)\n{\n    if (attempt >= MAX_RETRIES)\n        return 0;\n    return BASE_DELAY_MS << attempt;\n}\n';
  // clang 14's own output for src/backoff.c.
  const log = ['+ clang -Iinclude -c src/backoff.c -o backoff.o', "src/backoff.c:5:20: error: use of undeclared identifier 'MAX_RETRIES'", '    if (attempt >= MAX_RETRIES)', '                   ^', '1 error generated.'];

  it('C: the one macro of the included header the file does not use (not its include guard), and the line with it', async () => {
    const fix = await fixOfShellLog(log, 'backoff', '/tmp/jenkins7.sh', project({ 'include/config.h': config, 'src/backoff.c': backoff }));
    expect(fix).toContain('`MAX_RETRIES` is not declared where line 5 of `src/backoff.c` uses it, and `include/config.h`, which that file takes it from, declares no name like it.');
    expect(fix).toContain('`RETRY_LIMIT` (`include/config.h:3`) is the only one this file does not use already');
    expect(fix).toContain('the line reads `if (attempt >= RETRY_LIMIT)`');
    expect(fix).not.toContain('`CONFIG_H`');
  });

  it('C: nothing of the kind when the header declares more than three names the file does not use', async () => {
    const more = config.replace('#endif', '#define A_LIMIT 1\n#define B_LIMIT 2\n#define C_LIMIT 3\n#endif');
    const fix = await fixOfShellLog(log, 'backoff', '/tmp/jenkins7.sh', project({ 'include/config.h': more, 'src/backoff.c': backoff }));
    expect(fix).not.toContain('does not use already');
    expect(fix).not.toContain('RETRY_LIMIT');
  });
});

describe('a switch that misses values of its enum', () => {
  const phase = 'public enum Phase {\n    RED,\n    GREEN,\n    AMBER,\n    BLINKING\n}\n';
  const lights = 'public final class Lights {\n    public static int seconds(Phase p) {\n        return switch (p) {\n            case RED -> 30;\n            case GREEN -> 25;\n            case AMBER -> 3;\n        };\n    }\n}\n';
  // javac 17's own output for Lights.java.
  const log = ['+ javac -d out src/Lights.java src/Phase.java', 'src/Lights.java:3: error: the switch expression does not cover all possible input values', '        return switch (p) {', '               ^', '1 error'];

  it('names the constants the switch has no case for, where the enum declares them', async () => {
    const fix = await fixOfShellLog(log, 'lights', '/tmp/jenkins7.sh', project({ 'src/Phase.java': phase, 'src/Lights.java': lights }));
    expect(fix).toContain('`src/Phase.java:5` declares `BLINKING` in the enum `Phase`, and the switch at `src/Lights.java:3` has no case for it (it covers `RED`, `GREEN`, `AMBER`)');
    expect(fix).toContain('add `case BLINKING -> ...` to that switch');
    expect(fix).toContain("I can't tell it");
  });

  it('says nothing when two enums of the project hold every label', async () => {
    const other = 'public enum Signal {\n    RED,\n    GREEN,\n    AMBER,\n    OFF\n}\n';
    const fix = await fixOfShellLog(log, 'lights', '/tmp/jenkins7.sh', project({ 'src/Phase.java': phase, 'src/Signal.java': other, 'src/Lights.java': lights }));
    expect(fix).not.toContain('has no case for');
  });

  it('reads labels of the switch itself and constants with bodies and arguments', () => {
    const sw = ['switch (c) {', '  case UPS, FEDEX -> 35;', '  case DHL -> { int k = switch (x) { case A -> 1; default -> 2; }; yield k; }', '  case Carrier.USPS: yield 1;', '}'];
    expect(caseLabels(sw, 0)).toEqual(['UPS', 'FEDEX', 'DHL', 'USPS']);
    const en = ['enum Carrier {', '    UPS("https://a,b"),', '    FEDEX { int fee() { return 1; } },', '    DHL;', '    private final String url;', '}'];
    expect(enumConstants(en, 0).map((c) => c.name)).toEqual(['UPS', 'FEDEX', 'DHL']);
  });
});

describe('a manifest and its lock file that disagree', () => {
  it('cargo: a path package whose version the lock records otherwise', async () => {
    // cargo 1.8x's own output for `cargo build --locked` after bumping crates/geo to 0.4.0.
    const log = ['+ cargo build --locked --offline --workspace', 'error: cannot update the lock file /var/lib/jenkins/workspace/geo/Cargo.lock because --locked was passed to prevent this', 'help: to generate the lock file without accessing the network, remove the --locked flag and use --offline instead.'];
    const files = {
      'Cargo.toml': '[workspace]\nmembers = ["crates/geo", "crates/app"]\n',
      'crates/geo/Cargo.toml': '[package]\nname = "geo"\nversion = "0.4.0"\nedition = "2021"\n',
      'crates/app/Cargo.toml': '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\ngeo = { path = "../geo" }\n',
      'Cargo.lock': '# This file is automatically @generated by Cargo.\n# It is not intended for manual editing.\nversion = 4\n\n[[package]]\nname = "app"\nversion = "0.1.0"\ndependencies = [\n "geo",\n]\n\n[[package]]\nname = "geo"\nversion = "0.3.0"\n',
    };
    const fix = await fixOfShellLog(log, 'geo', '/tmp/jenkins7.sh', project(files));
    expect(fix).toContain('`crates/geo/Cargo.toml:3` sets version `0.4.0` of `geo` (`version = "0.4.0"`), and `Cargo.lock` still records `geo 0.3.0`: run `cargo update -p geo`');
    const same = await fixOfShellLog(log, 'geo', '/tmp/jenkins7.sh', project({ ...files, 'crates/geo/Cargo.toml': files['crates/geo/Cargo.toml'].replace('0.4.0', '0.3.0') }));
    expect(same).not.toContain('still records');
  });
});

describe("a module the build selects that the reactor does not have", () => {
  const parent = '<project xmlns="http://maven.apache.org/POM/4.0.0">\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>io.example</groupId>\n  <artifactId>billing-parent</artifactId>\n  <version>1.0.0</version>\n  <packaging>pom</packaging>\n  <modules>\n    <module>billing-domain</module>\n    <module>billing-api</module>\n  </modules>\n</project>\n';
  // Maven 3.8's own output for `-pl billing-core` in that reactor.
  const log = ['+ mvn -B -o -ntp -pl billing-core validate', '[INFO] Scanning for projects...', '[ERROR] [ERROR] Could not find the selected project in the reactor: billing-core @ ', '[ERROR] Could not find the selected project in the reactor: billing-core -> [Help 1]', '[ERROR] ', '[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.'];

  it('lists the modules of the root POM, and does not pick one', async () => {
    const fix = await fixOfShellLog(log, 'billing', '/tmp/jenkins7.sh', project({ 'pom.xml': parent, 'ci.sh': 'mvn -B -o -ntp -pl billing-core validate\n' }));
    expect(fix).toContain('`pom.xml:7` lists the modules the reactor has, `billing-domain`, `billing-api`, and no `billing-core`');
    expect(fix).toContain("I can't tell from the log which one it became");
  });

  it('says nothing of modules when the project has no root POM', async () => {
    const fix = await fixOfShellLog(log, 'billing', '/tmp/jenkins7.sh', project({ 'build/pom.xml': parent, 'ci.sh': 'mvn -B -o -ntp -pl billing-core validate\n' }));
    expect(fix).not.toContain('lists the modules');
  });
});

describe('real tuned cases', () => {
  const cases: [string, string[]][] = [
    ['make-parallel-interleaved-error', ['`size` (`codec/frame.h:6`) is the only one this file does not use already', '`for (size_t i = 0; i < f->size; i++)`']],
    ['go-build-unexported-field', ['`Sum()` (`billing/invoice.go:18`)', 'inv.Sum()/100']],
    ['scalac-value-not-member', ['`upcoming` (`src/Schedule.scala:2`) is the only one this file does not use already', '`println(s"next run at ${s.upcoming}")`']],
    ['clang-designator-unknown-field', ['`base_delay_ms` (`lib/retry.h:6`)', 'the line reads `.base_delay_ms = 200,`']],
    // Gradle's `:compileJava` prefix: javac's `symbol:` and `location:` lines are read under the finding's line.
    ['gradle-stacktrace-javac-symbol', ['`available` is not a member of `Stock`', '`onHand`']],
    ['javac-switch-pattern-not-exhaustive', ['`src/city/signals/Phase.java:8` declares `FLASHING_AMBER` in the enum `Phase`', 'add `case FLASHING_AMBER -> ...`']],
    ['maven-switch-not-exhaustive', ['declares `USPS` in the enum `Carrier`', 'covers `UPS`, `FEDEX`, `DHL`']],
    ['rustc-e0425-renamed-const', ['`src/config.rs`, which that file takes it from, declares no name like it', '`RETRY_LIMIT` (`src/config.rs:2`)', '`Err(e) if attempt < config::RETRY_LIMIT => {`']],
    ['cmake-clang-undeclared-identifier', ['`RETRY_LIMIT` (`include/config.h:3`)', '`if (attempt >= RETRY_LIMIT)`']],
    ['maven-pl-module-not-found', ['lists the modules the reactor has, `billing-domain`, `billing-api`, and no `billing-core`']],
    ['maven-pl-project-not-in-reactor', ['lists the modules the reactor has, `billing-core`, `billing-rest`, and no `billing-api`']],
    ['bundler-rubygems-unreachable', ['`Gemfile:4` asks for `faraday`', 'which `Gemfile.lock` does not record, so the install had to resolve it from the registry it could not reach']],
    ['composer-packagist-unreachable', ['`composer.json:7` asks for `monolog/monolog`', 'the workspace has no `composer.lock`']],
    ['yarn-frozen-lockfile', ['`package.json:8` asks for `picocolors`', 'which `yarn.lock` does not record, and this install may not change the lock']],
    ['cargo-locked-lockfile-outdated', ['sets version `0.4.0` of `geohash`', '`Cargo.lock` still records `geohash 0.3.0`']],
  ];
  it.each(cases)('%s', async (id, said) => {
    const fix = await fixOfRealCase(id);
    for (const s of said) expect(fix).toContain(s);
  });
});
