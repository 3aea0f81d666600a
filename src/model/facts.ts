/**
 * Facts about one source file: what the critic, the pricing and reflexion read. A file's facts
 * depend only on its bytes, its language and ANALYZER_VERSION, so they are cached by blob SHA.
 *
 * Several parsers produce them (web-tree-sitter for Python, Go and Java; oxc and TypeScript's own
 * parser for TypeScript and JavaScript); the definitions below are the contract they must all meet
 * exactly, and tests compare them on the same files.
 */

/** Bump when any extractor's output changes: cached facts of another version are ignored. */
export const ANALYZER_VERSION = 21;

export type Language = 'typescript' | 'tsx' | 'javascript' | 'python' | 'go' | 'java';

/** Lines are 1-based and inclusive. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/**
 * Physical lines of the file, ended where the language's parser ends them (a lone `\r` too, and
 * U+2028/U+2029 in JavaScript; `\r\n` is one ending, its `\r` whitespace, so CRLF files count
 * like LF files; a final line ending does not start an extra line): `blank` holds only whitespace; `comment`
 * holds comment text and whitespace only (a line inside a block comment included; a Python
 * docstring is a comment); `code` is every other line, including lines (even blank ones)
 * inside multi-line strings. code + comment + blank = number of lines.
 */
export interface LineCounts {
  readonly code: number;
  readonly comment: number;
  readonly blank: number;
}

export interface ClassFact {
  /** Declared name; `default` for an anonymous `export default class`. Class expressions are not classes here. */
  readonly name: string;
  readonly span: Span;
  /**
   * Its size in lines, as FileFacts `loc` measures a file: code lines within the span, never
   * fewer than its `methods` (a formatter gives each member a line of its own).
   */
  readonly loc: number;
  /**
   * The extended class as written, generic arguments removed: `extends a.Base<T>` → `a.Base`.
   * Python: the first base that is not `object`, `ABC`, `Protocol` or `Generic[…]`. Go, none.
   */
  readonly extends: string | null;
  /** Implemented interfaces as written, generic arguments removed, in source order. */
  readonly implements: readonly string[];
  readonly abstract: boolean;
  /** At least one member, and every method and field is static (a constructor counts as non-static). */
  readonly staticOnly: boolean;
  /** Number of methods, constructors and accessors included. */
  readonly methods: number;
}

export type AbstractionKind = 'interface' | 'abstract-class' | 'protocol';

/** An interface (TS, Java, Go), an abstract class (TS, Java, Python ABC) or a Python Protocol. */
export interface AbstractionFact {
  readonly name: string;
  readonly kind: AbstractionKind;
  readonly span: Span;
  /**
   * A TS/JS interface that describes data: none of its own members is a method, call or
   * construct signature (property and index signatures and accessors only, whatever their
   * types: `onDone: () => void` is a property); an empty interface too. It says what the
   * equivalent `type` alias would say. An interface that extends is data only when every base
   * is an interface of data the same file declares; a base it cannot see (imported, qualified,
   * an alias) may declare methods, so it is an abstraction. False for every other abstraction: a Java or Go
   * interface declares methods, an abstract class or a Protocol is meant to be implemented.
   */
  readonly dataOnly: boolean;
}

export type FunctionKind = 'function' | 'method' | 'arrow' | 'constructor' | 'accessor';

export interface FunctionFact {
  /**
   * Declared name; methods as `Class.method`; a function or arrow assigned to a variable or
   * property takes that name; otherwise `(anonymous)`.
   */
  readonly name: string;
  readonly kind: FunctionKind;
  readonly span: Span;
  /** Its size in lines, as FileFacts `loc` measures a file. */
  readonly loc: number;
  /**
   * 1 + decision points in its own body (nested functions excluded): if, each loop (for,
   * for-in/of, while, do), each case with a test (not default), catch, `?:`, `&&`, `||`, `??`
   * and their assignment forms `&&=`, `||=`, `??=` (and Python's `and`/`or`, comprehension
   * `if`s, Go's `select` cases). Optional chaining, default values and conditional types do
   * not count.
   */
  readonly complexity: number;
  readonly parameters: number;
  /**
   * Callee names of the calls in its own body, in source order: the identifier (`f()` → `f`) or
   * the last property (`a.b.c()` → `c`); `new X()` counts as `X`. Computed callees are skipped.
   */
  readonly calls: readonly string[];
}

