import type { Node, Tree } from 'web-tree-sitter';
import type { FileFacts } from '../../model/facts.js';
import { FactsCollector, type FunctionHeader } from './facts-collector.js';
import {
  readClassBodyAssignment,
  readModuleAssignment,
  recordModuleDefinition,
  recordModuleNames,
} from './python-bindings.js';
import {
  readCall,
  readImportStatement,
  readLoaderReference,
  readSubscript,
} from './python-calls.js';
import { readClass, readFunction, readLambda } from './python-definitions.js';
import type { PythonDraft, Scope } from './python-draft.js';
import {
  functionLocals,
  readDelete,
  readForTargets,
  readFunctionAssignment,
} from './python-state.js';
import { rangeOf, syntaxDiagnostics } from './syntax-tree.js';

/**
 * The facts of one Python file, from its web-tree-sitter tree and its text. Pure: no I/O.
 *
 * How each fact maps onto Python (details in the module each rule lives in):
 * - lines: `#` comments and docstrings are comment lines. A docstring is any statement that is
 *   only a string (the module's, a class's, a function's, or a string left as a block comment):
 *   it is documentation, not program (the walk below).
 * - classes and abstractions: every `class` statement is a class; one with an `ABC` base, an
 *   `ABCMeta` metaclass or an `@abstractmethod` member is abstract and an `abstract-class`
 *   abstraction; one with a `Protocol` base is a `protocol` abstraction, and stays a class
 *   (Python declares it with `class`; it may carry method bodies). staticOnly: at least one
 *   member, every method a `@staticmethod`/`@classmethod`, and every field a class attribute
 *   (python-definitions.ts, python-bindings.ts).
 * - functions: `def` (`Class.method` directly in a class body; `__init__` is the constructor,
 *   `@property`/`@x.setter`/`@cached_property` are accessors) and lambdas (kind `arrow`, named
 *   after the variable or attribute they are assigned to).
 * - imports, exports, mutable state, reflection, event subscriptions, DI containers:
 *   python-calls.ts, python-bindings.ts.
 * - a tree with syntax errors still yields the facts of what parsed, plus a diagnostic per
 *   syntax error at its line and column (syntax-tree.ts); the extractor never throws.
 */
export function extractPythonFacts(tree: Tree, text: string): FileFacts {
  const facts = new FactsCollector(text, 'python');
  const draft: PythonDraft = {
    facts,
    classes: [],
    moduleBindings: [],
    globalNames: [],
    mutations: [],
    dunderAll: undefined,
    connectCalls: [],
    importsSignals: false,
  };
  walkPython(tree.rootNode, draft);
  for (const cls of draft.classes) {
    const abstract = cls.declaredAbstract || cls.hasAbstractMethod;
    facts.addClass({
      name: cls.name,
      range: cls.range,
      extends: cls.extends,
      implements: cls.implements,
      abstract,
      staticOnly: cls.members > 0 && cls.instanceMembers === 0,
      methods: cls.methods,
    });
    if (cls.protocol) facts.addAbstraction(cls.name, 'protocol', cls.range);
    else if (abstract) facts.addAbstraction(cls.name, 'abstract-class', cls.range);
  }
  recordModuleNames(draft);
  if (draft.importsSignals) {
    for (const at of draft.connectCalls) facts.addEventSubscription('connect', null, at);
  }
  for (const error of syntaxDiagnostics(tree.rootNode)) facts.diagnostic(error);
  return facts.finish();
}

/**
 * One pass over a Python tree, in source order, with an explicit stack.
 *
 * Complexity: 1 + `if`, `elif`, `for`, `while`, `except`, `x if c else y`, each `and`/`or`,
 * each comprehension `if`, and each `case` of a `match` except an unguarded `case _:`.
 * Comprehension `for`s are not counted (the contract names only comprehension `if`s).
 * A function's own body is everything inside its node except nested functions and lambdas:
 * parameter defaults included, decorators not (they belong to the enclosing scope).
 */

const DECISION_POINTS = new Set([
  'if_statement',
  'elif_clause',
  'for_statement',
  'while_statement',
  'except_clause',
  'except_group_clause',
  'conditional_expression',
  'boolean_operator',
]);
const COMPREHENSIONS = new Set([
  'list_comprehension',
  'set_comprehension',
  'dictionary_comprehension',
  'generator_expression',
]);
const STRING_STATEMENT = new Set(['string', 'concatenated_string']);

const MODULE_SCOPE: Scope = {
  fn: undefined,
  cls: undefined,
  moduleLevel: true,
  typeCheckingOnly: false,
  locals: [],
};

function isDecisionPoint(node: Node, type: string): boolean {
  if (DECISION_POINTS.has(type)) return true;
  if (type === 'if_clause') return COMPREHENSIONS.has(node.parent?.type ?? '');
  if (type !== 'case_clause') return false;
  const patterns = node.namedChildren.filter((child) => child.type === 'case_pattern');
  const isWildcard = patterns.length === 1 && patterns[0]?.text === '_';
  return !isWildcard || node.childForFieldName('guard') !== null;
}

