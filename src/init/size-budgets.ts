import type { Policy } from '../model/policy.js';
import type { CoreLayout, Inferred, Maturity } from './project-intelligence.js';
import { count, percent, plural } from './wording.js';

/**
 * Headroom above today's core for a project that already exceeds the design: 20 % is about a
 * year of steady growth for an established code base, enough that ordinary work passes and
 * small enough that the target still means something when it is reached.
 */
export const TARGET_HEADROOM = 0.2;
/** The hard limit over the target: room to finish a feature after the warning, not a second budget. */
export const HARD_OVER_TARGET = 1.5;
/** Headroom for the core's file and module counts, at least one more than today. */
export const COUNT_HEADROOM = 0.2;

export interface SizeBudgets {
  readonly coreLoc: Inferred<{ readonly target: number; readonly hard: number }>;
  readonly coreFiles: Inferred<number>;
  readonly coreModules: Inferred<number>;
}

/**
 * The core's budgets: the design's for a greenfield project; above today's core for a growing
 * or legacy one (never below the design's), so that existing code passes and growth is priced.
 */
export function sizeBudgets(
  core: CoreLayout,
  maturity: Maturity,
  design: Policy['budgets'],
): SizeBudgets {
  const modules = core.modules.length;
  if (maturity === 'greenfield') {
    return {
      coreLoc: {
        value: { target: design.core_loc.target, hard: design.core_loc.hard },
        reason: `design default; the core is ${count(core.loc)} lines today`,
      },
      coreFiles: {
        value: design.core_files,
        reason: `design default; the core has ${plural(core.files, 'file')} today`,
      },
      coreModules: {
        value: design.core_modules,
        reason: `design default; the core has ${plural(modules, 'module')} today`,
      },
    };
  }
  const target = roundUp(core.loc * (1 + TARGET_HEADROOM));
  const hard = roundUp(target * HARD_OVER_TARGET);
  const files = Math.max(core.files + 1, roundUp(core.files * (1 + COUNT_HEADROOM)));
  const moduleBudget = Math.max(modules + 1, Math.ceil(modules * (1 + COUNT_HEADROOM)));
  const headroom = percent(TARGET_HEADROOM);
  return {
    coreLoc:
      target <= design.core_loc.target
        ? {
            value: { target: design.core_loc.target, hard: design.core_loc.hard },
            reason: `design default: the core's ${count(core.loc)} lines fit under it with ${headroom} to spare`,
          }
        : {
            value: { target, hard: Math.max(hard, design.core_loc.hard) },
            reason: `current core is ${count(core.loc)} lines: target ${headroom} above it, hard limit ${HARD_OVER_TARGET}× the target`,
          },
    coreFiles:
      files <= design.core_files
        ? {
            value: design.core_files,
            reason: `design default; the core has ${plural(core.files, 'file')} today`,
          }
        : {
            value: files,
            reason: `the core has ${plural(core.files, 'file')} today: ${headroom} headroom`,
          },
    coreModules:
      moduleBudget <= design.core_modules
        ? {
            value: design.core_modules,
            reason: `design default; the core has ${plural(modules, 'module')} today`,
          }
        : {
            value: moduleBudget,
            reason: `the core has ${plural(modules, 'module')} today: room for ${count(moduleBudget - modules)} more before a new one needs a decision`,
          },
  };
}

/** Up to two significant figures (51,744 → 52,000), so budgets read as decisions, not data. */
export function roundUp(value: number): number {
  if (value <= 100) return Math.ceil(value);
  const step = 10 ** (Math.floor(Math.log10(value)) - 1);
  return Math.ceil(value / step) * step;
}
