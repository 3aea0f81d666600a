export const MAIN_HELP = `aureus — keeps a codebase inside explicit complexity budgets

Usage: aureus <command> [options]

Checks:
  aureus check                    price and critique a change; the verdict by the base commit's policy
  aureus price                    the cost of a change alone
  aureus baseline                 record today's findings so only new ones block

Policy (.aureus/policy.yaml):
  aureus init                     survey the repository and write a policy sized to it, with reasons
  aureus policy validate [FILE]   check a policy file; every problem as file:line:col with a fix
  aureus policy show              the effective policy, defaults filled in, each key explained
  aureus learn                    a policy change learned from the ledgers and the history, with
                                  the evidence of every line; never applied

Analysis:
  aureus analyze                  facts, import graph, cycles and modules of the whole repository
  aureus simplify                 verified simplification patches (reflexion); --apply writes them
  aureus implement "TASK"         the builder: a gated model run on a new aureus/ branch, never pushed

Git hooks (advisory: git commit --no-verify skips them; the CI check is the gate):
  aureus hooks install [pre-push] [commit-msg]
                                  add AUREUS to the pre-commit hook (husky in a node project)
  aureus hooks uninstall          take AUREUS's lines out of the hook scripts
  aureus hook pre-commit          what the pre-commit hook runs: the staged change's verdict

GitHub App (every pull request of every installed repository, /aureus commands):
  aureus serve                    serve the App's webhooks; settings from the environment

Ledger (.aureus/local/ledger.jsonl, one checksummed, hash-chained entry per evaluated change):
  aureus ledger show              list the entries
  aureus ledger query             the entries that match filters (kind, actor, verdict, rule, dates)
  aureus ledger verify            check every line's checksum and the chain between lines
  aureus ledger compact           replace entries past memory.*_retention_days by one summary line
  aureus ledger restore           bring a damaged ledger back from its backup
  aureus report                   a dashboard of one or several ledgers: one HTML page, or JSON

Memory (.aureus/, from the ledgers; output for people, never read back for a verdict):
  aureus memory patterns          each rule's violations, overrides and fixes by week
  aureus memory adr               an ADR proposed for each architectural change without one

Options:
  --repo DIR       repository to work on (default: the one containing the current folder)
  --policy FILE    policy file to use instead of .aureus/policy.yaml
  --format FORMAT  output format: text (default; yaml for \`policy show\`), json, and the others
                   a command's --help lists; any other is refused
  --debug          show stack traces of errors
  -h, --help       show help (also after a command: aureus policy --help)
  -v, --version    print the version

Environment:
  AUREUS_CACHE_DIR  the folder of AUREUS's caches (facts by git blob id, parsed policies,
                    import answers, compiled code), or off; default ~/.cache/aureus on Linux,
                    ~/Library/Caches/aureus on macOS, %LOCALAPPDATA%\\aureus\\Cache on Windows.
                    Never inside the repository (a checkout could carry entries of its own):
                    one there is not used. Only a folder of yours that no one else may write.
  AUREUS_CODE_CACHE the compiled code's folder alone, or off (default: code/ in the above)

Exit codes: 0 pass · 1 the policy (or the ledger check) says no · 2 AUREUS could not decide
(configuration, usage or environment error; the message says how to fix it).
`;

/** One help of several commands (`aureus policy --help`): their usages, then shared notes. */
export function usage(...parts: readonly string[]): string {
  return `Usage:\n${parts.join('')}`;
}

export const POLICY_VALIDATE_USAGE = `  aureus policy validate [FILE] [--repo DIR] [--format text|json]
      Validate FILE (default: .aureus/policy.yaml of the repository). Exit 0 when valid,
      2 with every problem as FILE:LINE:COL: what is wrong. To resolve, …
`;

export const MEMORY_PATTERNS_USAGE = `  aureus memory patterns [--shared] [--file F]... [--write] [--repo DIR] [--format text|json]
      The patterns registry, from the local ledger (also the CI's with --shared, each App
      ledger named with --file): per rule and week, the checks with new or worsened findings of it, the
      overrides (who, why, when) and the fixes (a finding a check had and the next check of
      the same line of history, based on its commit, no longer has). Data points older than
      memory.patterns_retention_days are left out. --write also writes .aureus/patterns.json.
`;

