import type { FileFacts } from '../model/facts.js';

export type ExtractScriptFacts = (
  text: string,
  language: 'typescript' | 'tsx' | 'javascript',
) => FileFacts;

/**
 * oxc's extractor, or undefined where its parser cannot load: oxc-parser is a native module
 * with one binary per platform, installed as an optional dependency, so a platform without one
 * (or an install that skipped optional dependencies) reads TS/JS with the other parsers, which
 * give the same facts. The Action's bundle, which ships no native code, swaps this module for
 * one that answers undefined (scripts/build-action.mjs).
 */
export async function loadOxcFacts(): Promise<ExtractScriptFacts | undefined> {
  try {
    return (await import('../analysis/oxc/oxc-facts.js')).extractOxcFacts;
  } catch {
    return undefined;
  }
}
