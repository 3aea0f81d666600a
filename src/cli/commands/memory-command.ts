import { relative } from 'node:path';
import { adrProposals } from '../../learn/adr-proposals.js';
import { patternsRegistry } from '../../learn/patterns-registry.js';
import { renderPatterns } from '../../learn/render-patterns.js';
import {
  decisionsFolder,
  patternsFile,
  readDecisions,
  writeDecision,
  writePatternsFile,
} from '../../memory/decisions-folder.js';
import { builtInPolicy, readPolicySource } from '../../memory/policy-file.js';
import { storePaths } from '../../memory/store-paths.js';
import { ExitCode } from '../../model/errors.js';
import { jsonText } from '../../report/plain-text.js';
import type { CommandContext } from './command-context.js';
import { readLedgers } from './read-ledgers.js';

/**
 * `aureus memory patterns`: each rule's violations, overrides and fixes by week, from the
 * ledgers, keeping memory.patterns_retention_days; --write puts it in .aureus/patterns.json.
 * That file is output for people: AUREUS never reads it back.
 */
export async function memoryPatternsCommand(context: CommandContext): Promise<number> {
  const { io, root, options, format } = context;
  const policyPath = storePaths(root).policy;
  const source = await readPolicySource(policyPath, relative(io.cwd, policyPath) || policyPath);
  const policy = source?.policy ?? (await builtInPolicy(undefined));
  const { lines, damaged } = await readLedgers(context, 'the registry');
  const registry = patternsRegistry(lines, Date.now(), policy.memory.patterns_retention_days);
  for (const note of damaged) io.stderr(`aureus: ${note}\n`);
  const json = `${jsonText(registry, 2)}\n`;
  if (options.write === true) {
    await writePatternsFile(root, json);
    io.stderr(`aureus: wrote ${relative(io.cwd, patternsFile(root)) || patternsFile(root)}.\n`);
  }
  io.stdout(format === 'json' ? json : renderPatterns(registry));
  return damaged.length === 0 ? ExitCode.pass : ExitCode.rejected;
}

/**
 * `aureus memory adr`: an ADR proposed for each architectural change of the ledgers that no
 * decision in .aureus/decisions/ names yet; --write creates their files, never replacing one.
 */
export async function memoryAdrCommand(context: CommandContext): Promise<number> {
  const { io, root, options, format } = context;
  const { lines, damaged } = await readLedgers(context, 'the proposals');
  const proposals = adrProposals(lines, await readDecisions(root), Date.now());
  for (const note of damaged) io.stderr(`aureus: ${note}\n`);
  const folder = relative(io.cwd, decisionsFolder(root)) || decisionsFolder(root);
  const written: string[] = [];
  if (options.write === true)
    for (const proposal of proposals)
      if (await writeDecision(root, proposal.fileName, proposal.text))
        written.push(proposal.fileName);
      else
        io.stderr(
          `aureus: ${folder}/${proposal.fileName} appeared meanwhile and was left as it is; run again to number the proposal after it.\n`,
        );
  if (format === 'json') io.stdout(`${jsonText({ folder, proposals, written }, 2)}\n`);
  else if (proposals.length === 0)
    io.stdout(`No architectural change in the ledgers lacks a decision in ${folder}.\n`);
  else {
    const verb = options.write === true ? 'Wrote' : 'Proposed (not written; --write creates them)';
    const out = proposals.map((proposal) => `--- ${folder}/${proposal.fileName}\n${proposal.text}`);
    io.stdout(`${verb}: ${proposals.length} decision(s).\n\n${out.join('\n')}`);
  }
  return damaged.length === 0 ? ExitCode.pass : ExitCode.rejected;
}
