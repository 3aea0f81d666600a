/**
 * Malformed and hostile policy files, each with the exact first line `aureus policy validate`
 * must print for it: `file:line:column: what is wrong. To resolve, how to fix it.`
 */
export interface MalformedPolicy {
  readonly name: string;
  /** File contents; a function when the case is about the file itself (a folder, a link). */
  readonly content: string | Uint8Array | ((path: string) => Promise<void>);
  readonly expected: string;
}

const latin1 = (text: string): Uint8Array => Uint8Array.from([...text].map((c) => c.charCodeAt(0)));

const aliasBomb = [
  'version: 1',
  'a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x"]',
  'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]',
  'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]',
  'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]',
  'e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]',
  '',
].join('\n');

const TAG_HINT =
  'remove the tag and write the value itself: 1 for a number, "1" for text, true or false for a switch.';

/** Every form of YAML tag, including the core schema's own: [case, file, line:column, tag]. */
const TAGGED_VALUES: readonly (readonly [string, string, string, string])[] = [
  ['include tag', 'version: 1\nbudgets: !include budgets.yaml\n', '2:10', '!include'],
  ['int tag on a quoted version', 'version: !!int "1"\n', '1:10', '!!int'],
  ['str tag', 'version: 1\nproject:\n  name: !!str 2024\n', '3:9', '!!str'],
  ['float tag', 'version: 1\nbudgets:\n  change:\n    warn: !!float 80\n', '4:11', '!!float'],
  ['bool tag', 'version: 1\nsimplification:\n  enabled: !!bool true\n', '3:12', '!!bool'],
  ['null tag', 'version: 1\nproject:\n  name: !!null\n', '3:9', '!!null'],
  ['non-specific tag', 'version: 1\nbudgets:\n  core_files: ! 10\n', '3:15', '!'],
  ['verbatim tag', 'version: !<tag:yaml.org,2002:int> "1"\n', '1:10', '!<tag:yaml.org,2002:int>'],
  ['map tag on a section', 'version: 1\nbudgets: !!map\n  core_files: 3\n', '2:10', '!!map'],
  ['binary tag', 'version: 1\nproject:\n  name: !!binary aGk=\n', '3:9', '!!binary'],
  [
    'tag from a %TAG directive',
    '%TAG !e! tag:example.com,2000:\n---\nversion: !e!one 1\n',
    '3:10',
    '!e!one',
  ],
];

/**
 * Plain values YAML 1.1 reads otherwise, where that matters: [case, file, line:column, message,
 * hint]. Where only YAML 1.2's reading fits the setting the value is unambiguous and accepted
 * (parse-policy.test.ts); where it does not fit, the schema refuses it, as before.
 */
const YAML_11_VALUES: readonly (readonly [string, string, string, string, string])[] = [
  [
    'leading-zero number',
    'version: 1\nbudgets:\n  core_files: 017\n',
    '3:15',
    '017 reads as 17 in YAML 1.2, the version AUREUS reads, but as 15 in YAML 1.1, which other tools may read.',
    'write 17 or 15, whichever is meant.',
  ],
  [
    'yes for a switch',
    'version: 1\nsimplification:\n  enabled: yes\n',
    '3:12',
    'simplification.enabled must be true or false, not "yes".',
    'write true or false, for example true (the default).',
  ],
  [
    'a %YAML 1.1 directive does not make on a switch',
    '%YAML 1.1\n---\nversion: 1\nsimplification:\n  enabled: on\n',
    '5:12',
    'simplification.enabled must be true or false, not "on".',
    'write true or false, for example true (the default).',
  ],
  [
    'digit separators',
    'version: 1\nbudgets:\n  core_loc:\n    hard: 10_000\n',
    '4:11',
    'budgets.core_loc.hard must be a whole number, not "10_000".',
    'write a whole number, for example 8000 (the default).',
  ],
];