export interface ImportFact {
  /** The module specifier as written (`./a.js`, `react`, `os.path`, `fmt`). */
  readonly specifier: string;
  /** Erased at run time: `import type`, `export type … from`, or an import whose every name is `type`. */
  readonly typeOnly: boolean;
  /** `export … from` / `export * from`. */
  readonly reexport: boolean;
  /**
   * `import()` or `require()` with a literal specifier. A type-level `import('x').T` is
   * `typeOnly`, not dynamic.
   */
  readonly dynamic: boolean;
  /**
   * Runs only when the function holding it is called (Python's `import` inside a `def`), never
   * while the file itself loads: the way Python code breaks an import cycle on purpose, so it
   * closes none (find-cycles.ts). Still a dependency: an edge, a module edge. Absent elsewhere.
   */
  readonly deferred?: true;
  /**
   * When the import is still there at run time: TypeScript's emit keeps it when one of these
   * conditions holds under the compiler settings of the file (EmitCondition); `[]` never (it is
   * `typeOnly`), `['always']` whatever the settings. Other languages: `[]` when `typeOnly`, else
   * `['always']`.
   */
  readonly keptWhen: readonly EmitCondition[];
  /**
   * The names the import binds in the importing file, in source order (ImportBinding). Empty
   * for an import that binds nothing: a side-effect import, a dynamic `import()`, a type-level
   * `import('x').T`, a `require()` whose result is not stored in a declaration.
   */
  readonly bindings: readonly ImportBinding[];
  readonly line: number;
}

/**
 * A compiler setting under which TypeScript's emit (what `ts.transpileModule` writes, file by
 * file) keeps an import whose fate the file alone does not settle:
 * - `always`: kept whatever the settings: a side-effect import, `export *`, a re-export of a
 *   name not marked `type`, `import()`/`require()`, any import of a JavaScript file, and an
 *   import one of whose bindings (not marked `type`) the file uses as a value;
 * - `preserved-values`: an import that binds values none of which the file uses as a value
 *   (`import { A } from` with `A` only in types, or unused): kept where value imports are
 *   preserved (`verbatimModuleSyntax`, `preserveValueImports`, `importsNotUsedAsValues:
 *   preserve|error`);
 * - `preserved-imports`: an import whose names are all marked `type`, or that names none
 *   (`import { type A } from`, `import {} from`, `export { type A } from`): kept only where
 *   every import is preserved (`verbatimModuleSyntax`, `importsNotUsedAsValues:
 *   preserve|error`);
 * - `jsx-factory:N`: the file holds JSX where the binding `N` is not shadowed: kept when the
 *   JSX factory's first name is `N` (`jsxFactory`, `React.createElement` by default), whatever
 *   the `jsx` runtime (file by file, TypeScript cannot find the automatic runtime's module and
 *   keeps the factory as the classic runtime needs it);
 * - `decorator-metadata:D` and `decorator-metadata:D:loose`: a binding names the type of a
 *   decorated declaration whose metadata TypeScript emits (`emitDecoratorMetadata`), with the
 *   decorators `D` (`legacy`: `experimentalDecorators`; `es`: without it; `any`: either);
 *   `:loose` when it is so only without `strictNullChecks` (`A | undefined`).
 * `import type`, `export type` and `import('m').T` have none: they never survive the emit.
 */
export type EmitCondition =
  | 'always'
  | 'preserved-values'
  | 'preserved-imports'
  | `jsx-factory:${string}`
  | `decorator-metadata:${DecoratorMode}`
  | `decorator-metadata:${DecoratorMode}:loose`;

