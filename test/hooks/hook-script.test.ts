import { describe, expect, it } from '@jest/globals';
import {
  hasHookLine,
  mergeHookLine,
  removeHookLine,
  shellWord,
} from '../../src/hooks/hook-script.js';
import { addHusky } from '../../src/hooks/husky-manifest.js';

const LINE = 'aureus hook pre-commit';

describe('mergeHookLine', () => {
  it('starts a new script with the header', () => {
    expect(mergeHookLine(null, 'pre-commit', LINE, '#!/bin/sh\n')).toEqual({
      text: '#!/bin/sh\naureus hook pre-commit\n',
      changed: true,
    });
  });

  it('knows its guarded line however the shell ends the command, so a re-install replaces it', () => {
    const guarded = 'if command -v aureus >/dev/null 2>&1; then aureus hook post-commit; fi';
    const script = `npx other\n${guarded}\n`;
    expect(hasHookLine(script, 'post-commit')).toBe(true);
    expect(mergeHookLine(script, 'post-commit', guarded, '')).toEqual({
      text: script,
      changed: false,
    });
    expect(hasHookLine('echo aureus hook post-commits\n', 'post-commit')).toBe(false);
  });

  it('appends after the user’s lines, adding the missing final newline', () => {
    expect(mergeHookLine('npx lint-staged', 'pre-commit', LINE, '').text).toBe(
      'npx lint-staged\naureus hook pre-commit\n',
    );
  });

  it('goes before a line that would end the script', () => {
    const script = '#!/bin/sh\nif true; then\n  exit 0\nfi\nexec ./other-hook "$@"\n';
    expect(mergeHookLine(script, 'pre-commit', LINE, '').text).toBe(
      '#!/bin/sh\nif true; then\n  exit 0\nfi\naureus hook pre-commit\nexec ./other-hook "$@"\n',
    );
  });

  it('is idempotent, replaces its own line in place and drops duplicates of it', () => {
    const once = mergeHookLine('npx lint-staged\n', 'pre-commit', LINE, '').text;
    expect(mergeHookLine(once, 'pre-commit', LINE, '')).toEqual({ text: once, changed: false });
    const messy = 'npx aureus hook pre-commit\nnpx lint-staged\naureus hook pre-commit\n';
    expect(mergeHookLine(messy, 'pre-commit', `${LINE} --defer-to-commit-msg`, '').text).toBe(
      'aureus hook pre-commit --defer-to-commit-msg\nnpx lint-staged\n',
    );
  });

  it('takes a plain script’s guarded line for its own: an older line is replaced in place', () => {
    const guarded = `if command -v aureus >/dev/null 2>&1; then ${LINE} || exit $?; else echo 'AUREUS: missing' >&2; fi`;
    const older = '#!/bin/sh\naureus hook pre-commit || exit $?\nexec true\n';
    const merged = mergeHookLine(older, 'pre-commit', guarded, '#!/bin/sh\n').text;
    expect(merged).toBe(`#!/bin/sh\n${guarded}\nexec true\n`);
    expect(removeHookLine(merged, 'pre-commit').text).toBe('#!/bin/sh\nexec true\n');
  });

  it('never takes a comment or another hook’s line for its own', () => {
    const script = '# aureus hook pre-commit was here\naureus hook pre-push "$@"\n';
    expect(hasHookLine(script, 'pre-commit')).toBe(false);
    expect(mergeHookLine(script, 'pre-commit', LINE, '').text).toBe(`${script}${LINE}\n`);
  });
});

describe('removeHookLine', () => {
  it('keeps every line of the user’s and says when nothing is left', () => {
    expect(removeHookLine('npx lint-staged\naureus hook pre-commit\n', 'pre-commit')).toEqual({
      text: 'npx lint-staged\n',
      changed: true,
      empty: false,
    });
    expect(
      removeHookLine('#!/bin/sh\naureus hook pre-commit || exit $?\n', 'pre-commit').empty,
    ).toBe(true);
  });
});

describe('shellWord', () => {
  it('quotes only what sh would read otherwise', () => {
    expect(shellWord('packages/web/node_modules/.bin')).toBe('packages/web/node_modules/.bin');
    expect(shellWord("my app's $dir")).toBe(`'my app'\\''s $dir'`);
  });
});

describe('addHusky', () => {
  it('adds husky and prepare, keeping indentation, key order and the final newline', () => {
    const text =
      '{\n    "name": "x",\n    "devDependencies": {\n        "eslint": "^9",\n        "typescript": "^5"\n    }\n}\n';
    const edit = addHusky(text, 'package.json', 'husky');
    expect(edit.text).toBe(
      '{\n    "name": "x",\n    "devDependencies": {\n        "eslint": "^9",\n        "husky": "^9.1.7",\n        "typescript": "^5"\n    },\n    "scripts": {\n        "prepare": "husky"\n    }\n}\n',
    );
    expect(edit.changes).toEqual(['devDependencies.husky ^9.1.7', 'scripts.prepare "husky"']);
  });

  it('runs husky after an existing prepare, and leaves one that runs it already', () => {
    const build = addHusky(
      '{"scripts":{"prepare":"npm run build"}}',
      'package.json',
      'cd ../.. && husky',
    );
    expect(JSON.parse(build.text).scripts.prepare).toBe('npm run build && cd ../.. && husky');
    const done = '{"scripts":{"prepare":"husky && npm run build"},"dependencies":{"husky":"8"}}';
    expect(addHusky(done, 'package.json', 'husky')).toEqual({ text: done, changes: [] });
  });

  it('refuses a package.json that is not a JSON object, naming it', () => {
    expect(() => addHusky('{"name": ', 'web/package.json', 'husky')).toThrow(
      /web\/package.json is not valid JSON/,
    );
    expect(() => addHusky('[]', 'package.json', 'husky')).toThrow(/does not hold a JSON object/);
  });
});
