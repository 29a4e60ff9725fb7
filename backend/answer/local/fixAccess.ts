/**
 * Remedies for what a type or a declaration does not offer the line that uses it (helper ux9): a C++
 * unordered container of a key type without `std::hash` (libstdc++'s static assertion and "no match for
 * call to '(const std::hash<K>) (...)'", libc++'s "the specified hash does not meet the Hash
 * requirements"), and a Kotlin or Java declaration the using file may not see (`internal` in another
 * module, `private`), and a pytest-django fixture that queries the database without asking for it. Keyed on
 * the tools' words, never on a project's names; every quote is from a line it cites.
 */
import { inlineCode } from '../logtext.js';
import { at } from './findingText.js';
import { around, nearby, rule, type RemedyRule } from './remedyShape.js';

/** The key type of `std::hash<K>` in a compiler's line (`std::hash<tilecache::TileKey>`), balanced angle brackets. */
function hashedType(text: string): string | undefined {
  const start = text.indexOf('std::hash<');
  if (start < 0) return undefined;
  let depth = 1;
  for (let i = start + 'std::hash<'.length; i < text.length; i++) {
    if (text[i] === '<') depth++;
    else if (text[i] === '>' && --depth === 0) return text.slice(start + 'std::hash<'.length, i).trim() || undefined;
  }
  return undefined;
}

