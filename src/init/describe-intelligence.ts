import type { JsonValue } from '../model/json.js';
import type { GeneratedPolicy } from './generate-policy.js';
import type { Inferred, ProjectIntelligence } from './project-intelligence.js';
import { count, listed, plural } from './wording.js';

/**
 * What `aureus init` found and why the policy says what it says, as short text lines for the
 * terminal: the project, then every generated setting outside `project` with its reason
 * (settings that share a value and a reason share a line).
 */
export function describeIntelligence(
  intelligence: ProjectIntelligence,
  generated: GeneratedPolicy,
): string {
  const { name, type, languages, frameworks, testRunner, testCommand, core, layering } =
    intelligence;
  const row = (label: string, value: string, inferred: Inferred<unknown>) =>
    `  ${label.padEnd(11)} ${value} (${inferred.reason})`;
  const command = testCommand.value.length === 0 ? 'none' : `\`${testCommand.value.join(' ')}\``;
  const lines = [
    `${name.value}: ${type.value}, ${intelligence.maturity.value}`,
    row('type', type.value, type),
    row('languages', listed(languages.value.map((share) => share.language)) || 'none', languages),
    row('frameworks', listed(frameworks.value) || 'none', frameworks),
    `  ${'tests'.padEnd(11)} ${testRunner.value ?? 'no runner'} (${testRunner.reason}); ${command} (${testCommand.reason})`,
    row(
      'core',
      `${core.value.globs.join(' ')}: ${plural(core.value.modules.length, 'module')}, ${plural(core.value.files, 'file')}, ${count(core.value.loc)} lines`,
      core,
    ),
    row('layering', layeringWord(intelligence), layering),
    row('team', plural(intelligence.team.value, 'recent author'), intelligence.team),
    row('maturity', intelligence.maturity.value, intelligence.maturity),
    '',
    'Why the policy says what it says (also beside each value in the file):',
    ...groupedReasons(generated),
    `  baseline: ${generated.baseline.value ? 'yes' : 'no'} (${generated.baseline.reason})`,
  ];
  return `${lines.join('\n')}\n`;
}

function layeringWord({ layering, core }: ProjectIntelligence): string {
  if (layering.value.tangled.length > 0) return 'tangled';
  if (core.value.modules.length <= 1) return 'single module';
  return layering.value.layers.length <= 1 ? 'flat' : plural(layering.value.layers.length, 'layer');
}

function groupedReasons({ document, reasons }: GeneratedPolicy): string[] {
  const groups = new Map<string, { paths: string[]; value: string }>();
  for (const [path, reason] of reasons) {
    if (path.startsWith('project.')) continue;
    const value = compact(valueAt(document, path));
    const key = `${value}\0${reason}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { paths: [path], value });
    else group.paths.push(path);
  }
  return [...groups].map(([key, { paths, value }]) => {
    const reason = key.slice(key.indexOf('\0') + 1);
    const [first = '', ...others] = paths;
    const more = others.map((path) => path.slice(path.lastIndexOf('.') + 1));
    return `  ${[first, ...more].join(', ')}: ${value} (${reason})`;
  });
}

function valueAt(document: JsonValue, path: string): JsonValue | undefined {
  let node: JsonValue | undefined = document;
  for (const key of path.split('.')) {
    node =
      typeof node === 'object' && node !== null && !Array.isArray(node) ? node[key] : undefined;
  }
  return node;
}

/** A value on one line, YAML-flow style: `{ target: 4000, hard: 8000 }`, `[npm, test]`. */
function compact(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(compact).join(', ')}]`;
  if (typeof value === 'object') {
    return `{ ${Object.entries(value)
      .map(([key, item]) => `${key}: ${compact(item)}`)
      .join(', ')} }`;
  }
  return String(value);
}
