export const MAIN_HELP = `aureus — keeps a codebase inside explicit complexity budgets

Usage: aureus <command> [options]

Checks:
  aureus check                    price and critique a change; the verdict by the base commit's policy
  aureus price                    the cost of a change alone
  aureus baseline                 record today's findings so only new ones block

Policy (.aureus/policy.yaml):
  aureus policy validate [FILE]   check a policy file; every problem as file:line:col with a fix
  aureus policy show              the effective policy, defaults filled in, each key explained

Analysis:
  aureus analyze                  facts, import graph, cycles and modules of the whole repository

Ledger (.aureus/local/ledger.jsonl, one checksummed, hash-chained entry per evaluated change):
  aureus ledger show              list the entries
  aureus ledger verify            check every line's checksum and the chain between lines

Options:
  --repo DIR       repository to work on (default: the one containing the current folder)
  --policy FILE    policy file to use instead of .aureus/policy.yaml
  --format FORMAT  output format: text (default) or json; yaml for \`policy show\`
  --debug          show stack traces of errors
  -h, --help       show help (also after a command: aureus policy --help)
  -v, --version    print the version

Exit codes: 0 pass · 1 the policy (or the ledger check) says no · 2 AUREUS could not decide
(configuration, usage or environment error; the message says how to fix it).
`;

export const POLICY_HELP = `Usage:
  aureus policy validate [FILE] [--repo DIR] [--format text|json]
      Validate FILE (default: .aureus/policy.yaml of the repository). Exit 0 when valid,
      2 with every problem as FILE:LINE:COL: what is wrong. To resolve, …
  aureus policy show [--policy FILE] [--repo DIR] [--format yaml|json]
      Print the effective policy: the file with every omitted key set to its default
      (the built-in default policy when the repository has none).
`;

export const LEDGER_HELP = `Usage:
  aureus ledger show [--file FILE] [--repo DIR] [--format text|json]
      List the ledger's entries; damaged lines are reported on stderr and skipped.
  aureus ledger verify [--file FILE] [--repo DIR] [--format text|json]
      Check every line's checksum and the hash chain. Exit 0 when intact, 1 when a line is
      torn, edited, deleted or reordered.
`;

export const ANALYZE_HELP = `Usage:
  aureus analyze [--ref REF] [--parser auto|typescript|tree-sitter] [--format text|json] [--facts]
      Analyse every tracked source file (TypeScript, TSX, JavaScript, Python, Go, Java) of the
      working tree, or of commit REF: facts per file (cached by git blob id under
      .aureus/local/cache, so unchanged files are never parsed twice), the import graph, its
      cycles (strongly connected components; type-only imports count only when the policy's
      circular_dependency.count_type_only_imports says so), the modules under paths.core,
      the implementations of every interface and abstract class across files, and each
      class's inheritance depth. --facts adds every file's facts to the JSON output.
      Exit 0 whatever it finds.
`;

export const CHECK_HELP = `Usage:
  aureus check [--staged | --base REF [--head REF] [--three-dot] | --commit REF]
               [--format text|json|markdown|sarif] [--output FILE] [--policy FILE]
               [--override REASON]
      Price the change (lines, dependencies, abstractions, security surface, files,
      modules), run the forbidden-pattern critic at its base and its head (findings
      present at the base are baseline and never block), and judge it by the policy
      committed at the base. Without a flag: the working tree's tracked files
      against HEAD (as git diff HEAD; git add new files first).
      Exit 0 pass or warn, 1 block (over budget or a new error finding), 2 incomplete
      or an error. Each check is appended to .aureus/local/ledger.jsonl; --override REASON
      lets a blocked change through locally (exit 0) and records who (git's author identity)
      and why. Local checks are advisory: the check in CI or the App is the gate.
  aureus check --all [--format …] [--output FILE] [--policy FILE]
      The whole working tree, judged by its policy against .aureus/baseline.json: findings
      the baseline knows are reported and block only if they grew.
  aureus baseline [--policy FILE]
      Record the working tree's current findings in .aureus/baseline.json, so that a legacy
      repository adopts the gate without a big-bang cleanup. Commit the file.
  aureus price [same change options] [--format text|json]
      The cost breakdown of the change alone.
`;
