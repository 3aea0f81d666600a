import type { Tree } from 'web-tree-sitter';
import type { FileFacts } from '../../model/facts.js';
import { FactsCollector } from './facts-collector.js';
import { recordModuleNames } from './python-bindings.js';
import type { PythonDraft } from './python-draft.js';
import { walkPython } from './python-walk.js';
import { syntaxDiagnostics } from './tree-diagnostics.js';

/**
 * The facts of one Python file, from its web-tree-sitter tree and its text. Pure: no I/O.
 *
 * How each fact maps onto Python (details in the module each rule lives in):
 * - lines: `#` comments and docstrings are comment lines. A docstring is any statement that is
 *   only a string (the module's, a class's, a function's, or a string left as a block comment):
 *   it is documentation, not program (python-walk.ts).
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
 *   python-imports.ts, python-bindings.ts, python-calls.ts.
 * - a tree with syntax errors still yields the facts of what parsed, plus a diagnostic per
 *   syntax error at its line and column (tree-diagnostics.ts); the extractor never throws.
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
