/**
 * ESLint rule `local/no-cycle` (issue 31): no import circles between the project's files.
 *
 * Every static `import ... from './x.js'` / `export ... from` between our files counts, type-only
 * ones too (a circle through types still ties two modules' designs together); a dynamic
 * `import()` does not (it is how the CLI loads a command late, on purpose). The rule reports, on
 * the import that closes a circle, the whole circle. The graph of the other files is read once
 * per ESLint process with TypeScript's parser (`typescript` is a dev dependency already).
 */
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import ts from 'typescript';

const cache = new Map();

function resolveSpecifier(from, spec) {
  if (!spec.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), spec);
  const candidates = [base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')];
  for (const c of candidates) {
    try {
      if (fs.statSync(c).isFile()) return c;
    } catch {
      // not this spelling
    }
  }
  return null;
}

/** The files a module imports statically (resolved paths of our own .ts/.tsx files). */
function importsOf(file) {
  let entry = cache.get(file);
  if (entry) return entry;
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    entry = [];
    cache.set(file, entry);
    return entry;
  }
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  entry = [];
  for (const st of sf.statements) {
    if ((ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier)) {
      const target = resolveSpecifier(file, st.moduleSpecifier.text);
      if (target && /\.tsx?$/.test(target)) entry.push(target);
    }
  }
  cache.set(file, entry);
  return entry;
}

/** A path of imports from `start` back to `goal`, or null (breadth first: the shortest). */
function pathBack(start, goal) {
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const at = queue.shift();
    for (const next of importsOf(at)) {
      if (next === goal) {
        const chain = [goal];
        for (let p = at; p !== null; p = previous.get(p)) chain.unshift(p);
        return chain;
      }
      if (!previous.has(next)) {
        previous.set(next, at);
        queue.push(next);
      }
    }
  }
  return null;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'forbid import circles between the project\'s modules' },
    schema: [],
    messages: { cycle: 'import circle: {{chain}} (break it: move the shared part into a module both import)' },
  },
  create(context) {
    const file = path.resolve(context.filename);
    const root = process.cwd();
    const check = (node) => {
      if (!node.source || typeof node.source.value !== 'string') return;
      const target = resolveSpecifier(file, node.source.value);
      if (!target || !/\.tsx?$/.test(target)) return;
      const back = pathBack(target, file);
      if (back) {
        const chain = [file, ...back].map((f) => path.relative(root, f)).join(' -> ');
        context.report({ node, messageId: 'cycle', data: { chain } });
      }
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};