export const MEMORY_ADR_USAGE = `  aureus memory adr [--shared] [--file F]... [--write] [--repo DIR] [--format text|json]
      An architecture decision record proposed for each change of the ledgers (read as
      above) that added a dependency or a core module, let an abstraction through by an
      override or changed the policy, and that no file of .aureus/decisions/ names by its ledger hash; numbered after
      the highest there. --write creates them, never replacing a file.
`;

export const POLICY_SHOW_USAGE = `  aureus policy show [--policy FILE] [--repo DIR] [--format yaml|json]
      Print the effective policy: the file with every omitted key set to its default
      (the built-in default policy when the repository has none).
`;

export const SERVE_HELP = `Usage:
  aureus serve
      Serve the AUREUS GitHub App: check runs, the sticky ledger comment and /aureus commands
      on every pull request and merge queue of the repositories it is installed on. Read from
      the environment:
        APP_ID                      the App's id (required)
        PRIVATE_KEY | PRIVATE_KEY_PATH
                                    its private key, PEM or base64 of it (one is required)
        WEBHOOK_SECRET              the webhook secret (required; in production not
                                    'development' and at least 16 characters)
        PORT (3000), HOST, WEBHOOK_PATH (/api/github/webhooks)
        GITHUB_API_URL              https://api.github.com, or a GitHub Enterprise Server URL
        GHE_HOST, GHE_PROTOCOL      probot's own Enterprise settings: <protocol>://<host>/api/v3
        AUREUS_DATA_DIR (.aureus-app) the App's caches (in cache/) and ledger
        AUREUS_CONCURRENCY (2)      evaluations at once, across repositories
        LOG_LEVEL (info), LOG_FORMAT (json in production, else pretty)
      GET /healthz answers 200. Stops on SIGINT or SIGTERM after the queued evaluations.
`;

export const LEDGER_SHOW_USAGE = `  aureus ledger show [--file FILE | --shared [--remote NAME]] [--repo DIR] [--format text|json]
      List the ledger's entries; damaged lines are reported on stderr and skipped.
      --shared reads the repository's shared ledger instead of this machine's: the
      aureus-ledger branch the AUREUS Action writes on pushes to the default branch (one
      checksummed file per judged commit, and the summary of those its retention replaced),
      fetched from NAME (default origin).
`;

export const LEDGER_QUERY_USAGE = `  aureus ledger query [--file FILE | --shared [--remote NAME]] [--repo DIR] [--format text|json]
                      [--kind K] [--actor A] [--issue N] [--verdict V] [--rule R]
                      [--since DATE] [--until DATE] [--overridden]
      The entries of the ledger (chosen as for ledger show) that match every filter given,
      as ledger show's table (json: each matching line's number, at, hash and record), then
      how many matched.
      --kind K        the record's kind, exactly: check, commit, simplify, builder-run,
                      builder-trigger, builder-cancel, or one a newer AUREUS writes
      --actor A       a person the record names (who overrode, who approved a budget or a
                      policy loosening, who requested or cancelled a builder run), as a
                      case-insensitive part of the name; builder-run records name no one
      --issue N       the issue of a builder-trigger or builder-cancel entry
      --verdict V     pass, warn, block or incomplete
      --rule R        a check whose reasons name rule R for a finding ("new R: …",
                      "worsened R (warning): …"), the rule id exactly (god_class); the
                      blocking fingerprints are hashes and do not name their rule. A record
                      that kept only its first reasons is counted apart, not as a non-match
      --since DATE    the line was written at or after DATE; --until DATE: at or before it.
                      An ISO 8601 date (the whole day) or date-time, UTC unless an offset
                      is given: 2026-11-21, 2026-11-21T14:30, 2026-11-21T14:30:00+02:00
      --overridden    only entries let through by an override or a policy approval
      A ledger that does not verify (a line torn, edited, deleted or reordered, or shorter than
      its anchor) is said first, before the answer, and the query exits 1, as ledger verify
      does: its damaged lines are left out of the answer. Exit 0 otherwise, matches or none.
`;

export const LEDGER_VERIFY_USAGE = `  aureus ledger verify [--file FILE [--anchor MARKER] | --shared [--remote NAME]] [--repo DIR]
                       [--format text|json]
      Check every line's checksum and the hash chain (for --shared: every entry's checksum
      and that it sits in the file of its own commit). Exit 0 when intact, 1 when a line is
      torn, edited, deleted or reordered.
      --anchor checks the App's ledger FILE against the anchor one of its check runs carries
      (the marker <!-- aureus:ledger-anchor LINES:HASH --> in the check run's text, or
      LINES:HASH) instead of the anchor beside FILE: exit 1 when FILE is missing, shorter, or
      has another hash at that line.
`;