const NO_HASH = /hash function must be invocable with an argument of key type|no match for call to .\(const std::hash<|the specified hash does not meet the Hash requirements|call to (?:implicitly-)?deleted (?:default )?constructor of 'std::hash<|use of deleted function 'std::hash</;

/** Kotlin's "cannot access 'X': it is internal in 'P'" and Java's "X has private access in C". */
const KOTLIN_ACCESS = /[Cc]annot access '([^']+)': it is (internal|private|protected|private-in-file) in '([^']+)'/;
const JAVA_ACCESS = /\b([\w$]+(?:\([^)]*\))?) has private access in ([\w.$]+)/;

/** pytest-django's refusal, which names its own remedy. */
const DJANGO_DB_BLOCKED = /Database access not allowed, use the "django_db" mark, or the "db" or "transactional_db" fixtures to enable it/;

export const ACCESS_REMEDIES: RemedyRule[] = [
  // pytest-django: a fixture (or a test) used the database without the `db` fixture or the `django_db` mark.
  rule('access/pytest-django-db-blocked', 'wording', (i, out) => {
    const { f, stored } = i;
    if (!DJANGO_DB_BLOCKED.test(f.message)) return;
    // pytest prints the fixture's source over its `>` line in a setup error: its decorator says its scope.
    const above = around(stored, f.message_line, 45, 0).reverse();
    const setup = nearby(above, /^_+ ERROR at setup of (\S+) _+$/);
    const body = setup ? above.filter((l) => l.line > setup.line).sort((a, b) => a.line - b.line) : [];
    const decorator = nearby(body, /^\s*@pytest\.fixture\((?:.*\b)?scope=["'](\w+)["']/);
    const fixture = nearby(body, /^\s*def (\w+)\(([^)]*)\)/);
    const scope = decorator?.m[1];
    const wide = scope !== undefined && scope !== 'function';
    const which = fixture ? `the fixture ${inlineCode(fixture.m[1] as string)} ${at(fixture.line)}` : 'the code that ran';
    out.push({
      text: `pytest-django blocks the database for code that did not ask for it ${at(f.message_line)}, and ${which} queried it${setup ? ` while setting up ${inlineCode(setup.m[1] as string)} ${at(setup.line)}` : ''}. ${
        wide
          ? `It is ${inlineCode(`scope="${scope as string}"`)} ${at(decorator!.line)}, and the \`db\` fixture is function-scoped, so it cannot simply take \`db\`: make it function-scoped and give it \`db\` (each test then gets its own rows), or keep the scope and open the database in it with pytest-django's \`django_db_blocker.unblock()\` (its rows then outlive each test's transaction and must be cleaned up by the fixture).`
          : `Give ${fixture ? inlineCode(fixture.m[1] as string) : 'it'} the \`db\` fixture as an argument (or \`transactional_db\`), or mark the tests that use it \`@pytest.mark.django_db\`.`
      }`,
      lines: [f.message_line, ...(setup ? [setup.line] : []), ...(fixture ? [fixture.line] : []), ...(decorator ? [decorator.line] : [])],
    });
  }),
  // C++: std::unordered_set<K> / unordered_map<K, V> of a K that has no std::hash.
  rule('access/cxx-key-without-hash', 'wording', (i, out) => {
    const { f, stored } = i;
    if (f.class !== 'compile-error' || !NO_HASH.test(f.message)) return;
    const lines = around(stored, f.message_line, 0, 8);
    const named = nearby(lines, /std::hash<[^>]/);
    const type = named ? hashedType(named.m.input) : hashedType(f.message);
    const here = nearby(around(stored, f.message_line, 12, 0).reverse(), /^(?!\/usr\/)(\S+?:\d+):\d+:\s+required from here/);
    out.push({
      text: `${type ? inlineCode(type) : 'The key type'} has no ${inlineCode(type ? `std::hash<${type}>` : 'std::hash')} ${at(named?.line ?? f.message_line)}, and an unordered container (\`std::unordered_set\`, \`std::unordered_map\`) of it hashes its keys${here ? `; the project's line that uses it is ${inlineCode((here.m[1] as string).replace(/^.*\/workspace\/[^/]+\//, ''))} ${at(here.line)}` : ''}. Give the type a hash: specialise ${inlineCode(`std::hash<${type ?? 'Key'}>`)} after its declaration (an \`operator()\` that combines the fields ${inlineCode('operator==')} compares), or name a hasher as the container's second template argument; an ordered \`std::set\` / \`std::map\` needs only \`operator<\`.`,
      lines: [f.message_line, ...(named && named.line !== f.message_line ? [named.line] : []), ...(here ? [here.line] : [])],
    });
  }),
  // Kotlin / Java: a declaration the using file may not see.
  rule('access/kotlin-java-visibility', 'wording', (i, out) => {
    const { f, stored } = i;
    if (f.class !== 'compile-error') return;
    const kt = KOTLIN_ACCESS.exec(f.message);
    const java = kt ? undefined : JAVA_ACCESS.exec(f.message);
    if (kt) {
      const [, name, visibility, owner] = kt as unknown as [string, string, string, string];
      if (visibility === 'internal') {
        // The module the using file is compiled in, when the compiler's command line is in the log (`kotlinc -module-name app`).
        const module = nearby(around(stored, f.message_line, 30, 0).reverse(), /\bkotlinc(?:-jvm)?\b.*?-module-name\s+([\w.-]+)/);
        out.push({
          text: `${inlineCode(name)} is declared \`internal\` in ${inlineCode(owner)} ${at(f.message_line)}: \`internal\` is visible only inside the module that compiles it, and this file is compiled in another${module ? ` (${inlineCode(`-module-name ${module.m[1] as string}`)} ${at(module.line)})` : ''}. Use what that module makes public instead, or make ${inlineCode(name)} public (drop \`internal\`) if other modules are meant to call it.`,
          lines: [f.message_line, ...(module ? [module.line] : [])],
        });
      } else {
        out.push({
          text: `${inlineCode(name)} is \`${visibility}\` in ${inlineCode(owner)} ${at(f.message_line)}, so this file may not use it: use a public member of ${inlineCode(owner)} instead, or widen ${inlineCode(name)}'s visibility where it is declared.`,
          lines: [f.message_line],
        });
      }
    } else if (java) {
      const [, name, owner] = java as unknown as [string, string, string];
      out.push({
        text: `${inlineCode(name)} is \`private\` in ${inlineCode(owner)} ${at(f.message_line)}, so only ${inlineCode(owner)}'s own code may use it: call a public method of ${inlineCode(owner)} instead, or widen ${inlineCode(name)}'s visibility where it is declared.`,
        lines: [f.message_line],
      });
    }
  }),
];