/** Numbers JavaScript cannot hold as written: [case, file, line:column, message, hint]. */
const INEXACT_NUMBERS: readonly (readonly [string, string, string, string, string])[] = [
  [
    'number past 2^53',
    'version: 1\nbudgets:\n  core_files: 9007199254740993\n',
    '3:15',
    '9007199254740993 is too large to be read exactly: numbers beyond ±9007199254740991 (2^53 − 1) are rounded, and this one would read as 9007199254740992.',
    'write a smaller number; no policy setting needs one this large.',
  ],
  [
    'version past 2^53',
    'version: 9007199254740993\n',
    '1:10',
    '9007199254740993 is too large to be read exactly: numbers beyond ±9007199254740991 (2^53 − 1) are rounded, and this one would read as 9007199254740992.',
    'write a smaller number; no policy setting needs one this large.',
  ],
  [
    'negative zero',
    'version: 1\nbudgets:\n  new_dependencies: -0\n',
    '3:21',
    '-0 is a negative zero.',
    'write 0.',
  ],
  [
    'not a number',
    'version: 1\nbudgets:\n  change:\n    block: .nan\n',
    '4:12',
    '.nan is not a finite number (YAML reads it as NaN).',
    'write a plain number, for example 25.',
  ],
  [
    'infinity',
    'version: 1\nbudgets:\n  core_loc:\n    hard: .inf\n',
    '4:11',
    '.inf is not a finite number (YAML reads it as Infinity).',
    'write a plain number, for example 25.',
  ],
];

/**
 * Globs picomatch cannot compile as written, one in each glob setting, and a negated glob,
 * which picomatch compiles to its opposite:
 * [case, file, line:column, message, hint].
 */
const BROKEN_GLOBS: readonly (readonly [string, string, string, string, string])[] = [
  [
    'unclosed bracket in paths.core',
    'version: 1\npaths:\n  core: [lib/**, "src/[a-"]\n',
    '3:18',
    'paths.core[1] is not a valid glob: "src/[a-" opens a "[" that is never closed.',
    'close it (for example src/[a-z]/**), or write [[] to match a literal "[".',
  ],
  [
    'unclosed brace in paths.ignore',
    'version: 1\npaths:\n  ignore:\n    - "{dist,build/**"\n',
    '4:7',
    'paths.ignore[0] is not a valid glob: "{dist,build/**" opens a "{" that is never closed.',
    'close it (for example {dist,build}/**), or write [{] to match a literal "{".',
  ],
  [
    'unclosed parenthesis in paths.tests',
    'version: 1\npaths:\n  tests: ["test/**/*.@(ts|js"]\n',
    '3:11',
    'paths.tests[0] is not a valid glob: "test/**/*.@(ts|js" opens a "(" that is never closed.',
    'close it (for example *.@(ts|js)), or write [(] to match a literal "(".',
  ],
  [
    'backwards range in paths.generated',
    'version: 1\npaths:\n  generated: ["gen/[z-a]/**"]\n',
    '3:15',
    'paths.generated[0] is not a valid glob: "gen/[z-a]/**" cannot be compiled (range out of order in character class).',
    'write ranges from low to high (for example [a-z]) and check its brackets and braces.',
  ],
  [
    'stray closing bracket in adapter_globs',
    'version: 1\nforbidden_patterns:\n  oversized_adapter:\n    adapter_globs: ["src/adapters]/**"]\n',
    '4:21',
    'forbidden_patterns.oversized_adapter.adapter_globs[0] is not a valid glob: "src/adapters]/**" closes a "]" that was never opened.',
    'remove it, or write []] to match a literal "]".',
  ],
  [
    'negated glob in paths.ignore',
    'version: 1\npaths:\n  ignore: [dist/**, "!dist/keep/**"]\n',
    '3:21',
    'paths.ignore[1] is a negated glob: "!dist/keep/**" matches every file outside "dist/keep/**", since a file is matched when any glob of the list matches it; globs here cannot exclude files.',
    'list only the files to match (for example dist/**), or exclude a folder inside one glob with an extglob (for example dist/!(keep)/**).',
  ],
  [
    'unclosed bracket in protected_paths',
    'version: 1\npermissions:\n  protected_paths: [".github/**", ".aureus/[**"]\n',
    '3:35',
    'permissions.protected_paths[1] is not a valid glob: ".aureus/[**" opens a "[" that is never closed.',
    'close it (for example src/[a-z]/**), or write [[] to match a literal "[".',
  ],
];

