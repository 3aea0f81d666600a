import { describe, expect, it } from '@jest/globals';
import { unresolvedHeritage } from '../../../src/analysis/semantics/heritage.js';
import { depthsOf, heritageOf, implementationsOf } from './semantics-support.js';

const ROOT = 'src/main/java/com/example';

describe('implementations and inheritance across Java files', () => {
  it('sees the types of the same package without an import', async () => {
    const heritage = await heritageOf({
      [`${ROOT}/shapes/Shape.java`]: 'package com.example.shapes;\npublic interface Shape {}\n',
      [`${ROOT}/shapes/Circle.java`]:
        'package com.example.shapes;\npublic class Circle implements Shape {}\n',
      [`${ROOT}/shapes/Ring.java`]:
        'package com.example.shapes;\npublic class Ring extends Circle {}\n',
    });
    expect(implementationsOf(heritage)).toEqual({
      [`${ROOT}/shapes/Shape.java#Shape`]: {
        direct: [`${ROOT}/shapes/Circle.java#Circle`],
        all: [`${ROOT}/shapes/Circle.java#Circle`, `${ROOT}/shapes/Ring.java#Ring`],
        concrete: [`${ROOT}/shapes/Circle.java#Circle`, `${ROOT}/shapes/Ring.java#Ring`],
      },
    });
  });

  it('resolves single-type, on-demand and inline fully qualified names by path suffix', async () => {
    const heritage = await heritageOf({
      [`${ROOT}/shapes/Shape.java`]: 'package com.example.shapes;\npublic interface Shape {}\n',
      [`${ROOT}/base/Base.java`]:
        'package com.example.base;\npublic abstract class Base {\n  public static class Inner {}\n}\n',
      [`${ROOT}/app/Square.java`]: [
        'package com.example.app;',
        'import com.example.shapes.Shape;',
        'import com.example.base.*;',
        'public class Square extends Base implements Shape {}',
        'class Other extends com.example.base.Base.Inner implements com.example.shapes.Shape {}',
        'class Listed extends java.util.ArrayList<String> implements Comparable<Listed> {}',
        'class Failure extends RuntimeException {}',
        'class Worse extends Failure {}',
        'class Root extends java.lang.Object {}',
        '',
      ].join('\n'),
    });
    expect(depthsOf(heritage)).toMatchObject({
      [`${ROOT}/app/Square.java#Square`]: { depth: 1, chain: [`${ROOT}/base/Base.java#Base`] },
      [`${ROOT}/app/Square.java#Other`]: { depth: 1, chain: [`${ROOT}/base/Base.java#Inner`] },
      [`${ROOT}/app/Square.java#Listed`]: { depth: 1, chain: ['?java.util.ArrayList (external)'] },
      [`${ROOT}/app/Square.java#Failure`]: { depth: 0, chain: [] },
      [`${ROOT}/app/Square.java#Worse`]: { depth: 1, chain: [`${ROOT}/app/Square.java#Failure`] },
      [`${ROOT}/app/Square.java#Root`]: { depth: 0, chain: [] },
    });
    expect(implementationsOf(heritage)[`${ROOT}/shapes/Shape.java#Shape`]?.direct).toEqual([
      `${ROOT}/app/Square.java#Square`,
      `${ROOT}/app/Square.java#Other`,
    ]);
    expect(unresolvedHeritage(heritage).map(({ written, reason }) => [written, reason])).toEqual([
      ['java.util.ArrayList', 'external'],
      ['Comparable', 'external'],
      ['RuntimeException', 'builtin'],
      ['java.lang.Object', 'builtin'],
    ]);
  });

  it('does not choose between two files that could hold a fully qualified name', async () => {
    const heritage = await heritageOf({
      'module-a/src/com/example/Base.java': 'package com.example;\npublic class Base {}\n',
      'module-b/src/com/example/Base.java': 'package com.example;\npublic class Base {}\n',
      'app/src/com/example/app/App.java':
        'package com.example.app;\nimport com.example.Base;\npublic class App extends Base {}\n',
    });
    expect(unresolvedHeritage(heritage)).toEqual([
      {
        file: 'app/src/com/example/app/App.java',
        name: 'App',
        relation: 'extends',
        written: 'Base',
        reason: 'ambiguous',
        detail: 'com.example.Base',
      },
    ]);
  });
});
