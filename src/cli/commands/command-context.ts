import type { CommandIo } from '../cli-io.js';

/** Options every command may receive; each command reads the ones it declares. */
export interface CliOptions {
  readonly policy?: string | undefined;
  readonly file?: string | undefined;
  /** Every --file given, where a command reads several (`memory patterns|adr`); `file` is the first. */
  readonly files?: readonly string[] | undefined;
  readonly ref?: string | undefined;
  readonly parser?: string | undefined;
  readonly facts?: boolean | undefined;
  readonly staged?: boolean | undefined;
  readonly base?: string | undefined;
  readonly head?: string | undefined;
  readonly threeDot?: boolean | undefined;
  readonly commit?: string | undefined;
  readonly output?: string | undefined;
  readonly all?: boolean | undefined;
  readonly override?: string | undefined;
  readonly dryRun?: boolean | undefined;
  readonly yes?: boolean | undefined;
  /** `ledger show|query|verify --shared`: the CI-written ledger on the aureus-ledger branch. */
  readonly shared?: boolean | undefined;
  /** `init --without-hooks`: write the policy, leave the git hooks alone. */
  readonly withoutHooks?: boolean | undefined;
  /** `init --builder`: also write the builder workflow and turn the builder on. */
  readonly builder?: boolean | undefined;
  /** `init --builder --action owner/repo@commit`: the AUREUS Action the workflow runs. */
  readonly action?: string | undefined;
  /** `init --builder --force`: replace a builder workflow that differs. */
  readonly force?: boolean | undefined;
  readonly remote?: string | undefined;
  /** `ledger verify --file F --anchor A`: the anchor an App check run carries, instead of the one beside F. */
  readonly anchor?: string | undefined;
  readonly deferToCommitMsg?: boolean | undefined;
  /** `simplify --apply`: write the verified patches. */
  readonly apply?: boolean | undefined;
  /** `simplify --apply --test`: keep a patch only if the project's tests pass with it. */
  readonly test?: boolean | undefined;
  /** `simplify --changed`: only the files the working tree changed. */
  readonly changed?: boolean | undefined;
  /** `implement --task-file F`: the task's text in a file. */
  readonly taskFile?: string | undefined;
  /** `implement --resume ID`: continue a stopped run. */
  readonly resume?: string | undefined;
  /** `ledger query`'s filters (see ledger-filter.ts). */
  readonly kind?: string | undefined;
  readonly actor?: string | undefined;
  readonly issue?: string | undefined;
  readonly verdict?: string | undefined;
  readonly rule?: string | undefined;
  readonly since?: string | undefined;
  readonly until?: string | undefined;
  readonly overridden?: boolean | undefined;
  /** `ledger restore --from BACKUP`: the backup to restore instead of the newest that verifies. */
  readonly from?: string | undefined;
  /** `report --ledger F …`: ledger files, one per repository, resolved from the working folder. */
  readonly ledgers?: readonly string[] | undefined;
  /** `memory patterns|adr --write`: write .aureus/patterns.json, or the proposed decisions. */
  readonly write?: boolean | undefined;
}

export interface CommandContext {
  readonly io: CommandIo;
  /** Repository root (the --repo folder, or the repository around the working directory). */
  readonly root: string;
  /** Arguments after the command words, e.g. the FILE of `policy validate FILE`. */
  readonly positionals: readonly string[];
  /** --format, or the command's default format. */
  readonly format: string;
  readonly options: CliOptions;
  /** AUREUS's own version, for reports. */
  readonly version: string;
}
