import type { FileFacts } from '../model/facts.js';
import type { Finding } from '../model/finding.js';
import type { Policy } from '../model/policy.js';
import type { ProjectState, Rule, RuleContext } from './rule.js';

/**
 * What the critic keeps of one analysis for the next analysis of the same repository (a builder
 * run's trees, action after action): the findings of each file-scope rule (Rule `scope`), by
 * the file they are in. Made by findingsKeeper, handed to runCritic.
 */
export interface FindingsKeeper {
  last: KeptFindings | undefined;
}

interface KeptFindings {
  readonly project: ProjectState;
  readonly policy: Policy;
  readonly byRule: ReadonlyMap<string, ReadonlyMap<string, readonly Finding[]>>;
}

export function findingsKeeper(): FindingsKeeper {
  return { last: undefined };
}

/** Runs one rule on the context it is made for. */
export type RuleCheck = (rule: Rule) => Finding[];

/**
 * The check of every snapshot rule of `context`, file-scope rules re-run only on the files
 * whose facts changed since the keeper's last analysis (facts are kept by blob, so an unchanged
 * file has the very same facts) when that analysis had the same import graph and policy: then
 * every unchanged file has the same path kinds (the graph decides which tests ship, a file's
 * own facts whether it is generated), so the same findings. Anything else runs the rule whole.
 * The findings come in the order a whole run gives them: file by file, in the facts' order.
 */
export function keptRuleCheck(keeper: FindingsKeeper, context: RuleContext): RuleCheck {
  const { policy, project } = context;
  const last = keeper.last;
  const comparable =
    last !== undefined && last.policy === policy && last.project.graph === project.graph;
  const changed = new Map<string, FileFacts>();
  if (comparable)
    for (const [path, facts] of project.facts)
      if (last.project.facts.get(path) !== facts) changed.set(path, facts);
  // One snapshot of the changed files for every rule: its path kinds are compiled once.
  const changedOnly: ProjectState = { ...project, facts: changed };
  const byRule = new Map<string, ReadonlyMap<string, readonly Finding[]>>();
  keeper.last = { project, policy, byRule };
  return (rule) => {
    if (rule.scope !== 'file') return rule.check(context);
    const before = comparable ? last.byRule.get(rule.id) : undefined;
    if (before !== undefined) {
      const fresh = byFile(rule.check({ policy, project: changedOnly }), changed);
      if (fresh !== undefined) {
        const merged = new Map<string, readonly Finding[]>();
        for (const path of project.facts.keys()) {
          const found = changed.has(path) ? fresh.get(path) : before.get(path);
          if (found !== undefined) merged.set(path, found);
        }
        byRule.set(rule.id, merged);
        return [...merged.values()].flat();
      }
    }
    const findings = rule.check(context);
    const kept = byFile(findings, project.facts);
    if (kept !== undefined) byRule.set(rule.id, kept);
    return findings;
  };
}

/**
 * Findings by the file they are located in, each list in the rule's order; undefined when one
 * is not located in a file of `files` (then the rule is not file-scope after all: it runs whole).
 */
function byFile(
  findings: readonly Finding[],
  files: ReadonlyMap<string, FileFacts>,
): Map<string, Finding[]> | undefined {
  const grouped = new Map<string, Finding[]>();
  for (const finding of findings) {
    const path = finding.location?.path;
    if (path === undefined || !files.has(path)) return undefined;
    const list = grouped.get(path);
    if (list === undefined) grouped.set(path, [finding]);
    else list.push(finding);
  }
  return grouped;
}
