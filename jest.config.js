/**
 * Three Jest projects (shared/ARCHITECTURE.md, "Tests"):
 * - unit: tests beside their modules (core/, jenkins/, http/, protocol/, backend/, controller/,
 *   cli/, web/): no servers, databases or processes (`npm run test:unit`).
 * - integration: test/: real Koa servers on ephemeral ports, SQLite and MariaDB (each file its
 *   own database).
 * - e2e: tests that start processes (the CLI, `cichat serve`, the controller binary, tmux, a
 *   MariaDB of their own). `npm run test:e2e` runs them in band from the sources (tsx).
 * `npm test` (scripts/test.mjs) builds dist/ and runs all three in one run, four files at a
 * time, the e2e processes from dist/ and the files longest first (scripts/testSequencer.js): they
 * mostly wait on processes, and overlapping that wait with the CPU-bound rest is what makes the
 * suite fit two cores (docs/notes/house.md, "Tests"). Every e2e file makes its own ports,
 * directories, tmux session names and MariaDB instance, so none depends on running alone.
 */
const common = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.tsx?$': '<rootDir>/scripts/jestTransform.js',
  },
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/data/', '/test/fixtures/realfail/', '/test/fixtures/ux[0-9]+/', '/test/fixtures/grammar/', '/test/fixtures/linkload/'],
  // the real-failure cases (and every ux round's) hold small projects of their own (package.json, tests): data, not ours
  modulePathIgnorePatterns: ['<rootDir>/test/fixtures/realfail/', '<rootDir>/test/fixtures/ux[0-9]+/', '<rootDir>/test/fixtures/grammar/', '<rootDir>/test/fixtures/linkload/'],
  // what a test file leaves in the (shared) worker process is switched off after it (see the file)
  setupFilesAfterEnv: ['<rootDir>/test/helpers/perFile.ts'],
  // Jest's runtime, keeping node_modules' compiled CommonJS between the test files of a worker
  runtime: '<rootDir>/scripts/jestRuntime.cjs',
  // Jest's default resolver, each answer kept for the worker (a mapped `./x.js` was resolved afresh by every file)
  resolver: '<rootDir>/scripts/jestResolver.cjs',
};

/** Files in test/ that start processes (or a database server of their own): the e2e project. */
export const E2E_TESTS = [
  '<rootDir>/test/cli-*.test.ts',
  '<rootDir>/test/controller-config.test.ts',
  '<rootDir>/test/**/*.e2e.test.ts',
];

/** @type {import('jest').Config} */
export default {
  testTimeout: 60000,
  testSequencer: '<rootDir>/scripts/testSequencer.js',
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/{core,jenkins,http,protocol,backend,controller,cli,web}/**/*.test.ts?(x)'],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/**/*.test.ts?(x)'],
      testPathIgnorePatterns: [...common.testPathIgnorePatterns, '/test/cli-[^/]*\\.test\\.tsx?$', '/test/controller-config\\.test\\.ts$', '\\.e2e\\.test\\.tsx?$'],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: E2E_TESTS,
    },
  ],
};
