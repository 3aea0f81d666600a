import type { DiffFile } from './diff.js';
import { type PatchLine, patchLines } from './diff.js';

/** Where a review comment asks to sit, as the API takes it. */
export interface RequestedLocation {
  readonly path: string;
  readonly position?: number;
  readonly line?: number;
  readonly side?: string;
  readonly start_line?: number;
  readonly start_side?: string;
  readonly subject_type?: string;
}

export interface ResolvedLocation {
  readonly path: string;
  readonly line: number | null;
  readonly side: 'LEFT' | 'RIGHT' | null;
  readonly startLine: number | null;
  readonly startSide: 'LEFT' | 'RIGHT' | null;
  readonly position: number | null;
  readonly subjectType: 'line' | 'file';
  readonly diffHunk: string;
}

export type LocationResult =
  | { readonly ok: true; readonly location: ResolvedLocation }
  | { readonly ok: false; readonly field: string; readonly message: string };

function side(value: string | undefined): 'LEFT' | 'RIGHT' {
  return value === 'LEFT' ? 'LEFT' : 'RIGHT';
}

function findLine(lines: readonly PatchLine[], line: number, onSide: 'LEFT' | 'RIGHT') {
  return lines.find((candidate) =>
    onSide === 'RIGHT'
      ? candidate.kind !== '-' && candidate.newLine === line
      : candidate.kind !== '+' && candidate.oldLine === line,
  );
}

/** The hunk text GitHub stores with a comment: the hunk's header down to the commented line. */
function hunkUpTo(patch: string, target: PatchLine): string {
  const text = patch.split('\n');
  let start = target.position;
  while (start > 0 && !(text[start] ?? '').startsWith('@@')) start -= 1;
  return text.slice(start, target.position + 1).join('\n');
}

/**
 * Checks a review comment's location against the pull request's diff the way GitHub does:
 * the file must be in the diff, and a line (or each end of a range) must be a line the diff
 * shows on that side, the range within one hunk.
 */
export function resolveLocation(
  files: readonly DiffFile[],
  requested: RequestedLocation,
): LocationResult {
  const file = files.find((candidate) => candidate.filename === requested.path);
  if (file === undefined) {
    return {
      ok: false,
      field: 'pull_request_review_thread.path',
      message: 'pull_request_review_thread.path could not be resolved',
    };
  }
  const none = { line: null, side: null, startLine: null, startSide: null, position: null };
  if (requested.subject_type === 'file') {
    return {
      ok: true,
      location: { path: file.filename, ...none, subjectType: 'file', diffHunk: '' },
    };
  }
  const patch = file.patch;
  const lines = patch === undefined ? [] : patchLines(patch);
  const failLine = (field: string) =>
    ({ ok: false, field, message: `${field} must be part of the diff` }) as const;

  let target: PatchLine | undefined;
  let targetSide: 'LEFT' | 'RIGHT';
  if (requested.line !== undefined) {
    targetSide = side(requested.side);
    target = findLine(lines, requested.line, targetSide);
    if (target === undefined) return failLine('pull_request_review_thread.line');
  } else if (requested.position !== undefined) {
    target = lines.find((candidate) => candidate.position === requested.position);
    if (target === undefined || target.kind === '@' || target.kind === '\\') {
      return failLine('pull_request_review_thread.position');
    }
    targetSide = target.kind === '-' ? 'LEFT' : 'RIGHT';
  } else {
    return failLine('pull_request_review_thread.line');
  }

  let startLine: number | null = null;
  let startSide: 'LEFT' | 'RIGHT' | null = null;
  if (requested.start_line !== undefined) {
    startSide = side(requested.start_side ?? requested.side);
    const start = findLine(lines, requested.start_line, startSide);
    if (start === undefined) return failLine('pull_request_review_thread.start_line');
    if (start.position >= target.position) {
      return {
        ok: false,
        field: 'pull_request_review_thread.start_line',
        message: 'pull_request_review_thread.start_line must precede the end line.',
      };
    }
    if (start.hunk !== target.hunk) {
      return {
        ok: false,
        field: 'pull_request_review_thread.start_line',
        message: 'pull_request_review_thread.start_line must be part of the same hunk as the line.',
      };
    }
    startLine = requested.start_line;
  }
  const line = targetSide === 'RIGHT' ? target.newLine : target.oldLine;
  return {
    ok: true,
    location: {
      path: file.filename,
      line,
      side: targetSide,
      startLine,
      startSide,
      position: target.position,
      subjectType: 'line',
      diffHunk: patch === undefined ? '' : hunkUpTo(patch, target),
    },
  };
}
