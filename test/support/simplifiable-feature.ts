import type { Repo } from './git-fixture.js';

/**
 * A pull request's files with two verified simplifications, shared by the Action's and the
 * App's delivery tests: an unused import on an added line of src/extra.ts (a suggestion) and
 * a one-use helper in src/feature.ts to inline (two hunks: the commit). Base: src/core.ts.
 */
export const FEATURE = `import { core } from './core.js';

function twice(value: number): number {
  return value * 2;
}

export function feature(): number {
  return twice(core());
}
`;

/** src/feature.ts once the inlining is applied. */
export const FEATURE_SIMPLIFIED = `import { core } from './core.js';

export function feature(): number {
  return (core() * 2);
}
`;

export const EXTRA = `import { core } from './core.js';
import { feature } from './feature.js';

export function extra(): number {
  return feature() + 1;
}
`;

export function addSimplifiableFeature(origin: Repo): void {
  origin.write('src/feature.ts', FEATURE);
  origin.write('src/extra.ts', EXTRA);
  origin.write('src/main.ts', "import { extra } from './extra.js';\n\nconsole.log(extra());\n");
}
