/** Jest runs the TypeScript sources as native ES modules; `npm run typecheck` does the type checking. */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }] },
  reporters: ['default', '<rootDir>/test/support/closing-line-reporter.cjs'],
  // A watchdog for a test that hangs, not a speed limit: the heaviest tests (real git repositories,
  // the Action bundle, the App over HTTP) take minutes on a busy two-core machine.
  testTimeout: 600_000,
  // Two workers on a two-core machine: most of a test's time is spent waiting on the git, CLI and
  // HTTP processes it starts, so one worker (jest's default there) leaves a core idle.
  maxWorkers: 2,
  globalSetup: '<rootDir>/test/support/cache-setup.mjs',
  globalTeardown: '<rootDir>/test/support/cache-teardown.mjs',
};
