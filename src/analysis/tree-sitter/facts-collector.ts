import type {
  AbstractionKind,
  ClassFact,
  DiContainerFact,
  EventSubscriptionFact,
  ExportFact,
  FileFacts,
  FunctionKind,
  ImportFact,
  Language,
  ReflectionKind,
  SyntaxDiagnostic,
} from '../../model/facts.js';
import { type ImportEmit, ImportUses } from '../import-uses.js';
import { classifyLines, codeSize, spansLines } from './line-counts.js';
import { createLineIndex, type LineIndex, lineBreaksOf, type TextRange } from './line-index.js';

/**
 * Gathers one file's facts as a parser walks it, with offsets instead of lines, and assembles
 * the FileFacts at the end. Every extractor (any parser, any language) goes through it, so the
 * rules that do not depend on syntax are written once:
 * - a fact's line is the line of the offset given (`at`);
 * - every list is in source order: sorted (stably) by that offset, functions and classes by the
 *   start of their span, a function's calls by the offset of the callee's name;
 * - an exported name appears once, at its first declaration (overloads, merged declarations),
 *   and is type-only only if every declaration of it is;
 * - a container call whose library is not known takes the first DI library the file imports,
 *   or `(unknown)`.
 */
export class FactsCollector {
  readonly lines: LineIndex;
  private readonly comments: TextRange[] = [];
  private readonly strings: TextRange[] = [];
  private readonly classes: ClassDraft[] = [];
  private readonly abstractions: Positioned<{
    name: string;
    kind: AbstractionKind;
    range: TextRange;
    dataOnly: boolean;
    bases: readonly string[];
  }>[] = [];
  private readonly functions: FunctionDraft[] = [];
  private readonly imports: Positioned<ImportDraft>[] = [];
  /** What the file does with the names its imports bind: TS/JS extractors tell it as they walk. */
  readonly uses = new ImportUses();
  private readonly exports: Positioned<Omit<ExportFact, 'line'>>[] = [];
  private readonly mutableState: Positioned<{ name: string }>[] = [];
  private readonly reflection: Positioned<{ kind: ReflectionKind }>[] = [];
  private readonly events: Positioned<Omit<EventSubscriptionFact, 'line'>>[] = [];
  private readonly containers: Positioned<{ library: string | null }>[] = [];
  private readonly qualifiedCalls = new Set<string>();
  private readonly diagnostics: Positioned<{ message: string }>[] = [];

  constructor(
    private readonly text: string,
    private readonly language: Language,
  ) {
    this.lines = createLineIndex(text, lineBreaksOf(language));
  }

  comment(range: TextRange): void {
    this.comments.push(range);
  }

  /** A string literal; only those spanning lines are kept (see classifyLines). */
  string(range: TextRange): void {
    if (spansLines(this.lines, range)) this.strings.push(range);
  }

  addClass(draft: ClassDraft): void {
    this.classes.push(draft);
  }

  /**
   * `dataOnly`: none of the interface's own members is a method (AbstractionFact.dataOnly);
   * `bases`: the interfaces it extends, as written. What it inherits is counted in `build`.
   */
  addAbstraction(
    name: string,
    kind: AbstractionKind,
    range: TextRange,
    dataOnly = false,
    bases: readonly string[] = [],
  ): void {
    this.abstractions.push({ name, kind, range, dataOnly, bases, at: range.start });
  }

  /** Starts a function fact; the walker adds decision points and calls to the draft. */
  openFunction(header: FunctionHeader): FunctionDraft {
    const draft: FunctionDraft = { ...header, complexity: 1, calls: [] };
    this.functions.push(draft);
    return draft;
  }

  /**
   * An import; `emit` says what TypeScript's emit makes of it (by default: erased when
   * `typeOnly`, else kept), settled against the file's uses when the facts are assembled.
   */
  addImport(
    fact: Omit<ImportFact, 'line' | 'keptWhen'>,
    at: number,
    emit: ImportEmit = fact.typeOnly ? 'never' : 'always',
  ): void {
    this.imports.push({ ...fact, emit, at });
    // A `data:` or `blob:` URL imported (`import 'data:text/javascript,…'`, `import('data:…')`)
    // is code written in a string that the engine runs as a module: evaluated as eval's is, its
    // own imports unseen.
    if (!fact.typeOnly && /^\s*(?:data|blob):/i.test(fact.specifier))
      this.addReflection('eval', at);
  }

