/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.tsx?$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json', diagnostics: false }],
  },
  testMatch: ['**/?(*.)test.ts', '**/?(*.)test.tsx'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/data/'],
  testTimeout: 60000,
};
