import { escapeControls } from './plain-text.js';
import type { Annotation } from './render-annotations.js';

/**
 * GitHub's escaping for workflow commands (as @actions/core's `command.ts` does). The runner
 * reads the properties up to the first `::` and the message after it, one line each: with `%`,
 * CR and LF encoded in the message, and `:` and `,` too in properties, no file name or message
 * can end the command early or start another one (THREATS row 15, CVE-2020-15228).
 */
export function escapeCommandData(value: string): string {
  return value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeCommandProperty(value: string): string {
  return escapeCommandData(value).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * `::error file=src/a.ts,line=3,endLine=9,title=…::message` (with `col=` for an annotation at
 * one place of a line): one line for the runner's log, which shows it as it is: ESC, C1
 * controls, bidirectional controls and bytes that are not UTF-8 come escaped (escapeControls),
 * whoever built the annotation.
 */
export function workflowCommand(annotation: Annotation): string {
  const column: ReadonlyArray<readonly [string, string]> =
    annotation.startColumn === undefined ? [] : [['col', String(annotation.startColumn)]];
  const properties: ReadonlyArray<readonly [string, string]> = [
    ['file', escapeControls(annotation.file)],
    ['line', String(annotation.startLine)],
    ['endLine', String(annotation.endLine)],
    ...column,
    ['title', escapeControls(annotation.title)],
  ];
  const encoded = properties.map(([key, value]) => `${key}=${escapeCommandProperty(value)}`);
  const message = escapeCommandData(escapeControls(annotation.message));
  return `::${annotation.level} ${encoded.join(',')}::${message}`;
}
