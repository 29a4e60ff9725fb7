/**
 * Three Jest projects (shared/ARCHITECTURE.md, "Tests"):
 * - unit: tests beside their modules (core/, jenkins/, http/, protocol/, backend/, controller/,
 *   cli/): no servers, databases or processes; run in parallel (`npm run test:unit`).
 * - integration: test/: real Koa servers on ephemeral ports, SQLite and MariaDB (each file its
 *   own database); in parallel.
 * - e2e: tests that start processes (the CLI, `cichat serve`, the controller binary, tmux, a
 *   MariaDB of their own): in band, after the others (`npm run test:e2e`).
 * `npm test` runs all three (scripts/test.mjs) and prints one summary line.
 */
const common = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.tsx?$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json', diagnostics: false }],
  },
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/data/'],
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
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/{core,jenkins,http,protocol,backend,controller,cli}/**/*.test.ts?(x)'],
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
