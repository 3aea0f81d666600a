import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { ToolResult } from '../tool-contract.js';

export type InputRefusal = Extract<ToolResult, { ok: false }> & { readonly refusedBy: 'input' };

/**
 * A checker for one tool's input: the input itself when it fits the tool's JSON Schema, else a
 * refusal that says in plain words what is wrong, for the model to call the tool again.
 */
export function inputChecker<T>(
  tool: string,
  schema: Readonly<Record<string, unknown>>,
): (input: unknown) => T | InputRefusal {
  // Compiled on the first input checked, not when the tools are made: most processes that
  // make the tools (every Action run, the builder's steps) check no input, and compiling every
  // schema at load cost each of them ~60 ms.
  let validate: ValidateFunction<T> | undefined;
  return (input) => {
    validate ??= new Ajv({ allErrors: true, strict: true }).compile<T>(schema);
    if (validate(input)) return input;
    const problems = (validate.errors ?? []).map(describe).join('; ');
    return {
      ok: false,
      refusedBy: 'input',
      error: `the input of ${tool} is malformed: ${problems}.`,
      hint: `call ${tool} again with an input that matches its schema.`,
    };
  };
}

function describe(error: ErrorObject): string {
  const where = error.instancePath === '' ? 'the input' : `"${error.instancePath.slice(1)}"`;
  if (error.keyword === 'additionalProperties') {
    return `${where} has an unknown property "${String(error.params.additionalProperty)}"`;
  }
  if (error.keyword === 'required') {
    return `${where} lacks the property "${String(error.params.missingProperty)}"`;
  }
  return `${where} ${error.message ?? 'is invalid'}`;
}

export function isRefusal(value: unknown): value is Extract<ToolResult, { ok: false }> {
  return typeof value === 'object' && value !== null && 'ok' in value && value.ok === false;
}
