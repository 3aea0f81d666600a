import { describe, expect, it } from '@jest/globals';
import { findingsKeeper, keptRuleCheck } from '../../src/critic/kept-findings.js';
import type { ProjectState, Rule } from '../../src/critic/rule.js';
import { godClass } from '../../src/critic/rules/god-class.js';
import { runCritic } from '../../src/critic/run-critic.js';
import { classOfLoc, policyFrom, projectOf } from './critic-support.js';

const POLICY = policyFrom(`
forbidden_patterns:
  god_class:
    max_loc: 6
`);

const BASE = {
  'src/a.ts': `import { b } from './b.js';\n${classOfLoc('Big', 7)}export const a = b;\n`,
  'src/b.ts': `export let b = 1;\n${classOfLoc('Small', 3)}`,
  'src/c.ts': `${classOfLoc('Other', 9)}export const c = eval('1');\n`,
};

/**
 * The next tree as a kept analysis sees it: the import graph of `project` kept, the facts of
 * the files not in `edits` the very same (kept by blob), those of `edits` parsed anew.
 */
async function nextTree(
  project: ProjectState,
  edits: Record<string, string | null>,
): Promise<ProjectState> {
  const written = Object.fromEntries(
    Object.entries(edits).filter((entry): entry is [string, string] => entry[1] !== null),
  );
  const parsed = await projectOf(written, POLICY);
  const facts = new Map(project.facts);
  for (const [path, text] of Object.entries(edits)) {
    const fresh = parsed.facts.get(path);
    if (text === null || fresh === undefined) facts.delete(path);
    else facts.set(path, fresh);
  }
  return { ...project, facts };
}

describe('the critic kept across trees', () => {
  it('gives what a whole run gives, re-running file-scope rules on the changed files alone', async () => {
    const keeper = findingsKeeper();
    const judged: string[][] = [];
    const counted: Rule = {
      ...godClass,
      check: (context) => {
        judged.push([...context.project.facts.keys()]);
        return godClass.check(context);
      },
    };
    const first = await projectOf(BASE, POLICY);
    expect(keptRuleCheck(keeper, { policy: POLICY, project: first })(counted)).toEqual(
      godClass.check({ policy: POLICY, project: first }),
    );
    const steps: Array<Record<string, string | null>> = [
      { 'src/b.ts': `export let b = 1;\n${classOfLoc('Small', 8)}` },
      { 'src/c.ts': null },
      { 'src/d.ts': classOfLoc('Added', 12), 'src/a.ts': `import { b } from './b.js';\n` },
      {},
    ];
    let project = first;
    for (const edits of steps) {
      project = await nextTree(project, edits);
      judged.length = 0;
      const kept = keptRuleCheck(keeper, { policy: POLICY, project })(counted);
      expect(kept).toEqual(godClass.check({ policy: POLICY, project: { ...project } }));
      expect(judged.map((paths) => paths.sort())).toEqual([
        Object.keys(edits)
          .filter((path) => edits[path] !== null)
          .sort(),
      ]);
      // The whole critic, kept and fresh: the same list.
      const again = await nextTree(project, {});
      expect(runCritic({ policy: POLICY, project: again }, keeper)).toEqual(
        runCritic({ policy: POLICY, project: { ...again } }),
      );
    }
  });

  it('runs every rule whole when the import graph or the policy is not the one kept', async () => {
    const keeper = findingsKeeper();
    const judged: number[] = [];
    const counted: Rule = {
      ...godClass,
      check: (context) => {
        judged.push(context.project.facts.size);
        return godClass.check(context);
      },
    };
    const first = await projectOf(BASE, POLICY);
    keptRuleCheck(keeper, { policy: POLICY, project: first })(counted);
    // The same files, the graph built again (an import added): every file is judged again.
    const rebuilt = await projectOf({ ...BASE, 'src/c.ts': "import './a.js';\n" }, POLICY);
    expect(keptRuleCheck(keeper, { policy: POLICY, project: rebuilt })(counted)).toEqual(
      godClass.check({ policy: POLICY, project: rebuilt }),
    );
    const stricter = policyFrom('forbidden_patterns:\n  god_class:\n    max_loc: 2\n');
    const same = { ...rebuilt };
    expect(keptRuleCheck(keeper, { policy: stricter, project: same })(counted)).toEqual(
      godClass.check({ policy: stricter, project: same }),
    );
    expect(judged).toEqual([3, 3, 3]);
  });
});
