import { describe, expect, it } from '@jest/globals';
import { heritageOf } from './semantics-support.js';

describe('Go in the heritage', () => {
  it('is left out: no inheritance, and interfaces are satisfied without being named', async () => {
    const heritage = await heritageOf({
      'shapes/shape.go': 'package shapes\n\ntype Shape interface {\n\tArea() float64\n}\n',
      'shapes/circle.go':
        'package shapes\n\ntype Circle struct{}\n\nfunc (c Circle) Area() float64 { return 3 }\n',
      'src/index.ts': 'export interface Shape {}\n',
    });
    expect(heritage.classes).toEqual([]);
    expect(heritage.abstractions).toEqual([
      { file: 'src/index.ts', name: 'Shape', kind: 'interface' },
    ]);
  });
});
