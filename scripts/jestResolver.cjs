// Jest's module resolution (jest.config.js `resolver`): Jest's own default resolver, each answer kept
// for the worker process. Our `./x.js` imports all go through jest.config.js's moduleNameMapper, and
// Jest's resolver keeps no answer for a mapped name: every test file resolved each of its imports
// afresh with the `resolve` package's file probing (a file importing the test backend and the
// controller: ~1,180 resolutions, 65-80 ms of CPU of 1.1-1.3 s per 16 such files on a loaded
// machine; kept: the first file's ~1,400 distinct ones only). Jest already keeps what it stats
// (jest-resolve's fileWalkers cache, for the whole run), so a kept answer assumes nothing Jest
// does not: the files of a run do not move. A failed resolution is not kept (it throws each time).
// The key holds everything that varies between calls (the directory, the name, the conditions of
// `import` or `require`, the extensions); the rest of the options is the project's configuration,
// the same for the three projects. docs/notes/house.md, "`npm test` time", eleventh session.
// CommonJS because Jest loads a resolver with require().
/* global module */
const kept = new Map();

module.exports = (request, options) => {
  const key = `${options.basedir}\0${request}\0${options.conditions ?? ''}\0${options.extensions ?? ''}`;
  let path = kept.get(key);
  if (path === undefined) {
    path = options.defaultResolver(request, options);
    kept.set(key, path);
  }
  return path;
};
