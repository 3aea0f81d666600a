import type { TSESTree } from '@typescript-eslint/typescript-estree';
import {
  astConverter,
  type ParseSettings,
} from '@typescript-eslint/typescript-estree/use-at-your-own-risk';
import type { Program } from 'oxc-parser';
import type * as ts from 'typescript';
import type { FileFacts } from '../../model/facts.js';
import { hashbangComment } from '../oxc/comments.js';
import { extractEstreeFacts } from '../oxc/estree-facts.js';
import type { ParseError } from '../tree-sitter/facts-collector.js';
import type { TextRange } from '../tree-sitter/line-index.js';
import { typescript } from '../typescript-runtime.js';

type ScriptLanguage = 'typescript' | 'tsx' | 'javascript';

const SCRIPT_KINDS: Readonly<Record<ScriptLanguage, ts.ScriptKind>> = {
  typescript: typescript.ScriptKind.TS,
  tsx: typescript.ScriptKind.TSX,
  // JavaScript files may hold JSX, as oxc's JavaScript parse (`jsx`) allows.
  javascript: typescript.ScriptKind.JS,
};

/**
 * What typescript-estree's converter reads: a tree that TypeScript recovered from a syntax
 * error is converted as it is (`allowInvalidAST`), the errors having been read beforehand;
 * ranges and locations are both kept, which spares the converter a second walk to drop one.
 * The other settings only matter to its parse() with a project, which is not used.
 */
const CONVERSION: ParseSettings = {
  allowInvalidAST: true,
  errorOnUnknownASTType: false,
  suppressDeprecatedPropertyWarnings: true,
  range: true,
  loc: true,
  comment: true,
  tokens: null,
  backend: 'classic',
  code: '',
  codeFullText: '',
  comments: [],
  debugLevel: new Set(),
  errorOnTypeScriptSyntacticAndSemanticIssues: false,
  extraFileExtensions: [],
  filePath: '',
  jsDocParsingMode: typescript.JSDocParsingMode.ParseNone,
  jsx: false,
  log: () => undefined,
  programs: null,
  projects: new Map(),
  projectService: undefined,
  singleRun: false,
  tsconfigMatchCache: new Map(),
  tsconfigRootDir: '',
};

/**
 * The facts of a TypeScript, TSX or JavaScript file from TypeScript's own parser (no type
 * checker), for where oxc cannot load (the Action's bundle ships no native code) and for a
 * file with syntax errors, where TypeScript's recovery and messages are the final word. Its
 * tree is converted to the TS-ESTree shape oxc gives (typescript-estree, the conversion
 * typescript-eslint makes) and read by the one walk over that shape.
 */
export function extractTypeScriptFacts(text: string, language: ScriptLanguage): FileFacts {
  const file = typescript.createSourceFile(
    language === 'javascript' ? 'source.js' : `source.${language === 'tsx' ? 'tsx' : 'ts'}`,
    text,
    // JSDoc is a comment here: parsing the types inside it would only cost time.
    {
      languageVersion: typescript.ScriptTarget.Latest,
      jsDocParsingMode: typescript.JSDocParsingMode.ParseNone,
    },
    // The converter looks at parents.
    true,
    SCRIPT_KINDS[language],
  );
  const diagnostics = parseDiagnostics(file);
  const converted = convert(file, diagnostics.length > 0);
  const comments: TextRange[] = (converted?.comments ?? []).map(({ range }) => ({
    start: range[0],
    end: range[1],
  }));
  const hashbang = hashbangComment(text);
  if (hashbang !== null && comments[0]?.start !== hashbang.start) comments.unshift(hashbang);
  const program = converted?.program ?? EMPTY_PROGRAM;
  return extractEstreeFacts(text, language, { program, comments, diagnostics });
}

const EMPTY_PROGRAM: Program = {
  type: 'Program',
  body: [],
  sourceType: 'module',
  hashbang: null,
  start: 0,
  end: 0,
};

interface Converted {
  readonly program: Program;
  readonly comments: readonly TSESTree.Comment[];
}

/**
 * TypeScript's tree in the TS-ESTree shape, with oxc's `start`/`end` offsets and its
 * parentheses. A tree recovered from a syntax error can make the converter throw (a missing
 * `>` at the end of the text): the file's errors still stand, its partial facts are lost.
 */
