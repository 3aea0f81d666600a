import { isMap, isScalar, parseDocument } from 'yaml';
import { AureusError } from '../model/errors.js';

/** Why the policy turns the builder on, written beside `builder: true` like every generated value. */
export const BUILDER_REASON =
  'aureus init --builder: /aureus implement and the builder label start the builder, in .github/workflows/aureus-builder.yml (off by default)';

/**
 * The policy's text with `integrations.app.builder: true`, edited through the `yaml` Document
 * API so that the user's comments, order and formatting stay as they were; `changed` is false
 * when it was already true. A policy that is not YAML, or whose `integrations` or `app` is not
 * a map, is left alone with an error that says where to set it by hand.
 */
export function enableBuilderPolicy(
  text: string,
  shownPath: string,
): { readonly text: string; readonly changed: boolean } {
  const document = parseDocument(text);
  if (document.errors.length > 0)
    throw new AureusError(
      `${shownPath} is not valid YAML (${document.errors[0]?.message.split('\n')[0] ?? 'a parse error'}), so aureus init --builder cannot set integrations.app.builder in it.`,
      `fix ${shownPath} (aureus policy validate says where), then run aureus init --builder again.`,
    );
  for (const path of [['integrations'], ['integrations', 'app']]) {
    const node = document.getIn(path, true);
    if (node !== undefined && !isMap(node))
      throw new AureusError(
        `${shownPath} has ${path.join('.')} that is not a map, so aureus init --builder cannot set integrations.app.builder in it.`,
        `make ${path.join('.')} a map in ${shownPath}, or set integrations.app.builder: true there by hand.`,
      );
  }
  const current = document.getIn(['integrations', 'app', 'builder'], true);
  if (isScalar(current) && current.value === true) return { text, changed: false };
  // A node, not a bare value, so that it carries its reason (a bare `true` has no comment).
  const node = document.createNode(true);
  node.comment = ` ${BUILDER_REASON}`;
  document.setIn(['integrations', 'app', 'builder'], node);
  return { text: document.toString({ lineWidth: 0 }), changed: true };
}