  addExport(name: string, typeOnly: boolean, at: number): void {
    this.exports.push({ name, typeOnly, at });
  }

  addMutableState(name: string, at: number): void {
    this.mutableState.push({ name, at });
  }

  addReflection(kind: ReflectionKind, at: number): void {
    this.reflection.push({ kind, at });
  }

  addEventSubscription(method: string, event: string | null, at: number): void {
    this.events.push({ method, event, at });
  }

  /** `library: null` for a container call whose library the call itself does not name. */
  addDiContainer(library: string | null, at: number): void {
    this.containers.push({ library, at });
  }

  /** A callee written as a chain of names (FileFacts.qualifiedCalls). */
  addQualifiedCall(path: string): void {
    this.qualifiedCalls.add(path);
  }

  diagnostic(error: ParseError): void {
    this.diagnostics.push(error);
  }

  finish(): FileFacts {
    const comments = [...this.comments].sort(byStart);
    const lineClasses = classifyLines(
      this.text,
      this.lines,
      comments,
      [...this.strings].sort(byStart),
    );
    const sizeOf = codeSize(this.text, comments);
    const line = (at: number): number => this.lines.lineOf(at);
    // A span's loc is never under `least` (FileFacts `loc`).
    const spanAndLoc = (range: TextRange, least = 0) => {
      const span = this.lines.spanOf(range);
      return { span, loc: Math.max(least, sizeOf(range, lineClasses.codeLinesIn(span))) };
    };
    const withLine = <T>({ at, ...fact }: Positioned<T>) => ({ ...fact, line: line(at) });
    const methods = this.classes.reduce((sum, draft) => sum + draft.methods, 0);
    const whole = { start: 0, end: this.text.length };
    return {
      language: this.language,
      lines: lineClasses.counts,
      loc: Math.max(methods, sizeOf(whole, lineClasses.counts.code)),
      classes: [...this.classes]
        .sort((a, b) => byStart(a.range, b.range))
        .map(({ range, ...fact }) => ({ ...fact, ...spanAndLoc(range, fact.methods) })),
      abstractions: inOrder(this.abstractions).map(({ name, kind, range, dataOnly, bases }) => ({
        name,
        kind,
        span: this.lines.spanOf(range),
        dataOnly: dataOnly && bases.every(dataInterfaces(this.abstractions)),
      })),
      functions: [...this.functions]
        .sort((a, b) => byStart(a.range, b.range))
        .map(({ range, calls, ...fact }) => ({
          ...fact,
          ...spanAndLoc(range),
          calls: [...calls].sort((a, b) => a.at - b.at).map((call) => call.name),
        })),
      imports: inOrder(this.imports).map(({ emit, at, ...fact }) => ({
        ...fact,
        keptWhen: this.uses.keptWhen(this.language === 'javascript' ? keptInScripts(emit) : emit),
        line: line(at),
      })),
      exports: mergeExports(inOrder(this.exports)).map(withLine),
      mutableState: inOrder(this.mutableState).map(withLine),
      reflection: inOrder(this.reflection).map(withLine),
      eventSubscriptions: inOrder(this.events).map(withLine),
      diContainers: this.containerFacts(line),
      qualifiedCalls: [...this.qualifiedCalls].sort(),
      diagnostics: inOrder(this.diagnostics).map(({ message, at }) => ({
        ...this.place(at),
        message,
      })),
      ...(generatorMarked(this.text, comments) ? { generatorMarked: true as const } : {}),
    };
  }

  /**
   * Line and column of an offset (SyntaxDiagnostic): a byte-order mark is no column, and a
   * place past the end of its line (an error at the end of the file) is just after its text.
   */
  private place(at: number): Omit<SyntaxDiagnostic, 'message'> {
    const line = this.lines.lineOf(at);
    const start = this.lines.lineStarts[line - 1] ?? 0;
    const end = this.lines.lineStarts[line] ?? this.text.length;
    const text = this.text.slice(start, end).replace(/(?:\r\n|[\n\r\u2028\u2029])$/, '');
    const bom = line === 1 && text.startsWith('\uFEFF') ? 1 : 0;
    const column = Math.min(Math.max(at, start + bom) - start, text.length) - bom + 1;
    return { line, column };
  }

