import { findingsPerFile, lineLocation, placeFinding } from '../finding-of.js';
import { pathKinds } from '../path-kinds.js';
import type { Rule } from '../rule.js';
import { distinctlyNamed } from '../symbols.js';

/**
 * Each module-level mutable variable the extractors report (MutableStateFact: a top-level
 * `let`/`var` in JS/TS, whether or not it is reassigned; in Python, a module-level mutable
 * value (a list, dict, set, class instance) that a function or method mutates, or a name a
 * function declares `global` (python-state.ts); a package `var` in Go; a non-final static
 * field in Java). A top-level `const` is not one, even when it holds an object: the binding
 * cannot change, and telling a mutated object from a frozen one needs data flow the TS/JS
 * facts do not carry. Python has no `const`, so the same spirit (state is what can change after
 * import) is read from what its functions do: a mutated module-level dict is reported there
 * while a mutated `const` Map is not in TS, and a never-mutated Python list is not reported
 * while a never-reassigned `let` is. Product files only (PathKinds.isProduct): a test file's
 * `let repo` set in `beforeEach` is fixture state no other module imports. Symbol: the
 * variable's name (`name#2` for a repeated `var`); location: its line.
 */
export const globalMutableState: Rule = {
  id: 'global_mutable_state',
  scope: 'file',
  description: 'A module-level variable that can be reassigned: state shared by every importer.',
  check({ policy, project }) {
    return findingsPerFile(project, pathKinds(policy, project).isProduct, (path, facts) =>
      distinctlyNamed(facts.mutableState, (state) => state.name).map(({ item, symbol }) =>
        placeFinding(
          'global_mutable_state',
          lineLocation(path, item.line),
          symbol,
          `module-level variable ${item.name} is mutable state shared by everything that imports ${path}`,
        ),
      ),
    );
  },
};
