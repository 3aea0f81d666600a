import type { Language } from '../../model/facts.js';
import type { Finding } from '../../model/finding.js';
import { findingOf } from '../finding-of.js';
import { pathKinds } from '../path-kinds.js';
import type { Rule } from '../rule.js';

const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  typescript: 'TypeScript',
  tsx: 'TSX',
  javascript: 'JavaScript',
  python: 'Python',
  go: 'Go',
  java: 'Java',
};

/** Enough of a parser's message to say what is wrong; it may quote the source. */
const MAX_MESSAGE = 160;

/**
 * Each file whose parser reported a syntax error (FileFacts `diagnostics`), at the first one's
 * line and column, in the parser's words: its facts are partial, so what it costs and what the
 * other rules see of it are not measured in full, and a check must say so rather than report
 * it as read (a god class with one syntax error used to vanish from the facts and pass).
 *
 * Every analysed file counts (paths.ignore is left out before facts are made): generated code
 * that does not parse is broken output. Test files (paths.tests) are reported at
 * `in_tests` (warn by default), since a parser's or a linter's tests keep invalid code as
 * inputs on purpose; a folder of such inputs is better under paths.ignore.
 *
 * Symbol `file`, so the fingerprint is (rule, path): a file already broken at the base is
 * baseline, whatever its errors and wherever they move; a file newly broken is new. `measured`
 * is null: the number of errors depends on the parser's recovery, and a second error in a
 * broken file is no worse a file.
 */
export const unparsableFile: Rule = {
  id: 'unparsable_file',
  scope: 'file',
  description:
    'A source file that does not parse, at its first syntax error: it is measured only as far as the parser could read it.',
  check({ policy, project }) {
    const { in_tests: inTests } = policy.forbidden_patterns.unparsable_file;
    const { isTest } = pathKinds(policy, project);
    const findings: Finding[] = [];
    for (const [path, facts] of project.facts) {
      const [first] = facts.diagnostics;
      if (first === undefined) continue;
      const test = isTest(path);
      if (test && inTests === 'off') continue;
      const said = clip(first.message.replace(/\s+/g, ' ').trim());
      findings.push(
        findingOf('unparsable_file', {
          message: `${path} does not parse as ${LANGUAGE_NAMES[facts.language]} (line ${first.line}, column ${first.column}: ${said}), so it is measured only as far as the parser could read it: fix the syntax error, or list the file under paths.ignore if it is meant to be invalid`,
          location: { path, startLine: first.line, startColumn: first.column, endLine: first.line },
          symbol: 'file',
          measured: null,
          limit: null,
          advisory: test && inTests === 'warn',
        }),
      );
    }
    return findings;
  },
};

function clip(text: string): string {
  const characters = Array.from(text);
  return characters.length <= MAX_MESSAGE
    ? text
    : `${characters.slice(0, MAX_MESSAGE - 1).join('')}…`;
}
