import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import noCycle from './scripts/eslint/no-cycle.js';

/**
 * The layering of shared/ARCHITECTURE.md, enforced: each top-level folder lists the folders of
 * ours it must not import. protocol and core import nothing of ours (core may import protocol);
 * jenkins -> core, protocol; http -> protocol; backend -> http, core, protocol;
 * controller -> http, jenkins, core, protocol; cli -> jenkins, core, protocol.
 */
const forbidden = {
  protocol: ['core', 'jenkins', 'http', 'backend', 'controller', 'cli'],
  core: ['jenkins', 'http', 'backend', 'controller', 'cli'],
  jenkins: ['http', 'backend', 'controller', 'cli'],
  http: ['core', 'jenkins', 'backend', 'controller', 'cli'],
  backend: ['jenkins', 'controller', 'cli'],
  controller: ['backend', 'cli'],
  cli: ['http', 'backend', 'controller'],
  // The browser page: only the wire types and the SSE decoder.
  web: ['core', 'jenkins', 'http', 'backend', 'controller', 'cli'],
};

const layering = Object.entries(forbidden).map(([folder, banned]) => ({
  files: [`${folder}/**/*.ts`, `${folder}/**/*.tsx`],
  rules: {
    'no-restricted-imports': ['error', {
      patterns: banned.map((b) => ({
        group: [`**/${b}/*`, `**/${b}`, `../${b}/**`, `../../${b}/**`, `../../../${b}/**`],
        message: `${folder}/ must not import ${b}/ (see shared/ARCHITECTURE.md: the layering)`,
      })),
    }],
  },
}));

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'data/', 'seeds/jenkins-home/', 'coverage/', 'bench/data/', 'test/fixtures/realfail/', 'test/fixtures/ux*/', 'test/fixtures/grammar/', 'test/fixtures/linkload/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-control-regex': 'off',
    },
  },
  ...layering,
  // No import circles between our modules (issue 31; scripts/eslint/no-cycle.js).
  {
    files: ['protocol/**/*.ts', 'core/**/*.ts', 'jenkins/**/*.ts', 'http/**/*.ts', 'backend/**/*.ts', 'controller/**/*.ts', 'cli/**/*.ts', 'cli/**/*.tsx', 'web/**/*.ts', 'web/**/*.tsx'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    plugins: { local: { rules: { 'no-cycle': noCycle } } },
    rules: { 'local/no-cycle': 'error' },
  },
);
