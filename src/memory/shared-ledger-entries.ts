import {
  checkLine,
  type JournalContents,
  type JournalEntry,
  type JournalProblem,
} from './journal-format.js';

export interface LedgerEntryFile {
  readonly path: string;
  readonly text: string;
}

/**
 * The shared ledger's files (`entries/<sha>.json`, one checksummed journal line each) read as
 * one journal, oldest first. A file whose line does not verify, or whose record is about
 * another commit than its name says, is reported and skipped: an entry moved or edited on the
 * branch is tampering, not history. Entries are numbered in time order for display.
 */
export function parseSharedLedgerFiles(files: readonly LedgerEntryFile[]): JournalContents {
  const problems: JournalProblem[] = [];
  const verified: JournalEntry[] = [];
  files.forEach((file, index) => {
    const lineNumber = index + 1;
    const lines = file.text.split('\n').filter((line) => line !== '');
    const checked = lines.length === 1 && lines[0] !== undefined ? checkLine(lines[0]) : null;
    if (checked === null || checked.kind === 'unparseable') {
      problems.push({
        lineNumber,
        kind: 'unparseable',
        message: `${file.path} is not one ledger line`,
      });
      return;
    }
    if (checked.kind === 'checksum') {
      problems.push({
        lineNumber,
        kind: 'checksum',
        message: `${file.path} was edited: its checksum does not match`,
      });
      return;
    }
    const named = /([0-9a-f]{40,64})\.json$/.exec(file.path)?.[1];
    if (named === undefined || checked.line.record.head !== named) {
      problems.push({
        lineNumber,
        kind: 'chain',
        message: `${file.path} holds the entry of another commit`,
      });
      return;
    }
    verified.push({ ...checked.line, lineNumber });
  });
  const entries = verified
    .sort((a, b) => a.at.localeCompare(b.at))
    .map((entry, index) => ({ ...entry, lineNumber: index + 1 }));
  return { entries, problems, intact: problems.length === 0 };
}
