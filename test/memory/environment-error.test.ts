import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { environmentError, movableFolders } from '../../src/memory/environment-error.js';

/** An error as node:fs makes them. */
function fsError(code: string, syscall: string, path: string): Error {
  return Object.assign(new Error(`${code}: …, ${syscall} '${path}'`), { code, syscall, path });
}

describe('environmentError', () => {
  it('names the file the user knows, not its temporary twin', () => {
    const error = environmentError(
      fsError('ENOSPC', 'open', '/srv/out/.report.json.42.0123456789ab.tmp'),
    );
    expect(error?.message).toBe('cannot open /srv/out/report.json: the disk is full (ENOSPC).');
    expect(error?.hint).toBe('free space on the disk that holds /srv/out, then run again.');
  });

  it('names the variable that moves one of AUREUS’s own folders', () => {
    const movable = movableFolders({ AUREUS_CODE_CACHE: '/caches/code' });
    const error = environmentError(fsError('EROFS', 'mkdir', join('/caches/code', 'node')), {
      movable,
    });
    expect(error?.hint).toBe(
      'remount read-write the file system that holds /caches/code, or set AUREUS_CODE_CACHE to another folder (or off), then run again.',
    );
  });

  it("names AUREUS_CACHE_DIR for a failure in AUREUS's cache folder", () => {
    const movable = movableFolders({ AUREUS_CACHE_DIR: '/caches/aureus' });
    const error = environmentError(fsError('ENOSPC', 'write', '/caches/aureus/facts/v6/ab'), {
      movable,
    });
    expect(error?.hint).toMatch(
      /, or set AUREUS_CACHE_DIR to another folder \(or off\), then run again\.$/,
    );
  });

  it('leaves everything else to be an internal error', () => {
    expect(environmentError(fsError('ENOENT', 'open', '/x'))).toBeUndefined();
    expect(environmentError(new TypeError('not a git blob id'))).toBeUndefined();
  });
});
