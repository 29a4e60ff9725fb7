// Jest's runtime (jest.config.js `runtime`), with one change: a CommonJS file of node_modules is
// read and compiled once per worker process, not once per test file. Jest loads every test file's modules
// afresh (each file gets its own module registry and globals, which stays so), and compiles each
// CommonJS file it loads into a new `vm.Script`; V8 cannot reuse an earlier compilation of the
// same source there (Jest gives every script its own dynamic-import callback). So every test file
// that imports the backend compiled knex, koa's helpers, pino, mime-db... again, and each of their
// functions again when first called. A `vm.Script` is not tied to a context: running the kept one
// in the next file's context makes new module objects and closures from the same compiled code
// (its bytecode), exactly as a new script of the same source would. Only node_modules' files are
// kept (they do not change during a run), each with the exact wrapped source it was made from; a
// different source makes a new script. Our own TypeScript is ES modules, which this does not touch.
// docs/notes/house.md, "`npm test` time", eighth session.
// CommonJS because Jest loads a runtime with require().
/* global require, module */
/* eslint-disable @typescript-eslint/no-require-imports */
const vm = require('node:vm');
const Runtime = require('jest-runtime').default;

/** filename -> the wrapped source and its script, for this worker process. */
const kept = new Map();
/** filename -> the source of a node_modules file, for this worker process. */
const sources = new Map();
/** The runtime of the test file this worker runs now (a worker runs one file at a time). */
let current = null;

class ScriptKeepingRuntime extends Runtime {
  constructor(...args) {
    super(...args);
    current = this; // eslint-disable-line @typescript-eslint/no-this-alias -- the file running now
  }

  // The source of a node_modules file, read once per worker: Jest reads every module's file again for
  // each test file (into that file's own cache) before it asks for its script.
  readFile(filename) {
    if (!filename.includes('/node_modules/')) return super.readFile(filename);
    let source = sources.get(filename);
    if (source === undefined) {
      source = super.readFile(filename);
      sources.set(filename, source);
    }
    return source;
  }

  createScriptFromCode(scriptSource, filename) {
    if (!filename.includes('/node_modules/')) return super.createScriptFromCode(scriptSource, filename);
    const code = this.wrapCodeInModuleWrapper(scriptSource);
    const columnOffset = this._fileTransforms.get(filename)?.wrapperLength;
    const hit = kept.get(filename);
    if (hit !== undefined && hit.code === code && hit.columnOffset === columnOffset) return hit.script;
    let script;
    try {
      script = new vm.Script(code, {
        columnOffset,
        displayErrors: true,
        filename,
        // As Jest's own: an `import()` in the file, resolved by the runtime of the file running now.
        importModuleDynamically: async (specifier) => {
          const runtime = current;
          const context = runtime._environment.getVmContext?.();
          if (!context) throw new Error('Test environment has been torn down');
          const module = await runtime.resolveModule(specifier, filename, context);
          return runtime.linkAndEvaluateModule(module);
        },
      });
    } catch {
      // Jest's own path reports the syntax error its way.
      return super.createScriptFromCode(scriptSource, filename);
    }
    kept.set(filename, { code, columnOffset, script });
    return script;
  }
}

module.exports = ScriptKeepingRuntime;
