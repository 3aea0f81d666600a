import { detectLanguage } from '../analysis/detect-language.js';
import type { CostItem } from '../model/cost.js';
import type { Policy } from '../model/policy.js';
import type { PricedPart } from './points.js';
import { roundPoints } from './points.js';
import type { PricedFile } from './priced-files.js';

/**
 * The `files` category: each new source file costs `pricing.file`. A source file is one in a
 * language AUREUS analyses (detectLanguage): the file budget counts code, and docs, data and
 * binaries already pay for their lines or size in `loc`. New means added, or copied (a copy
 * is one more file to keep); a rename is the same file under another name and is free, and so
 * is a type change. A deleted file earns nothing: its lines already earn their credit in
 * `loc`, and crediting the file too would make splitting-then-deleting a way to mint points.
 * Ignored files are not priced (they never reach here). Path weights do not apply.
 */
export function priceFiles(files: readonly PricedFile[], policy: Policy): PricedPart {
  const items: CostItem[] = [];
  for (const { file, path } of files) {
    if (file.status !== 'added' && file.status !== 'copied') continue;
    if (detectLanguage(path) === undefined) continue;
    items.push({
      category: 'files',
      points: roundPoints(policy.pricing.file),
      path,
      detail: file.oldPath === undefined ? 'new file' : `new file (copied from ${file.oldPath})`,
    });
  }
  return { items, notes: [] };
}