function convert(file: ts.SourceFile, broken: boolean): Converted | undefined {
  // The converter refuses a tree with errors; they were read, and the recovered tree still
  // holds the file's partial facts.
  if (broken) Object.assign(file, { parseDiagnostics: [] });
  let converted: ReturnType<typeof astConverter>;
  try {
    converted = astConverter(file, CONVERSION, true);
  } catch (error) {
    if (broken) return undefined;
    throw error;
  }
  const { estree, astMaps } = converted;
  const toTypeScript = (node: TSESTree.Node): ts.Node => astMaps.esTreeNodeToTSNodeMap.get(node);
  adapt(estree, toTypeScript, file);
  const comments = estree.comments ?? [];
  const program: unknown = estree;
  if (!isProgram(program)) throw new Error('typescript-estree gave no Program');
  return { program, comments };
}

/**
 * Gives every node below `node` the `start` and `end` oxc's nodes carry (UTF-16 offsets, as
 * TypeScript's positions and ESTree's `range` are), and puts back the parentheses the
 * conversion drops, as oxc keeps them (`preserveParens`): `(a.b)()` calls no name.
 */
function adapt(
  node: TSESTree.Node,
  toTypeScript: (node: TSESTree.Node) => ts.Node,
  file: ts.SourceFile,
): void {
  Object.assign(node, { start: node.range[0], end: node.range[1] });
  const own = toTypeScript(node);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'parent' || key === 'comments') continue;
    if (Array.isArray(value)) {
      value.forEach((item: unknown, index) => {
        if (isNode(item)) value[index] = adaptChild(item, own, toTypeScript, file);
      });
    } else if (isNode(value)) {
      Object.assign(node, { [key]: adaptChild(value, own, toTypeScript, file) });
    }
  }
}

function adaptChild(
  child: TSESTree.Node,
  parent: ts.Node,
  toTypeScript: (node: TSESTree.Node) => ts.Node,
  file: ts.SourceFile,
): unknown {
  adapt(child, toTypeScript, file);
  const own = toTypeScript(child);
  let wrapped: unknown = child;
  // A node made for the same TypeScript node as its parent (a ChainExpression's expression)
  // sits inside the parentheses already put around the parent.
  if (own === parent || own === undefined) return wrapped;
  for (
    let around = own.parent;
    around !== undefined && typescript.isParenthesizedExpression(around);
    around = around.parent
  ) {
    const start = around.getStart(file);
    wrapped = {
      type: 'ParenthesizedExpression',
      expression: wrapped,
      start,
      end: around.end,
      range: [start, around.end],
    };
  }
  return wrapped;
}

function isNode(value: unknown): value is TSESTree.Node {
  return (
    typeof value === 'object' &&
    value !== null &&
    'type' in value &&
    typeof value.type === 'string' &&
    'range' in value &&
    Array.isArray(value.range)
  );
}

function isProgram(node: unknown): node is Program {
  return (
    typeof node === 'object' &&
    node !== null &&
    'type' in node &&
    node.type === 'Program' &&
    'body' in node &&
    Array.isArray(node.body)
  );
}

/** At most this many syntax errors are reported per file, as for tree-sitter. */
const MAX_DIAGNOSTICS = 20;

/**
 * The syntax errors TypeScript's parser found, at the place each one points to. They live in
 * the source file's `parseDiagnostics`, which the public API only exposes through a Program (a
 * type checker we do not want); the property has held them since TypeScript 1.x, and reading
 * it is checked rather than assumed.
 */
function parseDiagnostics(file: ts.SourceFile): ParseError[] {
  const found = 'parseDiagnostics' in file ? file.parseDiagnostics : undefined;
  if (!Array.isArray(found)) return [];
  return found
    .filter(isDiagnostic)
    .slice(0, MAX_DIAGNOSTICS)
    .map((diagnostic) => ({
      message: typescript.flattenDiagnosticMessageText(diagnostic.messageText, ' '),
      at: diagnostic.start ?? 0,
    }));
}

function isDiagnostic(value: unknown): value is ts.Diagnostic {
  return typeof value === 'object' && value !== null && 'messageText' in value && 'start' in value;
}