export type DecoratorMode = 'any' | 'legacy' | 'es';

/**
 * One name an import binds: `imported` is the name in the imported module, `local` the name it
 * takes in the importing file. `*` as `imported` is the module itself (its namespace object);
 * `*` as both is "every name" (`export * from`, `from m import *`, Java's `a.b.*`). A string
 * name (`import { 'a-b' as c }`) is written without its quotes.
 *
 * TypeScript / JavaScript (both extractors alike):
 * - `import X from 'm'` → {default, X}; `import { A as B, C }` → {A, B}, {C, C};
 *   `import * as ns` → {*, ns}; `import 'm'` → none; `import type …` binds as its value form
 *   (the fact is `typeOnly`);
 * - `import x = require('m')` → {*, x};
 * - a re-export binds the name it exports, so `local` is the exported name:
 *   `export { A as B } from 'm'` → {A, B}; `export * from 'm'` → {*, *};
 *   `export * as ns from 'm'` → {*, ns};
 * - `require('m')`, parentheses around it looked through, binds only as the initializer of a
 *   declaration (wherever it stands): `const m = require('m')` → {*, m} (the CommonJS module
 *   object, whose value is what `module.exports =` sets, the `default` export);
 *   `const { a, b: c, d = 1 } = require('m')` → {a, a}, {b, c}, {d, d} (nested patterns, rest
 *   elements and computed keys bind nothing); `const E = require('m').E` → {E, E};
 * - `import('m')` and `import('m').T` → none.
 * Python: `import a.b` → {*, a} (the statement binds the top package; a reference `a.b.X`
 * reaches `X` through it); `import a.b as c` → {*, c}; `from m import x as y` → {x, y};
 * `from m import *` → {*, *}; `importlib.import_module('m')` and `__import__('m')` → none.
 * Go: `import "a/b"` → {*, b} (the last path segment: the package's declared name is not
 * visible from the importing file, and the convention is that they agree); `import c "a/b"` →
 * {*, c}; `_` and `.` as written.
 * Java: `import a.b.C;` → {C, C}; `import a.b.*;` → {*, *}; `import static a.b.C.m;` → {m, m};
 * `import static a.b.C.*;` → {*, *}; `import module m;` → {*, *}.
 */
export interface ImportBinding {
  readonly imported: string;
  readonly local: string;
}

export interface ExportFact {
  /**
   * Exported name, once per name; `default` (also for `export =` and `module.exports =`); `*`
   * for `export * from`. CommonJS `exports.a =` exports `a`.
   */
  readonly name: string;
  readonly typeOnly: boolean;
  readonly line: number;
}

/** A module-level `let`/`var` (JS/TS), a module-level assignment target (Python), a package `var` (Go), a non-final static field (Java). */
export interface MutableStateFact {
  readonly name: string;
  readonly line: number;
}

export type ReflectionKind =
  | 'eval'
  | 'new-function'
  | 'proxy'
  | 'reflect'
  | 'dynamic-import'
  | 'dynamic-require'
  | 'getattr'
  | 'dunder-import'
  | 'java-reflection';

export interface ReflectionFact {
  readonly kind: ReflectionKind;
  readonly line: number;
}

/** A call that subscribes to events: `.on(`, `.once(`, `.addListener(`, `.addEventListener(`, `.subscribe(`. */
export interface EventSubscriptionFact {
  readonly method: string;
  /** The event name when it is a string literal. */
  readonly event: string | null;
  readonly line: number;
}

/** Use of a dependency-injection container: an import of a known DI library or a container call. */
export interface DiContainerFact {
  /** The library's name; `(unknown)` for a container call in a file that imports none. */
  readonly library: string;
  readonly line: number;
}

