/** One vote on a builder's finished change: its decision and the evidence for it. */

export type Vote = 'approve' | 'request-changes' | 'not run';

export interface ReviewVote {
  readonly vote: Vote;
  readonly reasons: readonly string[];
}
