import { Document, isCollection, isNode } from 'yaml';
import type { GeneratedPolicy } from './generate-policy.js';

/**
 * The generated policy as `.aureus/policy.yaml`: the header, then every generated value with
 * the reason for it as a comment on its line (`core_files: 30 # the core has 25 files today…`).
 * A generated map or list is written on one line so that its reason stays beside it. The text
 * parses back with parsePolicy (the tests hold it to that).
 */
export function renderGeneratedPolicy(
  generated: GeneratedPolicy,
  header: readonly string[],
): string {
  // Text YAML 1.1 would read otherwise (a project named `no`) is quoted: any reader agrees on it.
  const document = new Document(generated.document, { compat: 'yaml-1.1' });
  document.commentBefore = header.map((line) => ` ${oneLine(line)}`).join('\n');
  for (const [path, reason] of generated.reasons) {
    const node = document.getIn(path.split('.'), true);
    if (isCollection(node)) node.flow = true;
    if (isNode(node)) node.comment = ` ${oneLine(reason)}`;
  }
  return document.toString({ lineWidth: 0 });
}

/** A comment ends at the line's end: a reason with a line break would spill into the YAML. */
function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ');
}
