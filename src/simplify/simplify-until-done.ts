import type { Policy } from '../model/policy.js';
import type { SimplificationPass } from '../reflexion/proposal.js';
import type { SimplificationMetrics } from './simplification-metrics.js';
import {
  type SimplifyOptions,
  type SimplifyResult,
  simplifyRepository,
} from './simplify-repository.js';

/**
 * Rounds one `simplify --apply` takes at most. A round writes only patches that go in together;
 * one that removes an interface can make the next one's wrapper trivial, so a small project
 * needed several runs to finish. Each round strictly lowers the price, so few are ever needed.
 */
export const MAX_APPLY_ROUNDS = 10;

export interface SimplifyRounds extends SimplifyResult {
  readonly rounds: number;
  /** The bound was reached with patches still written in the last round: run it again. */
  readonly stoppedAtBound: boolean;
}

/**
 * `simplify`, and with `apply` again on what it wrote, until a round writes nothing or the
 * bound is reached. Later rounds keep the first round's scope (a patched file must not widen
 * `--changed`) and run the deterministic passes only: the model is asked once per run.
 */
export async function simplifyUntilDone(
  root: string,
  policy: Policy,
  passes: readonly SimplificationPass[],
  options: SimplifyOptions,
): Promise<SimplifyRounds> {
  const first = await simplifyRepository(root, policy, passes, options);
  const rounds = [first];
  let last = first;
  const only = new Set(first.scope);
  while (options.apply && last.applied.kept.length > 0 && rounds.length < MAX_APPLY_ROUNDS) {
    last = await simplifyRepository(root, policy, passes, {
      ...options,
      only,
      model: undefined,
    });
    rounds.push(last);
  }
  return {
    ...last,
    scope: first.scope,
    verified: rounds.flatMap((round) => round.verified),
    dropped: rounds.flatMap((round) => round.dropped),
    failedPasses: rounds.flatMap((round) => round.failedPasses),
    applied: {
      kept: rounds.flatMap((round) => round.applied.kept),
      written: last.applied.written,
      notKept: rounds.flatMap((round) => round.applied.notKept),
    },
    metrics: combined(rounds.map((round) => round.metrics)),
    rounds: rounds.length,
    stoppedAtBound: rounds.length === MAX_APPLY_ROUNDS && last.applied.kept.length > 0,
  };
}

/**
 * The rounds' metrics as one: each round starts where the last ended, over the same scope, so
 * the reductions compose (1 − Π(1 − rᵢ)) and the complexity runs from the first to the last.
 */
function combined(all: readonly SimplificationMetrics[]): SimplificationMetrics {
  const [first] = all;
  const last = all.at(-1);
  if (first === undefined || last === undefined) throw new RangeError('no round was run');
  const reduction = 1 - all.reduce((kept, each) => kept * (1 - each.reduction), 1);
  return {
    ...last,
    linesRemoved: all.reduce((sum, each) => sum + each.linesRemoved, 0),
    abstractionsRemoved: all.reduce((sum, each) => sum + each.abstractionsRemoved, 0),
    complexityBefore: first.complexityBefore,
    complexityAfter: last.complexityAfter,
    reduction,
    targetMet: reduction >= last.target,
  };
}
