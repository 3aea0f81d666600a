import type { FileFacts } from '../../model/facts.js';

/**
 * Whether a class's base, as written in a file, is a builtin of the language or its platform:
 * a root every class of its kind has or must have (`object`, `Error`, `Exception`,
 * `java.lang.RuntimeException`, `HTMLElement`), or a standard declaration form (Python's
 * `TypedDict`, `NamedTuple`, `Enum`). Such a base adds no level of inheritance: its behaviour
 * is the language's, known to every reader. A base imported from a package is not a builtin
 * (`React.Component`, Django's `models.Model`, Node's `EventEmitter`): its behaviour is the
 * library's, and a class that extends it is read through it.
 *
 * By resolution: a name is a builtin only where the file neither declares nor imports it (a
 * local `class Error` or an imported `Exception` is not the builtin), and it is one of:
 * - TS/JS: the ECMAScript and web platform classes (`Error` and its kin, `Array`, `Map`,
 *   `Promise`, `EventTarget`, `HTMLElement` and every `HTML…Element`/`SVG…Element`), also
 *   written `globalThis.X` or `window.X`;
 * - Python: the builtin classes (`object`, `dict`, every `…Error`/`…Exception`/`…Warning`),
 *   also written `builtins.X`; or any base imported from `typing`, `typing_extensions`, `abc`
 *   or `enum` (`TypedDict`, `NamedTuple`, `Generic`, `ABC`, `Enum`);
 * - Java: `java.lang`'s classes that are extended (`Object`, `Thread`, the throwables), also
 *   written fully qualified (`java.lang.Exception`).
 * Go has no inheritance.
 */
export function isBuiltinBase(facts: FileFacts, written: string): boolean {
  const dot = written.indexOf('.');
  const first = dot === -1 ? written : written.slice(0, dot);
  const last = written.slice(written.lastIndexOf('.') + 1);
  switch (facts.language) {
    case 'python':
      if (PYTHON_DECLARATION_MODULES.has(importedFrom(facts, first) ?? '')) return true;
      return (
        isUnbound(facts, first) && (dot === -1 || first === 'builtins') && isPythonBuiltin(last)
      );
    case 'java':
      if (written === `java.lang.${last}`) return JAVA_LANG.has(last);
      return dot === -1 && isUnbound(facts, written) && JAVA_LANG.has(written);
    case 'go':
      return false;
    default: {
      const global = dot === -1 || (GLOBAL_OBJECTS.has(first) && written === `${first}.${last}`);
      return global && isUnbound(facts, first) && isPlatformClass(last);
    }
  }
}

const GLOBAL_OBJECTS = new Set(['globalThis', 'window', 'self']);

const SCRIPT_CLASSES = new Set(
  (
    'Object Function Array Map Set WeakMap WeakSet WeakRef Promise RegExp Date Number String ' +
    'Boolean Symbol BigInt ArrayBuffer SharedArrayBuffer DataView Int8Array Uint8Array ' +
    'Uint8ClampedArray Int16Array Uint16Array Int32Array Uint32Array Float32Array Float64Array ' +
    'BigInt64Array BigUint64Array Error EvalError RangeError ReferenceError SyntaxError ' +
    'TypeError URIError AggregateError DOMException EventTarget Event CustomEvent ' +
    'AbortController Node Element Text Comment DocumentFragment ShadowRoot ReadableStream ' +
    'WritableStream TransformStream Response Request Headers URL URLSearchParams Blob File ' +
    'FormData Worker'
  ).split(' '),
);

function isPlatformClass(name: string): boolean {
  return SCRIPT_CLASSES.has(name) || /^(?:HTML|SVG|MathML)\w*Element$/.test(name);
}

const PYTHON_CLASSES = new Set(
  (
    'object dict list set frozenset tuple str int float complex bool bytes bytearray ' +
    'memoryview type property classmethod staticmethod range slice super BaseException ' +
    'BaseExceptionGroup ExceptionGroup Exception GeneratorExit KeyboardInterrupt SystemExit ' +
    'StopIteration StopAsyncIteration'
  ).split(' '),
);

function isPythonBuiltin(name: string): boolean {
  return PYTHON_CLASSES.has(name) || /^[A-Z]\w*(?:Error|Warning)$/.test(name);
}

const PYTHON_DECLARATION_MODULES = new Set(['typing', 'typing_extensions', 'abc', 'enum']);

const JAVA_LANG = new Set(
  (
    'Object Thread Enum Record Number ClassLoader Throwable Exception Error RuntimeException ' +
    'ArithmeticException ArrayIndexOutOfBoundsException ArrayStoreException ClassCastException ' +
    'ClassNotFoundException CloneNotSupportedException IllegalAccessException ' +
    'IllegalArgumentException IllegalMonitorStateException IllegalStateException ' +
    'IndexOutOfBoundsException InstantiationException InterruptedException ' +
    'NegativeArraySizeException NoSuchFieldException NoSuchMethodException ' +
    'NullPointerException NumberFormatException ReflectiveOperationException SecurityException ' +
    'StringIndexOutOfBoundsException UnsupportedOperationException AssertionError LinkageError ' +
    'VirtualMachineError OutOfMemoryError StackOverflowError'
  ).split(' '),
);

/** The module a runtime import binds `local` from (re-exports bind no local name). */
function importedFrom(facts: FileFacts, local: string): string | undefined {
  const fact = facts.imports.find(
    (candidate) =>
      !candidate.reexport && candidate.bindings.some((binding) => binding.local === local),
  );
  return fact?.specifier;
}

function isUnbound(facts: FileFacts, name: string): boolean {
  const declared =
    facts.classes.some((fact) => fact.name === name) ||
    facts.abstractions.some((fact) => fact.name === name);
  return !declared && importedFrom(facts, name) === undefined;
}
