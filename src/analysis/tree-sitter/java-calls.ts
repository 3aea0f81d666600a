import type { Node } from 'web-tree-sitter';
import type { ImportBinding } from '../../model/facts.js';
import {
  type JavaSource,
  javaStringValue,
  type Scope,
  withoutTypeArguments,
} from './java-draft.js';

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
 * `getDeclaredField(s)`, `getDeclaredConstructor(s)`, `getConstructor`, `setAccessible`;
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
const ALWAYS_REFLECTION = new Set([
  'getDeclaredMethod',
  'getDeclaredMethods',
  'getDeclaredField',
  'getDeclaredFields',
  'getDeclaredConstructor',
  'getDeclaredConstructors',
  'getConstructor',
  'setAccessible',
]);
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

/** `a.b.c` for a receiver that is a chain of names (FileFacts.qualifiedCalls), else null. */
function dottedName(node: Node): string | null {
  if (node.type === 'identifier') return node.text;
  if (node.type !== 'field_access') return null;
  const object = node.childForFieldName('object');
  const field = node.childForFieldName('field');
  const head = object === null ? null : dottedName(object);
  return head === null || field === null ? null : `${head}.${field.text}`;
}

function readMethodInvocation(call: Node, scope: Scope, source: JavaSource): void {
  const name = call.childForFieldName('name');
  if (name === null) return;
  const method = name.text;
  scope.fn?.calls.push({ name: method, at: name.startIndex });
  const receiver = call.childForFieldName('object');
  const head = receiver === null ? '' : dottedName(receiver);
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