/** A statement that is only a string: a docstring, or text kept out of the program. */
function isStringStatement(statement: Node): boolean {
  const [only, ...more] = statement.namedChildren;
  if (only === undefined || more.length > 0 || !STRING_STATEMENT.has(only.type)) return false;
  return only.descendantsOfType('interpolation').length === 0;
}

function isTypeCheckingTest(condition: Node | null): boolean {
  return condition?.text === 'TYPE_CHECKING' || condition?.text === 'typing.TYPE_CHECKING';
}

/** Reads one node (`type` is read once per node: each read crosses into WebAssembly). */
function visit(node: Node, type: string, scope: Scope, draft: PythonDraft): Scope {
  if (scope.fn !== undefined && isDecisionPoint(node, type)) scope.fn.complexity += 1;
  switch (type) {
    case 'comment':
      draft.facts.comment(rangeOf(node));
      return scope;
    case 'string':
      draft.facts.string(rangeOf(node));
      return scope;
    case 'expression_statement':
      return readStatement(node, scope, draft);
    case 'function_definition':
      if (scope.moduleLevel) {
        recordModuleDefinition(draft, node.childForFieldName('name'), scope.typeCheckingOnly);
      }
      return enterFunction(node, readFunction(node, scope), scope, draft);
    case 'lambda':
      return enterFunction(node, readLambda(node, scope), scope, draft);
    case 'class_definition':
      return enterClass(node, scope, draft);
    case 'import_statement':
    case 'import_from_statement':
      readImportStatement(node, scope, draft);
      return scope;
    case 'call':
      readCall(node, scope, draft);
      return scope;
    case 'subscript':
      readSubscript(node, scope, draft);
      return scope;
    case 'identifier':
      readLoaderReference(node, draft);
      return scope;
    case 'global_statement':
      for (const name of node.namedChildren) {
        if (name.type !== 'identifier') continue;
        draft.globalNames.push({ name: name.text, at: name.startIndex });
        scope.locals.at(-1)?.globals.add(name.text);
      }
      return scope;
    case 'delete_statement':
      readDelete(node, scope, draft);
      return scope;
    case 'for_statement':
      readForTargets(node, scope);
      return scope;
    case 'type_alias_statement': {
      const name = node.childForFieldName('left')?.descendantsOfType('identifier')[0];
      if (scope.moduleLevel) recordModuleDefinition(draft, name ?? null, true);
      return scope;
    }
    default:
      return scope;
  }
}

function readStatement(statement: Node, scope: Scope, draft: PythonDraft): Scope {
  if (isStringStatement(statement)) {
    draft.facts.comment(rangeOf(statement));
    return scope;
  }
  const expression = statement.namedChildren[0];
  const isAssignment =
    expression?.type === 'assignment' || expression?.type === 'augmented_assignment';
  if (expression === undefined || !isAssignment) return scope;
  if (scope.moduleLevel) readModuleAssignment(expression, scope, draft);
  else if (scope.cls !== undefined && scope.fn === undefined) {
    if (expression.type === 'assignment') readClassBodyAssignment(expression, scope.cls);
  } else readFunctionAssignment(expression, scope, draft);
  return scope;
}

function enterFunction(
  node: Node,
  header: FunctionHeader,
  scope: Scope,
  draft: PythonDraft,
): Scope {
  const fn = draft.facts.openFunction(header);
  const locals = [...scope.locals, functionLocals(node.childForFieldName('parameters'))];
  return { ...scope, fn, cls: undefined, moduleLevel: false, locals };
}

function enterClass(node: Node, scope: Scope, draft: PythonDraft): Scope {
  if (scope.moduleLevel) {
    recordModuleDefinition(draft, node.childForFieldName('name'), scope.typeCheckingOnly);
  }
  const cls = readClass(node);
  draft.classes.push(cls);
  return { ...scope, fn: undefined, cls, moduleLevel: false };
}

/** Walks the whole tree; children are pushed in reverse so they are read in source order. */
function walkPython(root: Node, draft: PythonDraft): void {
  const nodes: Node[] = [root];
  const scopes: Scope[] = [MODULE_SCOPE];
  for (let node = nodes.pop(); node !== undefined; node = nodes.pop()) {
    const type = node.type;
    const childScope = visit(node, type, scopes.pop() ?? MODULE_SCOPE, draft);
    const children = node.namedChildren;
    const typeCheckingBody =
      type === 'if_statement' && isTypeCheckingTest(node.childForFieldName('condition'))
        ? node.childForFieldName('consequence')
        : null;
    for (let index = children.length - 1; index >= 0; index -= 1) {
      const child = children[index];
      if (child === undefined) continue;
      nodes.push(child);
      scopes.push(
        child.id === typeCheckingBody?.id ? { ...childScope, typeCheckingOnly: true } : childScope,
      );
    }
  }
}
