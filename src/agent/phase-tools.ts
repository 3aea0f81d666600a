import type { JsonObject } from '../model/json.js';
import { SECURITY_SURFACES } from './plan-estimate.js';
import type { ToolDefinition, ToolResult } from './tool-contract.js';
import { inputChecker, isRefusal } from './tools/tool-input.js';

/**
 * The tools that move a run between phases: `submit_plan` ends Gather, `request_verify` hands
 * the change to Verify, `finish` ends a verified run. Their effects are the loop's own; here
 * they only check their input, so the gates judge them like any other tool.
 */

const planInput = {
  type: 'object',
  additionalProperties: false,
  required: ['steps', 'files', 'estimate'],
  properties: {
    steps: { type: 'array', items: { type: 'string', maxLength: 2000 }, maxItems: 50 },
    files: { type: 'array', items: { type: 'string', maxLength: 1000 }, maxItems: 200 },
    estimate: {
      type: 'object',
      additionalProperties: false,
      required: ['files_added', 'files_changed', 'lines', 'abstractions', 'dependencies'],
      properties: {
        files_added: { type: 'integer', minimum: 0 },
        files_changed: { type: 'integer', minimum: 0 },
        lines: { type: 'integer', minimum: 0 },
        test_lines: { type: 'integer', minimum: 0 },
        abstractions: { type: 'integer', minimum: 0 },
        dependencies: { type: 'integer', minimum: 0 },
        modules: { type: 'integer', minimum: 0 },
        security: {
          type: 'array',
          items: { type: 'string', enum: SECURITY_SURFACES },
          maxItems: 50,
        },
      },
    },
  },
};

const emptyInput = { type: 'object', additionalProperties: false, properties: {} };
const finishInput = {
  type: 'object',
  additionalProperties: false,
  required: ['summary'],
  properties: { summary: { type: 'string', minLength: 1, maxLength: 4000 } },
};

const reflectInput = {
  type: 'object',
  additionalProperties: false,
  required: ['decision'],
  properties: {
    decision: { type: 'string', enum: ['continue', 'replan', 'stop'] },
    decisions: { type: 'array', items: { type: 'string', maxLength: 2000 }, maxItems: 20 },
    blockers: { type: 'array', items: { type: 'string', maxLength: 2000 }, maxItems: 20 },
  },
};

export type PhaseToolName = 'submit_plan' | 'request_verify' | 'finish' | 'reflect';

function phaseTool(
  name: PhaseToolName,
  description: string,
  schema: Record<string, unknown>,
  phases: ToolDefinition['phases'],
): ToolDefinition {
  const check = inputChecker<JsonObject>(name, schema);
  return {
    spec: { name, description, inputSchema: schema },
    tier: 0,
    phases,
    preview: async (input) => {
      const checked = check(input);
      return isRefusal(checked) ? checked : { kind: 'read' };
    },
    // The loop carries out a phase tool itself; this only echoes the checked input.
    apply: async (input): Promise<ToolResult> => {
      const checked = check(input);
      return isRefusal(checked) ? checked : { ok: true, output: checked };
    },
  };
}

export function phaseTools(): ToolDefinition[] {
  return [
    phaseTool(
      'submit_plan',
      'Ends the gather phase: the steps, the files to touch, and the estimate of the change (files to add and change, lines added outside and inside the tests, new abstractions, dependencies and modules, sensitive surfaces touched). The estimate is priced into points: the run may not spend much beyond it, and a plan over the change budget is refused.',
      planInput,
      ['gather'],
    ),
    phaseTool(
      'request_verify',
      "Commits the change and runs the project's tests and aureus check on the whole branch.",
      emptyInput,
      ['act'],
    ),
    phaseTool('finish', 'Ends a verified run with a summary of the change.', finishInput, [
      'verify',
    ]),
    phaseTool(
      'reflect',
      'Answers a reflection: continue as planned, replan (back to gather, then submit_plan again) or stop; with the decisions taken so far and what blocks the task.',
      reflectInput,
      ['gather', 'act', 'verify'],
    ),
  ];
}
