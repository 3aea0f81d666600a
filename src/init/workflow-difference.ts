import { parse } from 'yaml';

type Tree = Record<string, unknown>;

function isTree(value: unknown): value is Tree {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mapAt(value: unknown, ...path: string[]): Tree | undefined {
  let node = value;
  for (const key of path) {
    if (!isTree(node)) return undefined;
    node = node[key];
  }
  return isTree(node) ? node : undefined;
}

/**
 * What sets a workflow file apart from the builder workflow init writes, said the way a person
 * fixes it: a missing dispatch input first (a copy made before `trigger` existed answers the
 * Action's dispatch with a 422), then missing, extra or changed jobs, else only the text.
 */
export function workflowDifference(existing: string, wanted: string): string {
  let theirs: unknown;
  try {
    theirs = parse(existing);
  } catch {
    return 'it is not valid YAML';
  }
  const ours: unknown = parse(wanted);
  const differences: string[] = [];
  const ourInputs = Object.keys(mapAt(ours, 'on', 'workflow_dispatch', 'inputs') ?? {});
  const theirInputs = mapAt(theirs, 'on', 'workflow_dispatch', 'inputs');
  if (theirInputs === undefined) differences.push('it has no workflow_dispatch inputs');
  else
    for (const input of ourInputs.filter((name) => !(name in theirInputs)))
      differences.push(
        input === 'trigger'
          ? 'its workflow_dispatch has no input trigger (the Action dispatches with it, and GitHub answers a workflow without it with a 422)'
          : `its workflow_dispatch has no input ${input}`,
      );
  const ourJobs = mapAt(ours, 'jobs') ?? {};
  const theirJobs = mapAt(theirs, 'jobs') ?? {};
  for (const job of Object.keys(ourJobs)) {
    if (!(job in theirJobs)) differences.push(`it has no job ${job}`);
    else if (JSON.stringify(theirJobs[job]) !== JSON.stringify(ourJobs[job]))
      differences.push(`its job ${job} differs`);
  }
  for (const job of Object.keys(theirJobs).filter((name) => !(name in ourJobs)))
    differences.push(`it has a job ${job} the builder workflow does not`);
  return differences.length > 0
    ? differences.join('; ')
    : 'its text differs (comments, order or formatting)';
}
