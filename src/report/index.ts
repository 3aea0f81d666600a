/**
 * Pure renderers over one Report. Each returns data, and the entry points write it to stdout, a
 * comment, a check run or a file. The terminal text ends in a newline like any run of lines;
 * JSON, markdown and SARIF are documents without one.
 */
export { type Annotation, renderAnnotations } from './render-annotations.js';
export { renderJson } from './render-json.js';
export {
  DEFAULT_MARKER,
  DEFAULT_MAX_BYTES,
  ledgerMarker,
  type MarkdownOptions,
  renderMarkdown,
} from './render-markdown.js';
export { pathToUri, renderSarif, type SarifOptions, sarifLog } from './render-sarif.js';
export { renderText, type TextOptions } from './render-text.js';
export type { SarifLog } from './sarif-log.js';
export { escapeCommandData, escapeCommandProperty, workflowCommand } from './workflow-command.js';
