import type { DecoratorMode, EmitCondition } from '../model/facts.js';
import type { TextRange } from './tree-sitter/line-index.js';

/**
 * What an import declaration says of its own fate in TypeScript's emit, before the file's uses
 * of its bindings are known (ImportFact.keptWhen): `always`; `never` (`import type`);
 * `type-names` (every name marked `type`, or none); or the local names it binds as values, which
 * keep it when the file uses one of them as a value.
 */
export type ImportEmit = 'always' | 'never' | 'type-names' | { readonly values: readonly string[] };

/**
 * The uses a file makes of the names its top-level imports bind as values, told by an
 * extractor as it walks (both by the same rules, written down in typescript/uses.ts), and what
 * they make of each import: the rules of TypeScript's `transpileModule`, which keeps an import
 * when the checker finds one of its bindings referenced as a value, and knows nothing of the
 * imported file.
 *
 * Names are compared decoded (`\u0041` is `A`), as TypeScript resolves them. A reference is
 * shadowed when it lies in the range of a local value declaration of the same name (a
 * parameter, a variable, a function or class). Only the imports' own names are watched, so the
 * walk pays a set lookup per identifier and the rest only for those names.
 */
export class ImportUses {
  private readonly watched = new Set<string>();
  private readonly values = new Map<string, number[]>();
  private readonly shadows = new Map<string, TextRange[]>();
  private readonly metadata = new Map<string, Set<EmitCondition>>();
  private readonly jsx: number[] = [];

  /** A name a top-level import binds as a value, as written; before the walk. */
  watch(name: string): void {
    this.watched.add(identifierName(name));
  }

  /** Whether any name is watched: else the walk need not tell its uses. */
  get watching(): boolean {
    return this.watched.size > 0;
  }

  /** Whether `name` (decoded) is one the imports bind: only then is an identifier looked at. */
  watches(name: string): boolean {
    return this.watched.has(name);
  }

  /** `name` (decoded) used as a value at offset `at`. */
  value(name: string, at: number): void {
    pushTo(this.values, name, at);
  }

  /** A local value declaration of `name` (decoded), visible over `range`. */
  shadow(name: string, range: TextRange): void {
    pushTo(this.shadows, name, range);
  }

  /** `name` (decoded) names the type of a decorated declaration whose metadata is emitted. */
  decoratorMetadata(name: string, mode: DecoratorMode, loose: boolean): void {
    let conditions = this.metadata.get(name);
    if (conditions === undefined) {
      conditions = new Set();
      this.metadata.set(name, conditions);
    }
    conditions.add(loose ? `decorator-metadata:${mode}:loose` : `decorator-metadata:${mode}`);
  }

  /** A JSX element or fragment at offset `at`: a use of the classic runtime's factory there. */
  jsxElement(at: number): void {
    this.jsx.push(at);
  }

  /** ImportFact.keptWhen of an import. */
  keptWhen(emit: ImportEmit): EmitCondition[] {
    if (emit === 'always') return ['always'];
    if (emit === 'never') return [];
    if (emit === 'type-names') return ['preserved-imports'];
    const names = emit.values.map(identifierName);
    if (names.some((name) => this.visibleAt(name, this.values.get(name)))) return ['always'];
    const conditions: EmitCondition[] = ['preserved-values'];
    for (const name of names) {
      if (this.visibleAt(name, this.jsx)) conditions.push(`jsx-factory:${name}`);
    }
    // Metadata names a type: a local value of the same name does not hide the import.
    const metadata = new Set(names.flatMap((name) => [...(this.metadata.get(name) ?? [])]));
    conditions.push(...[...metadata].sort());
    return conditions;
  }

  /** Whether one of the offsets is outside every local declaration of `name`. */
  private visibleAt(name: string, offsets: readonly number[] | undefined): boolean {
    if (offsets === undefined || offsets.length === 0) return false;
    const ranges = this.shadows.get(name);
    if (ranges === undefined) return true;
    return offsets.some((at) => !ranges.some((range) => range.start <= at && at < range.end));
  }
}

/** An identifier's name with its `\u` escapes decoded, as TypeScript and oxc give it. */
export function identifierName(written: string): string {
  if (!written.includes('\\')) return written;
  return written.replace(/\\u\{([0-9a-fA-F]+)\}|\\u([0-9a-fA-F]{4})/g, (_, long, short) =>
    String.fromCodePoint(Number.parseInt(long ?? short, 16)),
  );
}

function pushTo<T>(map: Map<string, T[]>, key: string, item: T): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [item]);
  else list.push(item);
}
