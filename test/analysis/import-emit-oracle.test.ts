import { describe, expect, it } from '@jest/globals';
import type * as ts from 'typescript';
import { isEmitted } from '../../src/analysis/graph/emit-settings.js';
import { emitSettingsOf } from '../../src/analysis/resolve/emit-settings-of.js';
import { typescript } from '../../src/analysis/typescript-runtime.js';
import { EXTRACTORS, type ScriptLanguage } from './support/typescript-extractors.js';

/**
 * TypeScript is the oracle: each snippet goes through `ts.transpileModule` (the per-file emit
 * dependency-cruiser's default reads) under each compiler setting, and the relative imports
 * left in the JavaScript must be exactly those AUREUS reads as emitted (ImportFact.keptWhen
 * under the settings). Snippets import only `./…` specifiers and hold no other string.
 */
const SNIPPETS: readonly (readonly [string, string, ScriptLanguage?])[] = [
  ['type-only import', "import type { A } from './a';\nlet x: A;"],
  ['all-type specifiers', "import { type A, type B } from './a';\nlet x: A | B;"],
  ['one value specifier among types', "import { type A, B } from './a';\nB();"],
  ['used only in types', "import { A } from './a';\nlet x: A;"],
  ['unused', "import { A } from './a';"],
  ['empty braces', "import {} from './a';"],
  ['side effect', "import './a';"],
  ['used as a value', "import { A } from './a';\nnew A();"],
  [
    'default used in a type, namespace as a value',
    "import D from './a';\nimport * as N from './b';\nlet d: D;\nN.f();",
  ],
  ['typeof in a type', "import { A } from './a';\nlet x: typeof A;"],
  ['shadowed by a parameter', "import { A } from './a';\nfunction f(A: number) { return A; }"],
  ['shadowed in a block only', "import { A } from './a';\n{ const A = 1; A; }\nA;"],
  [
    'implements and interface extends',
    "import { A, B } from './a';\nclass C implements A {}\ninterface I extends B {}",
  ],
  ['class extends', "import { A } from './a';\nclass C extends A {}"],
  ['computed key in a type', "import { K } from './a';\ntype T = { [K.key]: string };"],
  ['local export of an import', "import { A } from './a';\nexport { A };"],
  ['local type export of an import', "import { A } from './a';\nexport type { A };"],
  [
    'in a declare statement',
    "import { A } from './a';\ndeclare const x: typeof A;\ndeclare function f(a: A): void;",
  ],
  ['member name, not a reference', "import { A } from './a';\nconst o = { A: 1 };\no.A;"],
  ['shorthand property', "import { A } from './a';\nconst o = { A };"],
  ['import equals used', "import A = require('./a');\nA.f();"],
  ['import equals unused', "import A = require('./a');\nlet x: A.T;"],
  ['exported import equals', "export import A = require('./a');"],
  ['re-export named', "export { A } from './a';"],
  ['re-export star', "export * from './a';\nexport * as N from './b';"],
  ['re-export type', "export type { A } from './a';\nexport { type B } from './b';"],
  [
    'declare module',
    "declare module 'x' {\n  import { A } from './a';\n  export { B } from './b';\n}",
  ],
  [
    'jsx element',
    "import { Foo } from './a';\nimport React from './b';\nconst e = <Foo />;",
    'tsx',
  ],
  [
    'jsx fragment, factory only',
    "import React from './b';\nimport { h } from './c';\nconst e = <></>;",
    'tsx',
  ],
  ['jsx intrinsic element', "import React from './b';\nconst e = <div />;", 'tsx'],
  ['jsx member tag', "import * as UI from './a';\nconst e = <UI.Button />;", 'tsx'],
  [
    'decorated class constructor',
    "import { Inject } from './d';\nimport { A } from './a';\nimport type { B } from './b';\n@Inject()\nclass C { constructor(a: A, b: B) {} }",
  ],
  [
    'decorated property and method',
    "import { Inject } from './d';\nimport { A } from './a';\nimport { R } from './b';\nclass C {\n  @Inject() a: A;\n  @Inject() m(): R { return null!; }\n}",
  ],
  [
    'parameter decorator',
    "import { Inject } from './d';\nimport { A } from './a';\nclass C { constructor(@Inject() a: A) {} }",
  ],
  [
    'optional type in metadata',
    "import { Inject } from './d';\nimport { A } from './a';\nclass C { @Inject() a: A | undefined; }",
  ],
  ['undecorated class', "import { A } from './a';\nclass C { constructor(a: A) {} }"],
  [
    'shadowed by destructuring',
    "import { A, B } from './a';\nfunction f() { const { A } = o; const [B = A] = p; return A + B; }",
  ],
  ['shadowed by a loop variable', "import { A } from './a';\nfor (const A of list) A;"],
  [
    'shadowed by a nested class',
    "import { A } from './a';\nfunction f() { class A {} return new A(); }",
  ],
  [
    'assertion types',
    "import { A, B } from './a';\nimport { C } from './b';\nconst x = y as A;\nconst z = w satisfies B;\n(C as unknown);",
  ],
  ['arrow parameter', "import { A } from './a';\nconst f = A => A;"],
  [
    'decorated members of a class expression',
    "import { Inject } from './d';\nimport { A } from './a';\nimport { B } from './b';\nconst K = class { @Inject() a: A; constructor(@Inject() b: B) {} };",
  ],
  [
    'decorated rest parameter, accessors and private field',
    "import { Inject } from './d';\nimport { A } from './a';\nimport { B } from './b';\nimport { C } from './c';\nclass K {\n  m(@Inject() ...a: A[]) {}\n  @Inject() get b(): B { return null!; }\n  set b(v) {}\n  @Inject() #c: C;\n}",
  ],
  [
    'metadata of qualified, generic and union types',
    "import { Inject } from './d';\nimport * as N from './a';\nimport { G } from './b';\nimport { U } from './c';\nclass K {\n  @Inject() a: N.T;\n  @Inject() b: G<string>;\n  @Inject() c: U | null | U;\n}",
  ],
  [
    'abstract and declared fields',
    "import { Inject } from './d';\nimport { A } from './a';\nimport { B } from './b';\nabstract class K {\n  @Inject() abstract a: A;\n  @Inject() declare b: B;\n}",
  ],
];

