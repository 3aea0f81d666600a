import type { Node } from 'web-tree-sitter';
import type { ImportBinding } from '../../model/facts.js';
import type { FactsCollector, FunctionDraft } from './facts-collector.js';
import type { JavaReferences } from './java-references.js';
import { dottedName, rangeOf } from './syntax-tree.js';

/**
 * What each Java node adds to the facts: type declarations, fields, imports and calls (the walk
 * is in java-facts.ts).
 */

/** Where a Java node sits, as the walk carries it down the tree. */
export interface Scope {
  /** The innermost method, constructor or lambda: it owns decision points and calls. */
  readonly fn: FunctionDraft | undefined;
  /** The type whose body holds the node, for `Type.method`; `(anonymous)` in an anonymous class. */
  readonly typeName: string | undefined;
}

export interface JavaSource {
  readonly facts: FactsCollector;
  readonly references: JavaReferences;
}

/** Whether a declaration's modifiers include a keyword: `static`, `final`, `abstract`, `public`. */
export function hasModifier(declaration: Node, keyword: string): boolean {
  const modifiers = declaration.namedChildren.find((child) => child.type === 'modifiers');
  return modifiers?.children.some((modifier) => modifier.type === keyword) ?? false;
}

/** A type as written without its generic arguments: `base.Base<T>` → `base.Base`. */
function withoutTypeArguments(type: Node): string {
  const raw = type.type === 'generic_type' ? (type.firstNamedChild ?? type) : type;
  return raw.text.replace(/\s+/g, '');
}

/** The content of a string literal or text block as written; null for anything else. */
function javaStringValue(node: Node | null | undefined): string | null {
  if (node?.type !== 'string_literal') return null;
  const quotes = node.text.startsWith('"""') ? 3 : 1;
  return node.text.slice(quotes, -quotes);
}

/**
 * Java type declarations.
 *
 * Classes: `class`, `record` and `enum` declarations, nested and local ones included (all are
 * classes with members and methods); anonymous classes are class expressions and are not.
 * `extends` is the superclass, `implements` the implemented interfaces, both without generic
 * arguments. `methods` counts methods (abstract ones too) and constructors, compact record
 * constructors included. staticOnly: at least one member (field, method, constructor,
 * initializer block), every one static; a constructor, even a private one, is not static, as
 * the contract says. An enum or a record is never static-only: its constants and components are
 * instances of it.
 *
 * Abstractions: interfaces (`interface`) and abstract classes (`abstract-class`); annotation
 * types are neither. Exports: the public top-level types. Mutable state: static fields that
 * are not final, in classes, enums and records (interface fields are implicitly final).
 */

const CLASS_LIKE = new Set(['class_declaration', 'record_declaration', 'enum_declaration']);
const TYPE_DECLARATIONS = new Set([
  ...CLASS_LIKE,
  'interface_declaration',
  'annotation_type_declaration',
]);
const METHOD_LIKE = new Set([
  'method_declaration',
  'constructor_declaration',
  'compact_constructor_declaration',
]);
const FIELD_HOLDERS = new Set(['class_body', 'enum_body_declarations']);

export function isTypeDeclaration(type: string): boolean {
  return TYPE_DECLARATIONS.has(type);
}

/** The members of a class, record or enum body, enum constants aside. */
function membersOf(declaration: Node): Node[] {
  const body = declaration.childForFieldName('body');
  if (body?.type !== 'enum_body') return body?.namedChildren ?? [];
  return body.namedChildren
    .filter((child) => child.type === 'enum_body_declarations')
    .flatMap((declarations) => declarations.namedChildren);
}

function isStaticMember(member: Node): boolean {
  if (member.type === 'static_initializer') return true;
  if (member.type === 'field_declaration' || member.type === 'method_declaration') {
    return hasModifier(member, 'static');
  }
  return false;
}

const MEMBER_TYPES = new Set([...METHOD_LIKE, 'field_declaration', 'static_initializer', 'block']);

function readClass(declaration: Node, name: string, source: JavaSource): void {
  const members = membersOf(declaration).filter((member) => MEMBER_TYPES.has(member.type));
  const superclass = declaration.childForFieldName('superclass')?.firstNamedChild;
  const interfaces = declaration.childForFieldName('interfaces')?.firstNamedChild?.namedChildren;
  const abstract = hasModifier(declaration, 'abstract');
  const isEnumOrRecord = declaration.type !== 'class_declaration';
  source.facts.addClass({
    name,
    range: rangeOf(declaration),
    extends: superclass ? withoutTypeArguments(superclass) : null,
    implements: (interfaces ?? [])
      .filter((type) => type.type !== 'comment')
      .map(withoutTypeArguments),
    abstract,
    staticOnly: !isEnumOrRecord && members.length > 0 && members.every(isStaticMember),
    methods: members.filter((member) => METHOD_LIKE.has(member.type)).length,
  });
  if (abstract) source.facts.addAbstraction(name, 'abstract-class', rangeOf(declaration));
}