  private containerFacts(line: (at: number) => number): DiContainerFact[] {
    const ordered = inOrder(this.containers);
    const imported = ordered.find((use) => use.library !== null)?.library ?? '(unknown)';
    return ordered.map(({ library, at }) => ({ library: library ?? imported, line: line(at) }));
  }
}

/** A syntax error a parser reported, in its own words, at an offset of the text. */
export interface ParseError {
  readonly message: string;
  readonly at: number;
}

type ImportDraft = Omit<ImportFact, 'line' | 'keptWhen'> & { readonly emit: ImportEmit };

export interface ClassDraft extends Omit<ClassFact, 'span' | 'loc'> {
  readonly range: TextRange;
}

/** What opening a function fact takes. */
export interface FunctionHeader {
  readonly name: string;
  readonly kind: FunctionKind;
  readonly range: TextRange;
  readonly parameters: number;
}

export interface FunctionDraft extends FunctionHeader {
  complexity: number;
  /** `at`: offset of the callee's name, which orders the calls. */
  readonly calls: { readonly name: string; readonly at: number }[];
}

type Positioned<T> = T & { readonly at: number };

/**
 * A JavaScript file runs as written (TypeScript does not elide its imports either, used or
 * not): only `import type`, which JavaScript does not allow, is no import.
 */
function keptInScripts(emit: ImportEmit): ImportEmit {
  return emit === 'never' ? emit : 'always';
}

function byStart(a: TextRange, b: TextRange): number {
  return a.start - b.start;
}

function inOrder<T extends { readonly at: number }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => a.at - b.at);
}

function mergeExports(
  exports: readonly Positioned<Omit<ExportFact, 'line'>>[],
): Positioned<Omit<ExportFact, 'line'>>[] {
  const first = new Map<string, Positioned<Omit<ExportFact, 'line'>>>();
  for (const fact of exports) {
    const seen = first.get(fact.name);
    if (seen === undefined) first.set(fact.name, fact);
    else if (seen.typeOnly && !fact.typeOnly) first.set(fact.name, { ...seen, typeOnly: false });
  }
  return [...first.values()];
}

/**
 * Whether a base an interface extends is an interface of data: one this file declares, every
 * declaration of it data only and its own bases too. A base the file does not declare (imported,
 * qualified, a type alias, a builtin) cannot be seen from here: it counts as an abstraction,
 * since it may declare methods. A cycle (a type error) adds nothing to what its members say.
 */
function dataInterfaces(
  abstractions: readonly {
    name: string;
    kind: AbstractionKind;
    dataOnly: boolean;
    bases: readonly string[];
  }[],
): (base: string) => boolean {
  const known = new Map<string, boolean>();
  const isData = (name: string): boolean => {
    const found = known.get(name);
    if (found !== undefined) return found;
    const declarations = abstractions.filter(
      (fact) => fact.name === name && fact.kind === 'interface',
    );
    known.set(name, true);
    const data =
      declarations.length > 0 &&
      declarations.every((fact) => fact.dataOnly && fact.bases.every(isData));
    known.set(name, data);
    return data;
  };
  return isData;
}

/**
 * What generators write at the top of their output, by the two conventions tools follow:
 * `@generated` (Facebook's, protoc's, graphql-codegen's option) and Go's `Code generated … DO
 * NOT EDIT.` (also C#'s `<auto-generated>`). Loose prose ("generated from the spec", "do not
 * edit") is no mark: an author writes it of hand code, and it misfires on ordinary comments.
 */
const GENERATOR_MARK = /@generated\b|\bCode generated\b[^\n]*\bDO NOT EDIT\b|<auto-generated\b/;

/**
 * Whether a comment before the first code carries a generator's mark (FileFacts
 * `generatorMarked`): Go's `// Code generated … DO NOT EDIT.` must come before the first
 * statement, and the other conventions put theirs in the header too. A mark further down
 * (a comment quoting one) is none. `comments` sorted by start; a docstring is one in Python.
 */
function generatorMarked(text: string, comments: readonly TextRange[]): boolean {
  let end = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (const comment of comments) {
    if (text.slice(end, comment.start).trim() !== '') return false;
    if (GENERATOR_MARK.test(text.slice(comment.start, comment.end))) return true;
    end = comment.end;
  }
  return false;
}
