import { detectLanguage } from '../analysis/detect-language.js';
import { compareStrings } from '../analysis/graph/module-graph.js';
import type { CostItem } from '../model/cost.js';
import type { Policy } from '../model/policy.js';
import { type PricedPart, roundPoints } from './points.js';
import type { PricedFile } from './priced-files.js';

/*
 * The two structural categories, `files` and `modules`: a flat price for each new unit a
 * reader must hold in mind, nothing back for one that goes (its lines earn the credit in `loc`).
 */

/**
 * The `files` category: each new source file costs `pricing.file`. A source file is one in a
 * language AUREUS analyses (by name or `#!` line): the file budget counts code, and docs, data and
 * binaries already pay for their lines or size in `loc`. New means added, or copied (a copy
 * is one more file to keep); a rename is the same file under another name and is free, and so
 * is a type change. A deleted file earns nothing: its lines already earn their credit in
 * `loc`, and crediting the file too would make splitting-then-deleting a way to mint points.
 * Ignored files are not priced (they never reach here). Path weights do not apply.
 */
export function priceFiles(files: readonly PricedFile[], policy: Policy): PricedPart {
  const items: CostItem[] = [];
  for (const { file, path, head } of files) {
    if (file.status !== 'added' && file.status !== 'copied') continue;
    // A script named without an extension has facts when its `#!` line names a language.
    if (detectLanguage(path) === undefined && head?.facts === undefined) continue;
    items.push({
      category: 'files',
      points: roundPoints(policy.pricing.file),
      path,
      detail: file.oldPath === undefined ? 'new file' : `new file (copied from ${file.oldPath})`,
    });
  }
  return { items, notes: [] };
}

/** How a new module's cost item begins, its name following: the ledger reads the name back. */
export const NEW_MODULE = 'new module ';

/**
 * The `modules` category: each policy module at head (groupModules over the head's core
 * files) that is not a module at base costs `pricing.module`, as a repository-wide item (path
 * null; the module's name is in the detail). A module that disappears earns nothing, like a
 * deleted file: its code's lines earn the credit.
 */
export function priceModules(
  baseModules: readonly string[],
  headModules: readonly string[],
  policy: Policy,
): PricedPart {
  const before = new Set(baseModules);
  const added = [...new Set(headModules)].filter((name) => !before.has(name)).sort(compareStrings);
  const items: CostItem[] = added.map((name) => ({
    category: 'modules',
    points: roundPoints(policy.pricing.module),
    path: null,
    detail: `${NEW_MODULE}${name}`,
  }));
  return { items, notes: [] };
}