/** Reads a type declaration; returns its name, which names the methods inside it. */
export function readTypeDeclaration(declaration: Node, source: JavaSource): string {
  const nameNode = declaration.childForFieldName('name');
  const name = nameNode?.text ?? '';
  if (CLASS_LIKE.has(declaration.type)) readClass(declaration, name, source);
  if (declaration.type === 'interface_declaration') {
    source.facts.addAbstraction(name, 'interface', rangeOf(declaration));
  }
  const topLevel = declaration.parent?.type === 'program';
  source.references.declare(name, topLevel);
  if (topLevel && nameNode !== null && hasModifier(declaration, 'public')) {
    source.facts.addExport(name, false, nameNode.startIndex);
  }
  return name;
}

/** A field declaration: each name it declares is mutable state when it is static and not final. */
export function readField(field: Node, source: JavaSource): void {
  if (!FIELD_HOLDERS.has(field.parent?.type ?? '')) return;
  if (!hasModifier(field, 'static') || hasModifier(field, 'final')) return;
  for (const declarator of field.childrenForFieldName('declarator')) {
    const name = declarator.childForFieldName('name');
    if (name !== null) source.facts.addMutableState(name.text, name.startIndex);
  }
}

/**
 * Java imports and calls.
 *
 * Imports: the name as written after `import` / `import static` / `import module`, `.*`
 * included for on-demand imports (`java.util.*`); never type-only, re-exported or dynamic.
 * A single-type or single static import binds its last name (`a.b.C` → C, `static a.b.C.m` →
 * m); on-demand and module imports bind every name (`*`).
 * DI containers: imports from javax.inject, jakarta.inject, Guice, Dagger, PicoContainer and
 * Spring's container packages (`org.springframework.beans.factory`, `.context`, `.stereotype`,
 * reported as `org.springframework`); other Spring packages (web, data) are not containers.
 *
 * Calls: a method invocation is its method name; `new a.B<T>()` is `B`; `super(…)`/`this(…)`
 * are `super`/`this`. Qualified calls: the receiver when it is a chain of names, then the method
 * (`System.getenv`, `Runtime.getRuntime`; `this.m()` and `a.b().c()` have none), and a
 * constructed type as written (`java.io.File`).
 * Reflection (`java-reflection`): `Class.forName`, `getDeclaredMethod(s)`,
 * `getDeclaredField(s)`, `getDeclaredConstructor(s)`, `getConstructor`, `setAccessible`, the
 * method handles' `findStatic`, `findVirtual`, `findConstructor`, `privateLookupIn`;
 * `getMethod`/`getField`/`invoke` with an argument (`request.getMethod()` is no reflection);
 * `newInstance` unless called on a type name (`DocumentBuilderFactory.newInstance()` is a
 * factory). `Proxy.newProxyInstance` → `proxy`.
 * Event subscriptions: `addListener`, `addEventListener`, every `addXxxListener` (Swing/AWT),
 * `subscribe`, `on`, `once`; the event is the first argument when it is a string literal.
 */

const DI_PACKAGES: readonly (readonly [prefix: string, library: string])[] = [
  ['javax.inject', 'javax.inject'],
  ['jakarta.inject', 'jakarta.inject'],
  ['com.google.inject', 'com.google.inject'],
  ['dagger', 'dagger'],
  ['org.picocontainer', 'org.picocontainer'],
  ['org.springframework.beans.factory', 'org.springframework'],
  ['org.springframework.context', 'org.springframework'],
  ['org.springframework.stereotype', 'org.springframework'],
];
// java.lang.invoke's lookups among them: a method handle is reflection by another name.
const ALWAYS_REFLECTION = new Set(
  'getDeclaredMethod getDeclaredMethods getDeclaredField getDeclaredFields getDeclaredConstructor getDeclaredConstructors getConstructor setAccessible findStatic findVirtual findConstructor privateLookupIn'.split(
    ' ',
  ),
);
const REFLECTION_WITH_ARGUMENTS = new Set(['getMethod', 'getField', 'invoke']);
const EVENT_METHODS = new Set(['subscribe', 'on', 'once']);
const LISTENER_REGISTRATION = /^add\w*Listener$/;
/** A type written as names and dots only (no annotation, no nested generic arguments). */
const QUALIFIED_TYPE = /^[\p{L}_$][\p{L}\p{N}_$]*(?:\.[\p{L}_$][\p{L}\p{N}_$]*)*$/u;

