import { randomUUID } from 'node:crypto';
import type { AskModel } from '../llm/ask-model.js';
import { modelPrompt, proposalsOfReply } from '../reflexion/model-proposals.js';
import type { PassContext, Proposal } from '../reflexion/proposal.js';
import type { VerifiedPatch } from './verify-proposal.js';

/** How much code one request carries; the files past it wait for a narrower run (--changed). */
const MAX_PROMPT_CHARACTERS = 200_000;

export interface ModelAssisted {
  readonly proposals: readonly Proposal[];
  readonly problems: readonly string[];
}

/**
 * The model-assisted pass: the files in scope (as many as fit one request) sent to the model,
 * its reply read as proposals. The markers around the code are random per request, so code
 * cannot close them and speak as the prompt.
 */
export async function modelAssistedProposals(
  context: PassContext,
  ask: AskModel,
): Promise<ModelAssisted> {
  const files: Array<{ path: string; text: string }> = [];
  let size = 0;
  let leftOut = 0;
  for (const path of [...context.scope].sort()) {
    const text = context.project.getSourceFile(`${context.rootDir}/${path}`)?.getFullText();
    if (text === undefined) continue;
    if (size + text.length > MAX_PROMPT_CHARACTERS) {
      leftOut += 1;
      continue;
    }
    size += text.length;
    files.push({ path, text });
  }
  if (files.length === 0) return { proposals: [], problems: [] };
  const prompt = modelPrompt(files, `=====${randomUUID()}=====`);
  const reply = await ask(prompt.system, prompt.user);
  const read = proposalsOfReply(reply, new Map(files.map((file) => [file.path, file.text])));
  const note =
    leftOut === 0
      ? []
      : [`${leftOut} files did not fit one request and were not sent: narrow the run (--changed)`];
  return { proposals: read.proposals, problems: [...read.problems, ...note] };
}

/**
 * A model's patch must not open a sensitive surface or add a dependency, even when the lines it
 * removes pay for it: its code came from a prompt the repository's own text took part in.
 */
export function modelPatchRefusal(patch: VerifiedPatch): string | undefined {
  if (patch.proposal.pass !== 'model-assisted') return undefined;
  const { security, dependencies } = patch.price.cost;
  if (security > 0)
    return 'it touches a sensitive surface (process, network, eval, files, secrets…)';
  if (dependencies > 0) return 'it adds a dependency';
  return undefined;
}