export interface FileFacts {
  readonly language: Language;
  readonly lines: LineCounts;
  /**
   * The file's size in lines, what pricing and every size rule count: what the parser sees,
   * whatever the layout. Its code lines (`lines.code`), but never fewer than one line per 64
   * code characters beyond the first 500 (⌈(c − 500) / 64⌉, c counting the UTF-16 code units
   * that are neither whitespace nor in a comment), nor than the methods of its classes.
   * Formatted code measures exactly its code lines; code squeezed onto few lines (minified, a
   * 20,000-method class on one line) measures close to its formatted form.
   */
  readonly loc: number;
  readonly classes: readonly ClassFact[];
  readonly abstractions: readonly AbstractionFact[];
  readonly functions: readonly FunctionFact[];
  readonly imports: readonly ImportFact[];
  readonly exports: readonly ExportFact[];
  readonly mutableState: readonly MutableStateFact[];
  readonly reflection: readonly ReflectionFact[];
  readonly eventSubscriptions: readonly EventSubscriptionFact[];
  readonly diContainers: readonly DiContainerFact[];
  /**
   * The callee of every call in the file (module level included) that is a chain of names,
   * written with dots, each once, sorted: `fs.promises.writeFile(…)` → `fs.promises.writeFile`,
   * `fetch(…)` → `fetch`, `new ns.Client()` → `ns.Client`, Go `exec.Command(…)` →
   * `exec.Command`, Java `System.getenv(…)` → `System.getenv`. A chain rooted elsewhere has
   * none: `this.f()`, `super.f()`, `a[k]()`, `f()()`, `a.b().c()` (only `a.b` is one), a private
   * name (`a.#p()`). TS/JS looks through `!` on the callee and optional chaining (`a?.b()` →
   * `a.b`), not through parentheses; calls inside types are none. It is what a callee's root
   * name resolves from: an import binding of the file, a declaration, or a global.
   */
  readonly qualifiedCalls: readonly string[];
  /**
   * The syntax errors the parser reported (at most 20), in source order; facts are then partial.
   * For TypeScript and JavaScript they are TypeScript's own parser's, whichever parser read the
   * file (src/scan/fact-parsers.ts): the parsers recover differently and point at
   * different places, so a file's errors, its partial facts, and so its findings, depend only
   * on its bytes.
   */
  readonly diagnostics: readonly SyntaxDiagnostic[];
  /** Java files only: what their import graph is resolved from (src/analysis/resolve/java-imports.ts). */
  readonly java?: JavaUnitFact;
  /**
   * Go: the file's build constraint keeps it out of every build (`//go:build ignore`, the go
   * command's convention for a program kept beside a package and run with `go run`), so it is
   * none of its folder's package. Absent otherwise, and in other languages.
   */
  readonly buildIgnored?: true;
  /**
   * The comments before the file's first code say a tool wrote it (`@generated`, `Code
   * generated … DO NOT EDIT`, `auto-generated`, `generated by`, …). Only such a file under
   * `paths.generated` is generated code (path-kinds.ts): a name alone is a claim anyone can
   * make of a god class. `new` when the file was not generated code at the base of the change
   * judged (check/generated-at-base.ts): a mark anyone can write, so code. Absent otherwise.
   */
  readonly generatorMarked?: true | 'new';
}

/** A Java compilation unit's names, as src/analysis/tree-sitter/java-references.ts reads them. */
export interface JavaUnitFact {
  /** The `package` declaration's name; `''` in the unnamed package. */
  readonly package: string;
  /** The types the file declares at its top level (class, interface, enum, record, annotation). */
  readonly types: readonly string[];
  /**
   * Each type name the code uses, as written (`Foo`, `Map.Entry`, `a.b.C`), once, at its first
   * use, in source order; names of types the file declares itself are left out.
   */
  readonly references: readonly { readonly name: string; readonly line: number }[];
}

/**
 * One syntax error: where the parser stopped accepting the text (`line` 1-based; `column`
 * 1-based, counted in UTF-16 code units as editors, GitHub and SARIF count them, a byte-order
 * mark excepted) and the parser's own words. A JavaScript file holding TypeScript syntax has
 * one at the first such node.
 */
export interface SyntaxDiagnostic {
  readonly line: number;
  readonly column: number;
  readonly message: string;
}