/**
 * Read from the declaration's text so that an import the grammar does not know yet (Java 25's
 * `import module java.base;`) still gives its name: `import`, `static`/`module`, `;` and
 * whitespace dropped.
 */
export function readImport(declaration: Node, source: JavaSource): void {
  const kind = /^import\s+(static|module)\s/.exec(declaration.text)?.[1];
  const specifier = declaration.text
    .replace(/^import\s+(?:(?:static|module)\s+)?/, '')
    .replace(/;\s*$/, '')
    .replace(/\s+/g, '');
  if (specifier === '') return;
  const at = declaration.startIndex;
  const bindings = [importBinding(specifier, kind === 'module')];
  source.facts.addImport(
    { specifier, typeOnly: false, reexport: false, dynamic: false, bindings },
    at,
  );
  const container = DI_PACKAGES.find(
    ([prefix]) => specifier === prefix || specifier.startsWith(`${prefix}.`),
  );
  if (container !== undefined) source.facts.addDiContainer(container[1], at);
}

/** `a.b.C` and `static a.b.C.m` bind their last name; `a.b.*` and `module m` every name. */
function importBinding(specifier: string, moduleImport: boolean): ImportBinding {
  if (moduleImport || specifier.endsWith('.*')) return { imported: '*', local: '*' };
  const name = specifier.slice(specifier.lastIndexOf('.') + 1);
  return { imported: name, local: name };
}

function argumentsOf(call: Node): Node[] {
  const list = call.childForFieldName('arguments')?.namedChildren ?? [];
  return list.filter((argument) => argument.type !== 'comment');
}

function reflectionKind(method: string, call: Node): 'java-reflection' | 'proxy' | undefined {
  const receiver = call.childForFieldName('object');
  const receiverText = receiver?.text ?? '';
  if (method === 'forName' && (receiverText === 'Class' || receiverText === 'java.lang.Class')) {
    return 'java-reflection';
  }
  if (method === 'newProxyInstance' && receiverText.endsWith('Proxy')) return 'proxy';
  if (ALWAYS_REFLECTION.has(method)) return 'java-reflection';
  if (REFLECTION_WITH_ARGUMENTS.has(method) && argumentsOf(call).length > 0)
    return 'java-reflection';
  const onTypeName = receiver?.type === 'identifier' && /^[A-Z]/.test(receiverText);
  if (method === 'newInstance' && !onTypeName) return 'java-reflection';
  return undefined;
}

function readMethodInvocation(call: Node, scope: Scope, source: JavaSource): void {
  const name = call.childForFieldName('name');
  if (name === null) return;
  const method = name.text;
  scope.fn?.calls.push({ name: method, at: name.startIndex });
  const receiver = call.childForFieldName('object');
  const head = receiver === null ? '' : dottedName(receiver, 'field_access', 'object', 'field');
  if (head !== null) source.facts.addQualifiedCall(head === '' ? method : `${head}.${method}`);
  const reflection = reflectionKind(method, call);
  if (reflection !== undefined) source.facts.addReflection(reflection, call.startIndex);
  if (EVENT_METHODS.has(method) || LISTENER_REGISTRATION.test(method)) {
    const event = javaStringValue(argumentsOf(call)[0]);
    source.facts.addEventSubscription(method, event, call.startIndex);
  }
}

/** `new a.B<T>()` → `B`, at the type's position; its qualified call is `a.B`. */
function readObjectCreation(creation: Node, scope: Scope, source: JavaSource): void {
  const type = creation.childForFieldName('type');
  if (type === null) return;
  const written = withoutTypeArguments(type);
  scope.fn?.calls.push({ name: written.slice(written.lastIndexOf('.') + 1), at: type.startIndex });
  if (QUALIFIED_TYPE.test(written)) source.facts.addQualifiedCall(written);
}

export function readCall(node: Node, scope: Scope, source: JavaSource): void {
  if (node.type === 'method_invocation') readMethodInvocation(node, scope, source);
  else if (node.type === 'object_creation_expression') readObjectCreation(node, scope, source);
  else {
    // `super(…)` or `this(…)` in a constructor.
    const invoked = node.childForFieldName('constructor');
    if (invoked !== null) scope.fn?.calls.push({ name: invoked.text, at: invoked.startIndex });
  }
}
