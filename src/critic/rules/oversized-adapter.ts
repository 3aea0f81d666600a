import type { Finding } from '../../model/finding.js';
import { globMatcher } from '../../policy/glob-matcher.js';
import { findingOf } from '../finding-of.js';
import { pathKinds } from '../path-kinds.js';
import type { Rule } from '../rule.js';

/**
 * A file matching one of `adapter_globs` with more than `max_loc` lines of code (FileFacts `loc`:
 * comments and blank lines do not count, code squeezed onto few lines does). Test and generated files are left out, even under
 * an adapters folder: a generated API client is not hand-written translation code. Symbol:
 * the path (the file is the unit); location: the whole file.
 */
export const oversizedAdapter: Rule = {
  id: 'oversized_adapter',
  scope: 'file',
  description:
    'An adapter file with more lines of code than forbidden_patterns.oversized_adapter.max_loc.',
  check({ policy, project }) {
    const { max_loc: limit, adapter_globs: globs } = policy.forbidden_patterns.oversized_adapter;
    const isAdapter = globMatcher(globs);
    const { isProduct } = pathKinds(policy, project);
    const findings: Finding[] = [];
    for (const [path, { lines, loc }] of project.facts) {
      if (!isAdapter(path) || !isProduct(path) || loc <= limit) continue;
      const total = lines.code + lines.comment + lines.blank;
      findings.push(
        findingOf('oversized_adapter', {
          message: `adapter ${path} holds ${loc} lines of code; the limit is ${limit} (forbidden_patterns.oversized_adapter.max_loc)`,
          location: { path, startLine: 1, endLine: Math.max(total, 1) },
          symbol: path,
          measured: loc,
          limit,
        }),
      );
    }
    return findings;
  },
};
