import type { Repo } from '../support/git-fixture.js';

/**
 * The repositories the checks over the API are compared with local checks on: enough of
 * TypeScript's resolution (an alias through an `extends`ed config, baseUrl), classes and Python
 * that a Report has cycles, abstractions and costs to agree on.
 */

/** Small enough that the fixture changes are over it. */
export const SMALL_BUDGET = 'version: 1\nbudgets:\n  change:\n    warn: 8\n    block: 10\n';
export const BINARY = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02, 0x00, 0xff]);

/** The base of the fixtures: a path alias through an `extends`ed config, classes, Python. */
export function typescriptProject(origin: Repo): void {
  origin.write('.aureus/policy.yaml', SMALL_BUDGET);
  origin.write('package.json', '{ "name": "fixture", "private": true, "type": "module" }\n');
  // `paths` live in a config that is not named tsconfig*.json: found only by following `extends`.
  origin.write(
    'tsconfig.json',
    '{\n  // the alias comes from the shared config\n  "extends": "./configs/base",\n  "compilerOptions": { "baseUrl": "." }\n}\n',
  );
  origin.write(
    'configs/base.json',
    '{ "compilerOptions": { "module": "ESNext", "moduleResolution": "Bundler", "strict": true, "paths": { "@lib/*": ["src/lib/*"] } } }\n',
  );
  origin.write(
    'src/lib/a.ts',
    "import { b } from '@lib/b';\nexport function a(): number {\n  return b() + 1;\n}\n",
  );
  origin.write('src/lib/b.ts', 'export function b(): number {\n  return 2;\n}\n');
  origin.write('src/animals/animal.ts', "export class Animal {\n  name = 'animal';\n}\n");
  origin.write(
    'src/animals/dog.ts',
    "import { Animal } from './animal';\nexport class Dog extends Animal {\n  bark(): string {\n    return 'woof';\n  }\n}\n",
  );
  // `src/lib/a` resolves through baseUrl; lodash is not installed anywhere.
  origin.write(
    'src/app/main.ts',
    "import lodash from 'lodash';\nimport { a } from 'src/lib/a';\nimport { Dog } from '../animals/dog';\nexport const main = (): string => new Dog().bark() + a() + lodash.VERSION;\n",
  );
  origin.write(
    'tools/report.py',
    'import os\n\nclass Report:\n    def render(self):\n        return os.getcwd()\n',
  );
  origin.write('README.md', '# fixture\n');
}

/** A change that closes a cycle through the alias and adds abstractions. */
export function addFeatures(origin: Repo): void {
  origin.write(
    'src/lib/b.ts',
    "import { a } from '@lib/a';\nexport function b(): number {\n  return a.length + 2;\n}\n",
  );
  origin.write('src/shapes/shape.ts', 'export interface Shape {\n  area(): number;\n}\n');
  origin.write(
    'src/shapes/square.ts',
    "import type { Shape } from './shape.js';\nexport class Square implements Shape {\n  constructor(private readonly side: number) {}\n  area(): number {\n    return this.side * this.side;\n  }\n}\n",
  );
  origin.write(
    'src/animals/puppy.ts',
    "import { Dog } from './dog';\nexport class Puppy extends Dog {\n  small = true;\n}\n",
  );
  origin.write(
    'tools/report.py',
    'import os\n\nclass Report:\n    def render(self):\n        return os.getcwd()\n\nclass LongReport(Report):\n    def render(self):\n        return super().render() * 2\n',
  );
  origin.write('assets/logo.png', BINARY);
}
