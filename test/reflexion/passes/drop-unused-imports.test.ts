import { describe, expect, it } from '@jest/globals';
import type { SourceFile } from 'ts-morph';
import {
  dropImportsLeftUnused,
  removeImportsLeftUnused,
} from '../../../src/reflexion/passes/import-edits.js';
import {
  applyRemovals,
  unusedImports,
} from '../../../src/reflexion/passes/unused-code-references.js';
import { fixtureProject, ROOT } from '../support/fixture-project.js';

// The three ways the passes drop the imports a removal leaves unused differ on purpose: each
// case below pins one difference, so that sharing their code keeps every one.

function lines(...text: string[]): string {
  return `${text.join('\n')}\n`;
}

/** `text` as `path` after `edit`. */
function edited(text: string, edit: (file: SourceFile) => void, path = 'src/x.ts'): string {
  const file = fixtureProject({ [path]: text }).getSourceFileOrThrow(`${ROOT}/${path}`);
  edit(file);
  return file.getFullText();
}

const SPELLED_ELSEWHERE = lines(
  "import { name, other } from './names.js';",
  "import def, { kept } from './def.js';",
  "import * as ns from './ns.js';",
  '',
  "export const read = (o: Record<string, number>) => o.name + Number('other') + kept;",
);

describe('removeImportsLeftUnused (single-implementation, pass-through-wrapper)', () => {
  it('takes a property of the same name or a string for no use, and leaves default and namespace imports', () => {
    const names = new Set(['name', 'other', 'def', 'ns']);
    expect(edited(SPELLED_ELSEWHERE, (file) => removeImportsLeftUnused(file, names))).toBe(
      lines(
        "import def, { kept } from './def.js';",
        "import * as ns from './ns.js';",
        '',
        "export const read = (o: Record<string, number>) => o.name + Number('other') + kept;",
      ),
    );
  });

  it('removes a declaration left empty as whole lines, keeping the blank line after the imports', () => {
    const text = lines(
      "import { one } from './one.js';",
      "import { gone } from './gone.js';",
      '',
      'export const two = one + 1;',
    );
    expect(edited(text, (file) => removeImportsLeftUnused(file, new Set(['gone'])))).toBe(
      lines("import { one } from './one.js';", '', 'export const two = one + 1;'),
    );
  });

  it('takes the named imports only, keeping the default one beside them', () => {
    const text = lines("import def, { a, b } from './m.js';", 'export const x = 1;');
    expect(edited(text, (file) => removeImportsLeftUnused(file, new Set(['a', 'def'])))).toBe(
      lines("import def, { b } from './m.js';", 'export const x = 1;'),
    );
  });
});

describe('dropImportsLeftUnused (inline-trivial-function, duplicate-function)', () => {
  it('keeps a name a property spells, drops one only a string spells, and default and namespace imports too', () => {
    const names = ['name', 'other', 'def', 'ns'];
    expect(edited(SPELLED_ELSEWHERE, (file) => dropImportsLeftUnused(file, names))).toBe(
      lines(
        "import { name } from './names.js';",
        "import { kept } from './def.js';",
        "export const read = (o: Record<string, number>) => o.name + Number('other') + kept;",
      ),
    );
  });

  it('leaves a file with JSX as it is', () => {
    const text = lines(
      "import { h } from './h.js';",
      "import { gone } from './gone.js';",
      'export const view = <div />;',
    );
    expect(edited(text, (file) => dropImportsLeftUnused(file, ['gone', 'h']), 'src/x.tsx')).toBe(
      text,
    );
  });

  it('removes every named import of a declaration, keeping its default one', () => {
    const text = lines("import def, { a, b } from './m.js';", 'export const x = def;');
    expect(edited(text, (file) => dropImportsLeftUnused(file, ['a', 'b']))).toBe(
      lines("import def from './m.js';", 'export const x = def;'),
    );
  });
});

describe('unusedImports (unused-code)', () => {
  it('keeps a name a property or a string spells, and drops default and namespace imports', () => {
    const text = edited(SPELLED_ELSEWHERE, (file) => applyRemovals(unusedImports(file)));
    expect(text).toBe(
      lines(
        "import { name, other } from './names.js';",
        "import { kept } from './def.js';",
        "export const read = (o: Record<string, number>) => o.name + Number('other') + kept;",
      ),
    );
  });

  it('keeps the JSX factory in a file with JSX, and drops the rest there too', () => {
    const text = lines(
      "import React from 'react';",
      "import { gone } from './gone.js';",
      'export const view = <div />;',
    );
    const after = edited(text, (file) => applyRemovals(unusedImports(file)), 'src/x.tsx');
    expect(after).toBe(lines("import React from 'react';", 'export const view = <div />;'));
  });

  it('looks only at the names it is asked to consider', () => {
    const text = lines("import { a, b } from './m.js';", 'export const x = 1;');
    const only = (file: SourceFile) => applyRemovals(unusedImports(file, (name) => name === 'a'));
    expect(edited(text, only)).toBe(lines("import { b } from './m.js';", 'export const x = 1;'));
  });
});
