import type { JsonValue } from '../model/json.js';
import type { Evidence } from './ledger-checks.js';

/** Why learning proposes an edit: what it makes of the gate, read from which data. */
export type EditKind = 'relaxation' | 'tightening' | 'budget' | 'calibration';

/** One setting the proposal changes, with the reason and the evidence behind it. */
export interface PolicyEdit {
  /** The setting's path in the policy, as `forbidden_patterns.god_class.severity` is split. */
  readonly path: readonly string[];
  readonly from: JsonValue;
  readonly to: JsonValue;
  readonly kind: EditKind;
  /** One sentence: what the data shows. */
  readonly why: string;
  /** The ledger lines it rests on (overrides: who, why, when), or none for a fit. */
  readonly evidence: readonly Evidence[];
}

/** Points rounded up to the next ten: a budget reads as a decision, not as a measurement. */
export function roundUpToTen(points: number): number {
  return Math.max(10, Math.ceil(points / 10) * 10);
}
