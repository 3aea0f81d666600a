/**
 * Prose: README, guides, changelogs, licences. Documentation explains code and adds no
 * complexity to it, so its lines are not priced; pricing it would tax the very habit a
 * complexity budget wants to encourage.
 */
const DOCUMENTATION = /\.(md|mdx|markdown|rst|adoc|asciidoc|txt)$/i;
const DOCUMENTATION_NAMES =
  /(^|\/)(LICENSE|LICENCE|NOTICE|AUTHORS|CHANGELOG|CONTRIBUTING|README)(\.[^/]*)?$/;

export function isDocumentation(path: string): boolean {
  return DOCUMENTATION.test(path) || DOCUMENTATION_NAMES.test(path);
}
