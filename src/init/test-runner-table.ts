import type { Ecosystem } from './manifests/manifest-facts.js';

export interface TestRunnerEntry {
  readonly name: string;
  readonly ecosystems: readonly Ecosystem[];
  /** Dependencies (any scope) that bring it in. */
  readonly packages: readonly string[];
  /** Configuration files (base names) that mean it is set up. */
  readonly configFiles?: RegExp;
  /** The ecosystem runs its tests itself (go test, cargo test): the manifest is enough. */
  readonly builtIn?: boolean;
  /** How to run it when the manifests give no test script, as an argument vector. */
  readonly command: readonly string[];
  /** A wrapper script the repository tracks (mvnw, gradlew) and the command through it. */
  readonly wrapper?: { readonly file: string; readonly command: readonly string[] };
}

/**
 * Test runners by their evidence. Data, not code: a missing runner is one entry here. Order
 * matters when several match: unit-test runners before end-to-end ones, since the test command
 * verifies a patch and should be the fast suite.
 */
export const TEST_RUNNERS: readonly TestRunnerEntry[] = [
  {
    name: 'vitest',
    ecosystems: ['npm'],
    packages: ['vitest'],
    configFiles: /^vitest\.config\./,
    command: ['npx', 'vitest', 'run'],
  },
  {
    name: 'jest',
    ecosystems: ['npm'],
    packages: ['jest'],
    configFiles: /^jest\.config\./,
    command: ['npx', 'jest'],
  },
  {
    name: 'mocha',
    ecosystems: ['npm'],
    packages: ['mocha'],
    configFiles: /^\.mocharc/,
    command: ['npx', 'mocha'],
  },
  { name: 'ava', ecosystems: ['npm'], packages: ['ava'], command: ['npx', 'ava'] },
  { name: 'tap', ecosystems: ['npm'], packages: ['tap'], command: ['npx', 'tap'] },
  { name: 'jasmine', ecosystems: ['npm'], packages: ['jasmine'], command: ['npx', 'jasmine'] },
  { name: 'uvu', ecosystems: ['npm'], packages: ['uvu'], command: ['npx', 'uvu'] },
  {
    name: 'playwright',
    ecosystems: ['npm'],
    packages: ['@playwright/test'],
    configFiles: /^playwright\.config\./,
    command: ['npx', 'playwright', 'test'],
  },
  {
    name: 'pytest',
    ecosystems: ['python'],
    packages: ['pytest'],
    configFiles: /^(pytest\.ini|conftest\.py)$/,
    command: ['python', '-m', 'pytest'],
  },
  {
    name: 'go test',
    ecosystems: ['go'],
    packages: [],
    builtIn: true,
    command: ['go', 'test', './...'],
  },
  {
    name: 'cargo test',
    ecosystems: ['cargo'],
    packages: [],
    builtIn: true,
    command: ['cargo', 'test'],
  },
  {
    name: 'junit',
    ecosystems: ['maven'],
    packages: [
      'org.junit.jupiter:junit-jupiter',
      'org.junit.jupiter:junit-jupiter-api',
      'junit:junit',
    ],
    builtIn: true,
    command: ['mvn', 'test'],
    wrapper: { file: 'mvnw', command: ['./mvnw', 'test'] },
  },
  {
    name: 'junit',
    ecosystems: ['gradle'],
    packages: [
      'org.junit.jupiter:junit-jupiter',
      'org.junit.jupiter:junit-jupiter-api',
      'junit:junit',
    ],
    builtIn: true,
    command: ['gradle', 'test'],
    wrapper: { file: 'gradlew', command: ['./gradlew', 'test'] },
  },
];

/** The package managers whose lockfile decides how a package.json test script is run. */
export const NPM_CLIENTS: readonly { readonly lockfile: RegExp; readonly client: string }[] = [
  { lockfile: /^pnpm-lock\.yaml$/, client: 'pnpm' },
  { lockfile: /^yarn\.lock$/, client: 'yarn' },
  { lockfile: /^bun\.lockb?$/, client: 'bun' },
];
