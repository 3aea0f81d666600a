import { describe, expect, it } from '@jest/globals';
import { depthsOf, heritageOf, implementationsOf } from './semantics-support.js';

const SHAPES = [
  'from abc import ABC, abstractmethod',
  '',
  'class Shape(ABC):',
  '    @abstractmethod',
  '    def area(self): ...',
  '',
].join('\n');

describe('implementations and inheritance across Python files', () => {
  it('follows `from shapes import Shape` to the class in shapes.py', async () => {
    const heritage = await heritageOf({
      'shapes.py': SHAPES,
      'circle.py':
        'from shapes import Shape\n\nclass Circle(Shape):\n    def area(self):\n        return 3\n',
    });
    expect(implementationsOf(heritage)).toEqual({
      'shapes.py#Shape': {
        direct: ['circle.py#Circle'],
        all: ['circle.py#Circle'],
        concrete: ['circle.py#Circle'],
      },
    });
  });

  it('follows relative imports, module attributes, dotted imports and package re-exports', async () => {
    const heritage = await heritageOf({
      'src/geometry/__init__.py': 'from .shapes import Shape\n',
      'src/geometry/shapes.py': SHAPES,
      'src/geometry/round.py': 'from .shapes import Shape as Base\n\nclass Circle(Base): pass\n',
      'src/app/square.py': 'import geometry.shapes\n\nclass Square(geometry.shapes.Shape): pass\n',
      'src/app/oval.py': 'from geometry import shapes\n\nclass Oval(shapes.Shape): pass\n',
      'src/app/ring.py': 'import geometry as g\n\nclass Ring(g.Shape): pass\n',
      'tests/test_shapes.py': 'from geometry import Shape\n\nclass Fake(Shape): pass\n',
    });
    expect(implementationsOf(heritage)['src/geometry/shapes.py#Shape']?.direct).toEqual([
      'src/app/oval.py#Oval',
      'src/app/ring.py#Ring',
      'src/app/square.py#Square',
      'src/geometry/round.py#Circle',
      'tests/test_shapes.py#Fake',
    ]);
  });

  it('counts an installed base as one unresolved level, a builtin or typing base as none', async () => {
    const heritage = await heritageOf({
      'errors.py': [
        'import typing',
        'from django.db import models',
        'from enum import Enum',
        'from typing import TypedDict',
        '',
        'class AppError(Exception): pass',
        'class NotFound(AppError): pass',
        'class Item(models.Model): pass',
        'class Color(Enum): pass',
        'class Movie(TypedDict): pass',
        'class Point(typing.NamedTuple): pass',
        'class Registry(dict): pass',
        '',
      ].join('\n'),
    });
    expect(depthsOf(heritage)).toEqual({
      'errors.py#AppError': { depth: 0, chain: [] },
      'errors.py#NotFound': { depth: 1, chain: ['errors.py#AppError'] },
      'errors.py#Item': { depth: 1, chain: ['?models.Model (external)'] },
      'errors.py#Color': { depth: 0, chain: [] },
      'errors.py#Movie': { depth: 0, chain: [] },
      'errors.py#Point': { depth: 0, chain: [] },
      'errors.py#Registry': { depth: 0, chain: [] },
    });
  });
});
