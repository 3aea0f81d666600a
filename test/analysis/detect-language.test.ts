import { expect, it } from '@jest/globals';
import { detectLanguage, languageOfShebang } from '../../src/analysis/detect-language.js';

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

it.each([
  ['#!/usr/bin/env node\n', 'javascript'],
  ['#!/usr/bin/env -S node --no-warnings\r\n', 'javascript'],
  ['#! /usr/bin/env NODE_ENV=production node\n', 'javascript'],
  ['#!/usr/local/bin/python3.12 -u\n', 'python'],
  ['#!/usr/bin/env pypy3\n', 'python'],
  ['#!/usr/bin/env -S deno run\n', 'typescript'],
  ['#!/bin/sh\nnode x.js\n', undefined],
  ['# !/usr/bin/env node\n', undefined],
  ['\n#!/usr/bin/env node\n', undefined],
])('the #! line %j → %s', (text, language) => {
  expect(languageOfShebang(text)).toBe(language);
});
