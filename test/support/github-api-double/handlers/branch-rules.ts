import { type Handler, json, repoOf, stringParam } from '../context.js';
import { paginate } from '../pagination.js';

/**
 * The rules active rulesets apply to a branch, as GitHub lists them: every rule of every active
 * ruleset that targets the name, whether or not the branch exists (a branch no ruleset targets
 * has none, an empty list; GitHub leaves out rulesets in `evaluate` or `disabled` enforcement).
 */
const getBranchRules: Handler = (context) => {
  const rules = repoOf(context).branchRules.get(stringParam(context, 'branch')) ?? [];
  const page = paginate(rules, context.params, context.url, context.world.apiUrl);
  return json(200, page.items, page.link === undefined ? undefined : { link: page.link });
};

export const branchRuleHandlers: Record<string, Handler> = {
  'repos/get-branch-rules': getBranchRules,
};