export const LEDGER_COMPACT_USAGE = `  aureus ledger compact [--file FILE] [--policy FILE] [--repo DIR] [--format text|json]
      Replace the entries older than the retention by one summary line (how many, their
      first and last times, totals per kind and verdict, the hash of the last one replaced),
      so that ledger verify still verifies the whole chain and its anchor. The retention is
      memory.history_retention_days for this machine's ledger, memory.ledger_retention_days
      for the App's (--file); 0 keeps every entry. Appends compact on their own once the
      oldest entry is a day past it. The ledger is first copied to <ledger>.bak-<time> beside
      it (the last 3 kept); a ledger that does not verify is refused (exit 2).
`;

export const LEDGER_RESTORE_USAGE = `  aureus ledger restore [--file FILE] [--from BACKUP] [--repo DIR] [--format text|json]
      Replace a damaged ledger with a backup that verifies (--from, else the newest), then
      keep the lines appended after that backup as they were while each still verifies and
      links to the one before; every other is listed as lost (exit 1). The anchor is set to
      the restored ledger.
`;

export const ANALYZE_HELP = `Usage:
  aureus analyze [--ref REF] [--parser auto|oxc|typescript] [--format text|json] [--facts]
      Analyse every tracked source file (TypeScript, TSX, JavaScript, Python, Go, Java) of the
      working tree, or of commit REF: facts per file (cached by git blob id in AUREUS's cache
      folder, see AUREUS_CACHE_DIR in aureus --help, so unchanged files are never parsed
      twice), the import graph, its cycles (strongly connected components; imports TypeScript's emit
      erases count only when the policy's circular_dependency.count_type_only_imports says so), the
      modules under paths.core, the implementations of every interface and abstract class
      across files, and each class's inheritance depth. --facts adds every file's facts to
      the JSON output.
      --parser picks what reads TypeScript and JavaScript (auto: oxc where its binary
      loads, else TypeScript's own parser); Python, Go and Java are read by tree-sitter.
      Exit 0 whatever it finds.
`;

export const SIMPLIFY_HELP = `Usage:
  aureus simplify [--changed] [--apply [--test]] [--format text|diff|json]
      Reflexion: the deterministic simplification passes over the working tree's TypeScript
      and JavaScript (test, ignored and generated files excepted; --changed: only the files
      changed since HEAD), as many as simplification.aggressiveness allows. A patch is shown
      only once verified: it applies cleanly (git apply --check), adds no type error to the
      files it edits or the files importing them, and the same pricing as aureus check
      charges it less than nothing. Dropped proposals are listed with the check they failed.
      --apply writes the verified patches (two that edit one file: the first, then run again);
      --test also runs project.stack.test_command after each one and takes it back out if
      the tests fail. Each run's metrics (lines and abstractions removed, complexity before
      and after against simplification.target_reduction) go to the ledger.
      Exit 0, also when nothing is found.
`;

export const LEARN_HELP = `Usage:
  aureus learn [--since DAYS] [--shared [--remote NAME]] [--file FILE]
               [--format text|json|yaml-patch] [--output FILE]
      Propose a change to .aureus/policy.yaml learned from the ledgers (the local one; with
      --shared also the CI's, with --file also the App's) and the first-parent git history,
      printed as a unified diff with the evidence of every changed line: which ledger lines,
      who overrode, why, when. It never writes the policy: a policy change needs a maintainer.
        relaxation   a rule (error → warn) or the change budget (to the dearest change let
                     through) overridden learning.relax_after_overrides times in the window
        tightening   a rule at warn that fired in none of at least learning.min_changes checks
        budget       budgets.change from the learning.budget_percentiles of the team's costs,
                     proposed when no change used more than half of today's budget
        calibration  pricing weights fitted (never negative, at most learning.max_weight_factor
                     times today's) to each commit's actual cost: its estimate plus its lines
                     rewritten or reverted within learning.rework_days; fitted on the earlier
                     70 % of the checked commits, the mean absolute error before and after shown
                     on the later 30 %, and proposed only when it is lower
      --since DAYS    days of ledger entries to learn from (default learning.window_days)
      --output FILE   also write the proposed policy file there (never the policy itself)
      --format yaml-patch prints the diff alone (git apply takes it). Exit 0; 1 when a ledger
      does not verify (said first: its damaged lines are left out).
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
`;

