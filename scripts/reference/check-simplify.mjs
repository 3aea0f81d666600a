// Usage: node scripts/reference/check-simplify.mjs [name ...]   (npm run reflexion:check)
// `aureus simplify` on the real code bases of codebases.mjs, and every patch it offers checked
// again from outside, by other means than the ones it was verified with:
//   - each patch's diff, and all of them together, pass `git apply --check`;
//   - in a scratch worktree with all of them applied, TypeScript's own compiler (the package's
//     tsconfig, createProgram) reports no error that the untouched tree does not;
//   - `aureus price --staged` on that worktree prices the whole set below zero.
// Prints, per code base: files looked at, patches offered, deferred and dropped (by reason), the
// run time, and the checks; exits 1 when any check fails or simplify crashes.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AUREUS, fetchCodebases, git, prepareRepository } from './check-exactness.mjs';
import { CODEBASES } from './codebases.mjs';

const ts = createRequire(import.meta.url)('typescript');

function aureus(cwd, args) {
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, [AUREUS, ...args], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (run.status !== 0)
    throw new Error(`aureus ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  return { stdout: run.stdout, seconds };
}

function applies(repo, diff) {
  return spawnSync('git', ['apply', '--check', '-'], { cwd: repo, input: diff }).status === 0;
}

/** Error diagnostics of the project at `dir` under its tsconfig.json, as a counted multiset. */
function typeErrors(dir) {
  const configPath = join(dir, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, ts.sys.readFile).config ?? {};
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, dir);
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
  const counts = new Map();
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    if (diagnostic.category !== ts.DiagnosticCategory.Error) continue;
    const file = diagnostic.file?.fileName.slice(dir.length + 1) ?? '(project)';
    const key = `${file}: TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

function added(before, after) {
  return [...after].filter(([key, count]) => count > (before.get(key) ?? 0)).map(([key]) => key);
}

function checkCodebase(codebase) {
  const repo = prepareRepository(codebase);
  const { stdout, seconds } = aureus(repo, ['simplify', '--format', 'json']);
  const result = JSON.parse(stdout);
  const failures = [];
  for (const patch of result.patches)
    if (!applies(repo, patch.diff)) failures.push(`${patch.title}: git apply --check refuses it`);
  const together = result.patches.map((patch) => patch.diff).join('');
  let newErrors = [];
  let price = 0;
  if (result.patches.length > 0) {
    if (!applies(repo, together))
      failures.push('the patches together: git apply --check refuses them');
    const scratch = mkdtempSync(join(tmpdir(), `aureus-simplify-${codebase.name}-`));
    try {
      git(repo, ['worktree', 'add', '--quiet', '--detach', scratch]);
      const before = typeErrors(scratch);
      execFileSync('git', ['apply', '-'], { cwd: scratch, input: together });
      newErrors = added(before, typeErrors(scratch));
      for (const error of newErrors) failures.push(`new type error: ${error}`);
      git(scratch, ['add', '--all']);
      const priced = JSON.parse(aureus(scratch, ['price', '--staged', '--format', 'json']).stdout);
      price = priced.cost.total;
      if (!(price < 0))
        failures.push(`the patches together are priced ${price} points, not below zero`);
    } finally {
      git(repo, ['worktree', 'remove', '--force', scratch]);
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  const reasons = new Map();
  for (const dropped of result.dropped) {
    const reason = dropped.reason.replace(/:.*$/, '').replace(/\(-?[\d.]+ points\)/, '(… points)');
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  return { codebase, result, seconds, failures, newErrors, price, reasons };
}

fetchCodebases();
const wanted = process.argv.slice(2);
const chosen = CODEBASES.filter(
  (codebase) => wanted.length === 0 || wanted.includes(codebase.name),
);
const checked = chosen.map(checkCodebase);
const rows = checked.flatMap(
  ({ codebase, result, seconds, failures, newErrors, price, reasons }) => {
    for (const failure of failures) process.stderr.write(`${codebase.name}: ${failure}\n`);
    return [
      `| ${codebase.name}@${codebase.version} | ${result.files} | ${result.patches.length} | ${result.deferred.length} | ${result.dropped.length} | ${result.failedPasses.length} | ${seconds.toFixed(1)} s | ${result.patches.length === 0 ? 'n/a' : `${price} points, ${newErrors.length} new type errors`} | ${failures.length === 0 ? 'yes' : 'NO'} |`,
      ...[...reasons].map(
        ([reason, count]) => `|  | dropped: ${reason} × ${count} | | | | | | | |`,
      ),
    ];
  },
);
process.stdout.write(
  [
    '| code base | files looked at | offered | next run | dropped | passes failed | time | all offered applied, from outside | checks hold |',
    '|---|---:|---:|---:|---:|---:|---:|---|---|',
    ...rows,
    '',
  ].join('\n'),
);
if (checked.some(({ failures, result }) => failures.length > 0 || result.failedPasses.length > 0))
  process.exitCode = 1;