export const MALFORMED_POLICIES: readonly MalformedPolicy[] = [
  {
    name: 'empty file',
    content: '',
    expected:
      '.aureus/policy.yaml:1:1: the policy file is empty. To resolve, write at least "version: 1" (`aureus policy show` prints every setting with its default).',
  },
  {
    name: 'only comments',
    content: '# budgets come later\n\n# really\n',
    expected:
      '.aureus/policy.yaml:1:1: the policy file has no settings, only comments or blank lines. To resolve, write at least "version: 1" (`aureus policy show` prints every setting with its default).',
  },
  {
    name: 'a list at the top',
    content: '- version: 1\n- budgets: {}\n',
    expected:
      '.aureus/policy.yaml:1:1: the policy must be a mapping of keys such as "version: 1", not a list. To resolve, start the file with "version: 1" and write each section as "name:" with its keys indented below.',
  },
  {
    name: 'a single scalar',
    content: 'strict\n',
    expected:
      '.aureus/policy.yaml:1:1: the policy must be a mapping of keys such as "version: 1", not the single value "strict". To resolve, start the file with "version: 1" and write each section as "name:" with its keys indented below.',
  },
  {
    name: 'misaligned keys',
    content: 'version: 1\nbudgets:\n  core_files: 10\n core_modules: 3\n',
    expected:
      '.aureus/policy.yaml:4:1: all mapping items must start at the same column. To resolve, align keys of the same mapping at the same column, indenting nested keys with spaces.',
  },
  {
    name: 'tab indentation',
    content: 'version: 1\nbudgets:\n\tcore_files: 10\n',
    expected:
      '.aureus/policy.yaml:3:1: tabs are not allowed as indentation. To resolve, indent with spaces; YAML does not allow tabs for indentation.',
  },
  {
    name: 'unclosed quote',
    content: 'version: 1\nproject:\n  name: "shop\n',
    expected:
      '.aureus/policy.yaml:3:9: the quoted value that starts here is never closed. To resolve, add the missing closing character (a quote or bracket) on the value that opens it.',
  },
  {
    name: 'duplicate key',
    content: 'version: 1\nbudgets:\n  core_files: 10\n  core_files: 20\n',
    expected:
      '.aureus/policy.yaml:4:3: map keys must be unique. To resolve, keep only one entry with this key in this mapping.',
  },
  {
    name: 'two documents',
    content: 'version: 1\n---\nversion: 1\n',
    expected:
      '.aureus/policy.yaml:2:1: source contains multiple documents. To resolve, keep a single YAML document: remove the "---" separator and merge what follows it.',
  },
  ...TAGGED_VALUES.map(([name, content, at, tag]) => ({
    name,
    content,
    expected: `.aureus/policy.yaml:${at}: the tag ${tag} is not allowed: a policy is plain YAML, where a value means what it says. To resolve, ${TAG_HINT}`,
  })),
  {
    name: 'alias bomb',
    content: aliasBomb,
    expected:
      '.aureus/policy.yaml:3:8: the policy expands to more than 100 aliased nodes (an alias bomb). To resolve, write the values out instead of nesting aliases (*name) of aliases.',
  },
  {
    name: 'undefined alias',
    content: 'version: 1\npaths:\n  core: *core\n',
    expected:
      '.aureus/policy.yaml:3:9: this alias refers to an anchor that is not defined before it. To resolve, define the anchor (&name) before the alias (*name), or write the value out.',
  },
  {
    name: 'missing version',
    content: 'budgets:\n  core_files: 10\n',
    expected:
      '.aureus/policy.yaml:1:1: the policy has no "version". To resolve, add "version: 1" as the first line.',
  },
  {
    name: 'quoted version',
    content: 'version: "1"\n',
    expected:
      '.aureus/policy.yaml:1:10: version must be a whole number, not "1". To resolve, write "version: 1" (without quotes).',
  },
  {
    name: 'newer version',
    content: 'version: 7\n',
    expected:
      '.aureus/policy.yaml:1:10: this policy is written for policy format version 7, and this AUREUS reads versions up to 1. To resolve, install a newer AUREUS (from its repository, as you installed this one), or write the policy in a version it reads.',
  },
  {
    name: 'version zero',
    content: 'version: 0\n',
    expected:
      '.aureus/policy.yaml:1:10: policy format version 0 does not exist; the first is version 1. To resolve, write "version: 1".',
  },
  {
    name: 'misspelt section',
    content: 'version: 1\nbudgts:\n  core_files: 10\n',
    expected:
      '.aureus/policy.yaml:2:1: unknown key "budgts" at the top level. To resolve, rename it to "budgets", the nearest key allowed there.',
  },
  {
    name: 'misspelt nested key',
    content: 'version: 1\nbudgets:\n  core_fils: 10\n',
    expected:
      '.aureus/policy.yaml:3:3: unknown key "core_fils" in budgets. To resolve, rename it to "core_files", the nearest key allowed there.',
  },
  {
    name: 'key at the wrong level',
    content: 'version: 1\ncore_files: 10\n',
    expected:
      '.aureus/policy.yaml:2:1: "core_files" does not belong at the top level. To resolve, move it under budgets.',
  },
  {
    name: 'remote extends',
    content: 'version: 1\nextends: attacker/repo\n',
    expected:
      '.aureus/policy.yaml:2:1: "extends" is not supported: a policy never loads settings from another file or repository. To resolve, copy the settings you need into this file and remove "extends".',
  },
  {
    name: 'text for a number',
    content: 'version: 1\nbudgets:\n  core_files: many\n',
    expected:
      '.aureus/policy.yaml:3:15: budgets.core_files must be a whole number, not "many". To resolve, write a whole number, for example 25 (the default).',
  },
  {
    name: 'fraction for a whole number',
    content: 'version: 1\nbudgets:\n  core_modules: 2.5\n',
    expected:
      '.aureus/policy.yaml:3:17: budgets.core_modules must be a whole number, not 2.5. To resolve, write a whole number, for example 6 (the default).',
  },
  {
    name: 'negative budget',
    content: 'version: 1\nbudgets:\n  new_dependencies: -1\n',
    expected:
      '.aureus/policy.yaml:3:21: budgets.new_dependencies must be at least 0, not -1. To resolve, use a value in the allowed range (most new direct dependencies a single change may add).',
  },
  {
    name: 'misspelt severity',
    content: 'version: 1\nforbidden_patterns:\n  god_class:\n    severity: eror\n',
    expected:
      '.aureus/policy.yaml:4:15: forbidden_patterns.god_class.severity must be one of error, warn, off; "eror" is not. To resolve, write "error".',
  },
  {
    name: 'unknown pattern id',
    content: 'version: 1\nforbidden_patterns:\n  god_clas:\n    severity: warn\n',
    expected:
      '.aureus/policy.yaml:3:3: unknown key "god_clas" in forbidden_patterns. To resolve, rename it to "god_class", the nearest key allowed there.',
  },
  {
    name: 'empty section',
    content: 'version: 1\nbudgets:\npaths:\n  core: [lib/**]\n',
    expected:
      '.aureus/policy.yaml:2:1: budgets must be a mapping of keys, not empty. To resolve, write its keys indented below it, or delete the line to use the defaults.',
  },
  {
    name: 'warn above block',
    content: 'version: 1\nbudgets:\n  change:\n    block: 100\n',
    expected:
      '.aureus/policy.yaml:4:12: budgets.change.warn (400, the default) is above budgets.change.block (100). To resolve, make budgets.change.warn at most budgets.change.block, or raise budgets.change.block.',
  },
  {
    name: 'target above hard',
    content: 'version: 1\nbudgets:\n  core_loc:\n    target: 9000\n    hard: 8000\n',
    expected:
      '.aureus/policy.yaml:4:13: budgets.core_loc.target (9000) is above budgets.core_loc.hard (8000). To resolve, make budgets.core_loc.target at most budgets.core_loc.hard, or raise budgets.core_loc.hard.',
  },
  {
    name: 'ratio above one',
    content: 'version: 1\nsimplification:\n  target_reduction: 1.5\n',
    expected:
      ".aureus/policy.yaml:3:21: simplification.target_reduction must be at most 1, not 1.5. To resolve, use a value in the allowed range (fraction of the change's complexity reflexion aims to remove).",
  },
  {
    name: 'absolute glob',
    content: 'version: 1\npaths:\n  core:\n    - src/**\n    - /etc/**\n',
    expected:
      '.aureus/policy.yaml:5:7: paths.core[1] must be a glob relative to the repository root, not "/etc/**". To resolve, write the glob relative to the repository root, with / as separator and no leading /, for example src/**.',
  },
  {
    name: 'repeated glob',
    content: 'version: 1\npaths:\n  tests: [test/**, test/**]\n',
    expected:
      '.aureus/policy.yaml:3:20: paths.tests lists the same entry twice (items 1 and 2). To resolve, remove the repeated entry.',
  },
  {
    name: 'non-http base url',
    content: 'version: 1\nmodel_provider:\n  base_url: file:///etc/passwd\n',
    expected:
      '.aureus/policy.yaml:3:13: model_provider.base_url must be an http(s) URL or empty, not "file:///etc/passwd". To resolve, write an http:// or https:// URL, or "" to use the provider\'s own.',
  },
  {
    name: 'tier out of range',
    content: 'version: 1\npermissions:\n  max_tier: 4\n',
    expected:
      ".aureus/policy.yaml:3:13: permissions.max_tier must be at most 3, not 4. To resolve, use a value in the allowed range (highest tier the builder may use without a maintainer's approval).",
  },
  {
    name: 'api key instead of its variable',
    content: 'version: 1\nmodel_provider:\n  api_key_env: sk-ant-123\n',
    expected:
      '.aureus/policy.yaml:3:16: model_provider.api_key_env must be an environment variable name, not "sk-ant-123". To resolve, write the name of an environment variable in capitals, for example ANTHROPIC_API_KEY.',
  },
  {
    name: 'merge key',
    content: 'version: 1\n<<: {budgets: {}}\n',
    expected:
      '.aureus/policy.yaml:2:1: unknown key "<<" at the top level. To resolve, remove it; the keys allowed at the top level are: version, project, budgets, forbidden_patterns, modules, pricing, permissions, cost_thresholds, simplification, model_provider, integrations, memory, learning, paths.',
  },
  {
    name: 'latin-1 bytes',
    content: latin1('version: 1\nproject:\n  name: caf\u00e9\n'),
    expected:
      '.aureus/policy.yaml:3:12: byte 0xe9 is not valid UTF-8. To resolve, save the file as UTF-8 (it looks like Latin-1 or another legacy encoding).',
  },
  {
    name: 'NUL byte',
    content: 'version: 1\nproject:\n  name: a\u0000b\n',
    expected:
      '.aureus/policy.yaml:3:10: the policy file contains a NUL byte, so it is binary, not YAML. To resolve, check that the path names the policy and not another file, and remove the NUL byte.',
  },
  {
    name: 'UTF-16 file',
    content: Uint8Array.from([0xff, 0xfe, 0x76, 0x00, 0x3a, 0x00]),
    expected:
      '.aureus/policy.yaml:1:1: the policy file is encoded as UTF-16. To resolve, save it as UTF-8.',
  },
  {
    name: 'huge file',
    content: `version: 1\n${'# padding\n'.repeat(30_000)}`,
    expected:
      '.aureus/policy.yaml:1:1: the policy file is 293 KiB; a policy may be at most 256 KiB. To resolve, keep only settings in it (no data or generated content), or check that the path names the right file.',
  },
  {
    name: 'a directory',
    content: async (path) => {
      const { mkdir } = await import('node:fs/promises');
      await mkdir(path);
    },
    expected:
      '.aureus/policy.yaml:1:1: the policy path is a directory, not a file. To resolve, remove the directory and write the policy as a file at .aureus/policy.yaml.',
  },
  {
    name: 'a symlink to a secret',
    content: async (path) => {
      const { symlink } = await import('node:fs/promises');
      await symlink('/proc/self/environ', path);
    },
    expected:
      '.aureus/policy.yaml:1:1: the policy path is a symlink (mode 120000); AUREUS never follows links for its policy. To resolve, commit the policy as a regular file in place of the link.',
  },
  {
    name: 'trailing backslash in a glob',
    content: 'version: 1\npaths:\n  core: ["src\\\\"]\n',
    expected:
      '.aureus/policy.yaml:3:10: paths.core[0] must be a glob relative to the repository root, not "src\\\\". To resolve, write the glob relative to the repository root, with / as separator and no leading /, for example src/**.',
  },
  {
    name: 'module rule naming an undefined module',
    content:
      'version: 1\nmodules:\n  ui: { paths: ["src/ui/**"], may_import: [domian] }\n  domain: { paths: ["src/domain/**"] }\n',
    expected:
      '.aureus/policy.yaml:3:44: modules.ui.may_import names "domian", which is not a module of this policy (modules: ui, domain). To resolve, write "domain", or define modules.domian with its paths.',
  },
  {
    name: 'module with both an allow list and a deny list',
    content:
      'version: 1\nmodules:\n  ui: { paths: ["src/ui/**"], may_import: [db], may_not_import: [db] }\n  db: { paths: ["src/db/**"] }\n',
    expected:
      '.aureus/policy.yaml:3:65: modules.ui gives both may_import and may_not_import; a module has an allow list or a deny list, not both. To resolve, keep may_import (the only modules it may use) or may_not_import (the modules it must not use), and delete the other.',
  },
  {
    name: 'module without paths',
    content: 'version: 1\nmodules:\n  ui: { paths: [] }\n',
    expected:
      '.aureus/policy.yaml:3:16: modules.ui.paths must have at least 1 entries. To resolve, add entries (globs of the files the module holds; a file may belong to one module only).',
  },
  {
    name: 'a file in two modules',
    content: 'version: 1\nmodules:\n  app: { paths: ["src/**"] }\n  ui: { paths: ["src/ui/**"] }\n',
    expected:
      '.aureus/policy.yaml:4:17: modules.ui.paths "src/ui/**" and modules.app.paths "src/**" take the same files; a file may belong to one module only. To resolve, narrow the globs so that no file matches both (a module\'s glob may not hold another module\'s folder), or merge app and ui.',
  },
  {
    name: 'module forbidding itself',
    content: 'version: 1\nmodules:\n  ui: { paths: ["src/ui/**"], may_not_import: [ui] }\n',
    expected:
      '.aureus/policy.yaml:3:48: modules.ui.may_not_import names ui itself; imports inside a module are always allowed. To resolve, remove ui from the list.',
  },
  {
    name: 'module name with a space',
    content: 'version: 1\nmodules:\n  "ui layer": { paths: ["src/ui/**"] }\n',
    expected:
      '.aureus/policy.yaml:3:3: modules has the name "ui layer", which is not allowed. To resolve, rename it (a module\'s name: letters, digits, `_`, `-`, `.` and `/`).',
  },
  {
    name: 'misspelt module key',
    content: 'version: 1\nmodules:\n  ui: { paths: ["src/ui/**"], may_imports: [] }\n',
    expected:
      '.aureus/policy.yaml:3:31: unknown key "may_imports" in modules.ui. To resolve, rename it to "may_import", the nearest key allowed there.',
  },
  ...YAML_11_VALUES.map(([name, content, at, message, hint]) => ({
    name,
    content,
    expected: `.aureus/policy.yaml:${at}: ${message} To resolve, ${hint}`,
  })),
  ...INEXACT_NUMBERS.map(([name, content, at, message, hint]) => ({
    name,
    content,
    expected: `.aureus/policy.yaml:${at}: ${message} To resolve, ${hint}`,
  })),
  ...BROKEN_GLOBS.map(([name, content, at, message, hint]) => ({
    name,
    content,
    expected: `.aureus/policy.yaml:${at}: ${message} To resolve, ${hint}`,
  })),
];