export const BASELINE_HELP = `Usage:
  aureus baseline [--policy FILE]
      Record the working tree's current findings in .aureus/baseline.json, so that a legacy
      repository adopts the gate without a big-bang cleanup. Commit the file.
`;

export const REPORT_HELP = `Usage:
  aureus report [--ledger FILE]... | [--shared [--remote NAME]] [--since DATE]
                [--output FILE] [--repo DIR] [--format html|json]
      A dashboard of the ledger (this machine's, the shared one with --shared, or each
      --ledger FILE as one repository): cost per change against the budget, budget use of the
      core, findings by rule, the costliest files, overrides by rule and person, the cost
      model's prediction error and the builder's model spend. html (the default) writes one
      self-contained page (the chart library inlined, no network when viewed) to --output or
      aureus-report.html; json prints the same numbers, or writes them to --output.
      --since DATE    only entries written at or after DATE (as for ledger query)
      The output file is replaced atomically and never written through a link. Exit 0, or 1
      when a ledger does not verify (the page says which, and leaves its damaged lines out).
`;

export const PRICE_HELP = `Usage:
  aureus price [--staged | --base REF [--head REF] [--three-dot] | --commit REF]
               [--policy FILE] [--format text|json]
      The cost breakdown of the change alone, by category and by file, priced as aureus check
      prices it (json adds the budget and the new dependencies). Exit 0 whatever it costs,
      2 when the change could not be read in full.
`;

export const HOOKS_INSTALL_USAGE = `  aureus hooks install [pre-push] [commit-msg] [--repo DIR]
      Add the line \`aureus hook pre-commit\` to the pre-commit hook and \`aureus hook
      post-commit\` to post-commit, and the pre-push and commit-msg hooks when named. Each
      hook script keeps what it already runs (a lint-staged line, another tool's hook);
      AUREUS's line is added once, replaced in place on a re-run.
      In a node project (a package.json here or above, up to the git root), the scripts are
      husky's: .husky/<hook> at the git root; package.json gets husky in devDependencies and
      "prepare": "husky" (after an existing prepare script), and husky runs at once: the
      project's when it is installed, else AUREUS's own, so the next commit is checked. Run
      from a sub-package of a monorepo,
      prepare climbs to the git root (cd ../.. && husky) and the hook puts that package's
      node_modules/.bin first on the PATH. Without a package.json (or when core.hooksPath
      names a folder that is not husky's), plain scripts go where git runs hooks from:
      core.hooksPath, else .git/hooks (this clone only). They run \`aureus\` from the PATH:
      install it globally (npm install --global <an AUREUS clone>); where it is missing, they say so in
      one line and let the commit through (the CI check is the gate).
`;

export const HOOKS_UNINSTALL_USAGE = `  aureus hooks uninstall [--repo DIR]
      Take AUREUS's lines out of the hook scripts; a script left empty is deleted. husky and
      core.hooksPath stay.
`;

export const PRE_COMMIT_USAGE = `  aureus hook pre-commit [--defer-to-commit-msg]
      Judge the staged change as \`aureus check --staged\` does, by the policy of HEAD, and
      record it in .aureus/local/ledger.jsonl. Exit 0 at once when nothing is staged; 1 on
      block, printing the reasons, the cost and the cheaper alternatives in a few lines;
      2 when it could not decide. The index and the working tree are only read. Merges being
      concluded are left alone (their commits were checked on their own).
`;

export const COMMIT_MSG_USAGE = `  aureus hook commit-msg FILE
      With --defer-to-commit-msg, pre-commit lets a blocked commit go on to this hook, which
      refuses it unless the message FILE ends with the trailer "Aureus-Override: <why>".
`;

export const POST_COMMIT_USAGE = `  aureus hook post-commit
      Links the commit just made to the check of exactly its content in the local ledger
      (installed with pre-commit). Silent; it loads no analysis.
`;

