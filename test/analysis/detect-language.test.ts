import { expect, it } from '@jest/globals';
import { detectLanguage } from '../../src/analysis/detect-language.js';

it.each([
  ['src/a.ts', 'typescript'],
  ['lib/x.mts', 'typescript'],
  ['ui/App.tsx', 'tsx'],
  ['ui/App.jsx', 'javascript'],
  ['bin/cli.cjs', 'javascript'],
  ['pkg/mod.py', 'python'],
  ['cmd/main.go', 'go'],
  ['src/Main.JAVA', 'java'],
  ['README.md', undefined],
  ['Makefile', undefined],
  ['.config/ts', undefined],
  ['dir.ts/file', undefined],
])('%s → %s', (path, language) => {
  expect(detectLanguage(path)).toBe(language);
});
