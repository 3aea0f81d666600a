/** Jest runs the TypeScript sources as native ES modules; `npm run typecheck` does the type checking. */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }] },
  reporters: ['default', '<rootDir>/test/support/closing-line-reporter.cjs'],
  testTimeout: 30000,
  globalSetup: '<rootDir>/test/support/code-cache-setup.mjs',
  globalTeardown: '<rootDir>/test/support/code-cache-teardown.mjs',
};