export const PRE_PUSH_USAGE = `  aureus hook pre-push REMOTE [URL]
      Reads git's "<local ref> <local sha> <remote ref> <remote sha>" lines and checks each
      pushed branch from its merge base with what REMOTE has, as CI will: the remote's commit
      for a branch it has; for a new branch <remote>/HEAD, else <remote>/main, else
      <remote>/master; else the pushed commit alone. Deletions and tags are skipped. A blocked
      push whose commits carry overrides (an Aureus-Override trailer, or one recorded when they
      were committed) goes through when every other commit passes on its own.
`;

/** What every hook's help ends with: how to let a blocked change through, and how to skip. */
export const HOOK_NOTES = `
Overrides (recorded in the local ledger with who, why and how much):
  AUREUS_OVERRIDE="<why>" git commit …     lets a blocked commit (or push) through
  git commit --trailer "Aureus-Override: <why>"
                                           the same, when the commit-msg hook is installed
                                           (aureus hooks install commit-msg)
Bypass: git commit --no-verify, git push --no-verify, or HUSKY=0. The hooks are advisory;
the check in CI or the GitHub App is the gate.
`;

export const INIT_HELP = `Usage:
  aureus init [--dry-run | --yes] [--without-hooks] [--repo DIR]
  aureus init --builder --action OWNER/REPO@COMMIT [--force] [--dry-run | --yes]
      Survey the repository (manifests, tracked files and their code lines, imports, git
      history) and print what it found: project type, languages, frameworks, test runner and
      command, core and modules, layering, team size (authors of the last 90 days) and
      maturity (greenfield, growing or legacy). Then generate .aureus/policy.yaml with the
      reason for every value as a comment beside it: budgets at the design's defaults for a
      greenfield project, above today's core for a growing or legacy one; forbidden-pattern
      severities from today's findings (a pattern broken everywhere warns, none is turned
      off); security weights and protected paths from the surfaces the code touches.
      A legacy project also gets .aureus/baseline.json, so only new findings block.
  Writing:
      --yes          write without asking (scripts, CI)
      --dry-run      print the policy and the reasoning, write nothing (wins over --yes)
      neither        at a terminal: preview, then ask; without a terminal: preview, write
                     nothing and exit 2, so a script never takes "nothing written" for success
  A policy that exists is never overwritten: init prints the difference between it and what it
  would write (exit 0), or says that they are identical.
  Once the policy is written, init installs the pre-commit check as aureus hooks install does
  (husky in a node project, a plain git hook otherwise); --without-hooks leaves hooks alone.
  The builder (aureus init --builder):
      --builder      also write .github/workflows/aureus-builder.yml (plan, show-plan, act and
                     publish jobs; the dispatch inputs the App and the Action send, trigger
                     included) and set integrations.app.builder: true in the policy, editing
                     it in place with its comments kept; then print the next steps (the
                     ANTHROPIC_API_KEY secret, the builder label, the permissions)
      --action REF   the AUREUS Action the workflow runs, pinned by commit:
                     OWNER/REPO@<40-digit sha> (required with --builder)
      --force        replace a builder workflow that differs (without it, init names the
                     difference, such as a missing trigger input, and writes nothing)
  Nothing is written through a link: a .github, workflows folder, workflow or policy that is a
  link is refused.
`;

export const IMPLEMENT_HELP = `Usage:
  aureus implement "TASK" [--yes] [--format text|json]
  aureus implement --task-file TASK.md [--yes] [--format text|json]
  aureus implement --resume RUN_ID [--yes] [--format text|json]

Runs the builder on a new branch aureus/<slug>-<id> in a worktree of its own (your branch, index
and files are never touched; nothing is pushed): it reads, plans, edits, then runs
project.stack.test_command and aureus check of the whole branch, and reports what changed, the
cost against budgets.change.block, the tests, and the model's tokens and dollars.
Needs model_provider in the committed policy and its API key in the environment.
Run memory and trajectory: .aureus/local/runs/<id>/. One builder-run entry in the local ledger.

Options:
  --task-file F  read the task from a file
  --resume ID    continue a stopped run (Ctrl-C, kill -9, a refused key) from its state and its
                 files; a run cap it reached stays reached
  --yes          allow tier-2 actions (allow-listed commands, deletions) up to permissions.max_tier;
                 at a terminal, without it, each one asks first
  --format       text (default) or json

Exit codes: 0 done, 1 verification failed or the run stopped (cap, iteration bound), 2 could not run.
`;
