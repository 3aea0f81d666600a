import { describe, expect, it } from '@jest/globals';
import { deepInheritance } from '../../../src/critic/rules/deep-inheritance.js';
import { briefly, contextOf } from '../critic-support.js';

describe('deep_inheritance', () => {
  it('follows an aliased import across files to depth 3 (max 2) and names the chain', async () => {
    const context = await contextOf({
      'src/base.ts': 'export class Base {}\n',
      'src/middle.ts':
        "import { Base as Root } from './base.js';\nexport class Middle extends Root {}\n",
      'src/leaf.ts': [
        "import * as middle from './middle.js';",
        'export class Leaf extends middle.Middle {}',
        'export class Bottom extends Leaf {',
        '  run(): void {}',
        '}',
        '',
      ].join('\n'),
    });
    const findings = deepInheritance.check(context);
    expect(briefly(findings)).toEqual([
      { ruleId: 'deep_inheritance', symbol: 'Bottom', at: 'src/leaf.ts:3' },
    ]);
    expect(findings[0]).toMatchObject({
      message:
        'class Bottom extends Leaf → Middle → Base, 3 levels deep; the limit is 2 (forbidden_patterns.deep_inheritance.max_depth)',
      location: { path: 'src/leaf.ts', startLine: 3, endLine: 5 },
      measured: 3,
      limit: 2,
    });
  });

  it('counts a base from a package as one level and names it as written', async () => {
    const context = await contextOf({
      'src/view.tsx': [
        "import React from 'react';",
        'export class View extends React.Component {}',
        'export class Panel extends View {}',
        'export class Dialog extends Panel {}',
        '',
      ].join('\n'),
    });
    expect(deepInheritance.check(context).map((finding) => finding.message)).toEqual([
      'class Dialog extends Panel → View → React.Component, 3 levels deep; the limit is 2 (forbidden_patterns.deep_inheritance.max_depth)',
    ]);
  });

  it('counts no level for a builtin base: Error, Exception, java.lang.RuntimeException', async () => {
    const context = await contextOf({
      'src/errors.ts': [
        'export class AppError extends Error {}',
        'export class NotFound extends AppError {}',
        'export class UserNotFound extends NotFound {}',
        '',
      ].join('\n'),
      'app/errors.py': [
        'class AppError(Exception): pass',
        'class NotFound(AppError): pass',
        'class UserNotFound(NotFound): pass',
        '',
      ].join('\n'),
      'src/main/java/app/Errors.java': [
        'package app;',
        'class AppError extends RuntimeException {}',
        'class NotFound extends AppError {}',
        'class UserNotFound extends NotFound {}',
        '',
      ].join('\n'),
    });
    expect(deepInheritance.check(context)).toEqual([]);
  });

  it('passes a depth of exactly max_depth, and implements is never a level', async () => {
    const context = await contextOf({
      'src/shapes.ts': [
        'export interface Shape {}',
        'export interface Named {}',
        'export class Base {}',
        'export class Middle extends Base implements Shape {}',
        'export class Leaf extends Middle implements Shape, Named {}',
        '',
      ].join('\n'),
    });
    expect(deepInheritance.check(context)).toEqual([]);
  });

  it('leaves out class hierarchies in test files', async () => {
    const context = await contextOf({
      'test/suites.test.ts':
        'class Base {}\nclass Middle extends Base {}\nclass Leaf extends Middle {}\nclass Suite extends Leaf {}\n',
    });
    expect(context.project.inheritance.map((cls) => cls.depth)).toEqual([0, 1, 2, 3]);
    expect(deepInheritance.check(context)).toEqual([]);
  });

  it('reads max_depth from the policy', async () => {
    const context = await contextOf(
      { 'src/a.ts': 'class A {}\nclass B extends A {}\n' },
      'forbidden_patterns:\n  deep_inheritance:\n    max_depth: 0\n',
    );
    expect(briefly(deepInheritance.check(context))).toEqual([
      { ruleId: 'deep_inheritance', symbol: 'B', at: 'src/a.ts:2' },
    ]);
  });
});
