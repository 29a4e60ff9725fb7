/**
 * What a compiler's or linter's diagnostic asks for, keyed on the tool's own wording (issue 25,
 * "how do I fix it?": the remedy for this error, not "change the line"). Each rule reads only the
 * names the message carries; the answer cites the message line after the step. One hint per
 * message, the first rule that matches; none when no rule does (the remedy stays general).
 */
import { inlineCode as c } from '../logtext.js';

interface Rule {
  test: RegExp;
  hint: (m: RegExpExecArray) => string;
}

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
  // Coverage gates
  { test: /coverage threshold for (\w+) \((\d+(?:\.\d+)?%)\) not met: (\d+(?:\.\d+)?%)/, hint: (m) => `${(m[1] as string).replace(/^./, (x) => x.toUpperCase())} coverage is ${c(m[3] as string)}, under the threshold ${c(m[2] as string)}: add tests for the code the change added (the coverage table lists the files and their uncovered lines), or change \`coverageThreshold\` in the Jest configuration if the threshold itself is wrong.` },
];

/** The remedy a diagnostic's own wording asks for, or undefined. */
export function diagnosticHint(message: string): string | undefined {
  for (const rule of RULES) {
    const m = rule.test.exec(message);
    if (m) return rule.hint(m);
  }
  return undefined;
}