/** Compiler options as a tsconfig writes them: AUREUS reads them so, TypeScript converts them. */
const SETTINGS: readonly (readonly [string, Record<string, unknown>])[] = [
  ['defaults', {}],
  ['verbatimModuleSyntax', { verbatimModuleSyntax: true }],
  ['classic JSX', { jsx: 'react' }],
  ['automatic JSX', { jsx: 'react-jsx' }],
  ['preserved JSX', { jsx: 'preserve' }],
  ['jsxFactory h', { jsx: 'react', jsxFactory: 'h' }],
  ['legacy decorator metadata', { experimentalDecorators: true, emitDecoratorMetadata: true }],
  [
    'legacy decorator metadata, strict',
    { experimentalDecorators: true, emitDecoratorMetadata: true, strict: true },
  ],
  [
    'legacy decorator metadata, strict without strictNullChecks',
    {
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      strict: true,
      strictNullChecks: false,
    },
  ],
  ['decorator metadata without experimentalDecorators', { emitDecoratorMetadata: true }],
];

/** The relative specifiers left in TypeScript's output for the snippet. */
function emittedSpecifiers(text: string, language: ScriptLanguage, options: ts.CompilerOptions) {
  const output = typescript.transpileModule(text, {
    fileName: language === 'tsx' ? 'snippet.tsx' : 'snippet.ts',
    compilerOptions: {
      // CommonJS: an `import x = require()` is emitted only there; imports become `require()`.
      module: typescript.ModuleKind.CommonJS,
      target: typescript.ScriptTarget.ES2022,
      ...options,
    },
    reportDiagnostics: false,
  }).outputText;
  return [
    ...new Set([...output.matchAll(/["'](\.\/[a-z]+)["']/g)].map((match) => match[1])),
  ].sort();
}

describe('imports are runtime edges exactly when TypeScript’s emit keeps them', () => {
  describe.each(SETTINGS)('%s', (_name, options) => {
    const settings = emitSettingsOf(options);
    const converted = typescript.convertCompilerOptionsFromJson(options, '/');
    it.each(SNIPPETS)('%s', async (_snippet, text, language = 'typescript') => {
      expect(converted.errors).toEqual([]);
      const expected = emittedSpecifiers(text, language, converted.options);
      const kept: Record<string, string[]> = {};
      for (const [parser, extract] of EXTRACTORS) {
        const facts = await extract(text, language);
        const specifiers = facts.imports
          .filter((fact) => fact.specifier.startsWith('./') && isEmitted(fact, settings))
          .map((fact) => fact.specifier);
        kept[parser] = [...new Set(specifiers)].sort();
      }
      expect(kept).toEqual(Object.fromEntries(EXTRACTORS.map(([parser]) => [parser, expected])));
    });
  });
});
