import { resolve } from 'node:path';
import { Document, isMap, isScalar, type YAMLMap } from 'yaml';
import { loadPolicy, readPolicyFile, shownPolicyPath } from '../../memory/policy-file.js';
import { storePaths } from '../../memory/store-paths.js';
import { ExitCode } from '../../model/errors.js';
import type { Policy } from '../../model/policy.js';
import { formatPolicyProblem, PolicyError } from '../../policy/policy-problem.js';
import { policySchema } from '../../policy/policy-schema.generated.js';
import { schemaAt } from '../../policy/schema-node.js';
import type { CommandContext } from './command-context.js';

/** `aureus policy validate [FILE]`: every problem of a policy file, or confirmation it is valid. */
export async function validatePolicyCommand(context: CommandContext): Promise<number> {
  const { io, root, positionals, format } = context;
  const file = positionals[0];
  const path = file === undefined ? storePaths(root).policy : resolve(io.cwd, file);
  const shown = shownPolicyPath(root, io.cwd, path);
  try {
    await readPolicyFile(path, shown, true);
  } catch (error) {
    if (!(error instanceof PolicyError)) throw error;
    if (format === 'json') {
      io.stdout(
        `${JSON.stringify({ valid: false, file: shown, problems: error.problems }, null, 2)}\n`,
      );
    } else {
      io.stderr(`${error.problems.map(formatPolicyProblem).join('\n')}\n`);
      io.stderr(`${plural(error.problems.length, 'problem')} in ${shown}.\n`);
    }
    return ExitCode.error;
  }
  if (format === 'json') {
    io.stdout(`${JSON.stringify({ valid: true, file: shown, problems: [] }, null, 2)}\n`);
  } else {
    io.stdout(`${shown} is a valid AUREUS policy.\n`);
  }
  return ExitCode.pass;
}

/** `aureus policy show`: the effective policy with defaults, as YAML (explained) or JSON. */
export async function showPolicyCommand(context: CommandContext): Promise<number> {
  const { io, root, options, format } = context;
  const loaded = await loadPolicy({ root, file: options.policy, cwd: io.cwd });
  if (format === 'json') {
    io.stdout(renderPolicy(loaded.policy, 'json'));
    return ExitCode.pass;
  }
  const origin =
    loaded.source.kind === 'file'
      ? `${loaded.source.path}, with defaults for every key it leaves out`
      : 'the built-in default policy (this repository has no .aureus/policy.yaml)';
  io.stdout(`# Effective AUREUS policy: ${origin}.\n${renderPolicy(loaded.policy, 'yaml')}`);
  return ExitCode.pass;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * The effective policy as text. YAML carries each key's description from the schema as a
 * comment, so `aureus policy show` doubles as the reference of every setting and its default.
 * Text that YAML 1.1 would read otherwise (`no`, `on`, `0o17`) is quoted (`compat`), so any
 * YAML reader, 1.1 or 1.2, reads the same values.
 */
export function renderPolicy(policy: Policy, format: 'yaml' | 'json'): string {
  if (format === 'json') return `${JSON.stringify(policy, null, 2)}\n`;
  const document = new Document(policy, { compat: 'yaml-1.1' });
  if (isMap(document.contents)) annotate(document.contents, []);
  return document.toString({ lineWidth: 0 });
}

function annotate(map: YAMLMap, path: readonly string[]): void {
  for (const pair of map.items) {
    if (!isScalar(pair.key)) continue;
    const keyPath = [...path, String(pair.key.value)];
    const schema = schemaAt(policySchema, keyPath);
    if (schema?.description) pair.key.commentBefore = ` ${schema.description}`;
    if (isMap(pair.value)) annotate(pair.value, keyPath);
  }
}
