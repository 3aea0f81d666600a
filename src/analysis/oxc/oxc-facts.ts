import type { FileFacts } from '../../model/facts.js';
import { extractEstreeFacts } from './estree-facts.js';
import { parseDiagnostics, parseProgram, type ScriptLanguage } from './parse-program.js';

/**
 * The facts of a TypeScript, TSX or JavaScript file from oxc's native parser, which loads in a
 * fraction of the time TypeScript's 9 MB compiler takes and parses about three times as fast.
 */
export function extractOxcFacts(text: string, language: ScriptLanguage): FileFacts {
  const { program, comments, errors } = parseProgram(text, language);
  return extractEstreeFacts(text, language, {
    program,
    comments,
    diagnostics: parseDiagnostics(errors),
  });
}
