import { createHash } from 'node:crypto';
import { pathToBytes } from '../model/path-bytes.js';

/**
 * A finding's identity across snapshots: the sha256 (hex) of rule, path and symbol joined by
 * NUL, a character none of them can hold, so no two triples hash the same text. Never line
 * numbers: code moving inside a file must not turn a baseline finding into a new one.
 * Repository-wide findings pass an empty path. The text is hashed as the bytes it was read
 * from (pathToBytes): plain UTF-8 would turn every byte of a name that is not UTF-8 into the
 * same U+FFFD, and two files into one finding. The rule is any id, known or not: a baseline
 * may record a rule this version does not run, and its entries still move with their files.
 */
export function fingerprintOf(ruleId: string, path: string, symbol: string): string {
  return createHash('sha256')
    .update(pathToBytes(`${ruleId}\0${path}\0${symbol}`))
    .digest('hex');
}
