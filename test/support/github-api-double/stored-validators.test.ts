import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { makeTempDir } from '../temp-dir.js';
import { loadOperations } from './fixture.js';
import { jsonAjv, paramsAjv, storedValidator } from './validation.js';

let folder: { path: string; remove(): Promise<void> };

beforeAll(async () => {
  folder = await makeTempDir('stored-validators');
});
afterAll(async () => {
  await folder.remove();
});

function operation(id: string) {
  const found = loadOperations().find((candidate) => candidate.operationId === id);
  if (found === undefined) throw new Error(`the fixture has no ${id}`);
  return found;
}

describe("the double's validators kept for the run's other test files", () => {
  it('answers from the stored source exactly as the validator ajv compiled: the same errors, formats and coercions', () => {
    const create = operation('pulls/create').requestBody?.schema ?? false;
    const getPull = operation('pulls/get').responses['200'] ?? false;
    const params = {
      type: 'object',
      properties: { pull_number: { type: 'integer' }, per_page: { type: 'integer', default: 30 } },
      required: ['pull_number'],
    };
    const bodies: unknown[] = [
      { title: 'x', head: 'feature', base: 'main' },
      { title: 5, head: 'feature', base: 'main', head_repo: 'not an owner/name!' },
      { title: 'x', base: 'main', head_repo: 'octo/app' },
    ];
    const pulls: unknown[] = [{}, { id: 1, url: 'x', user: { login: 3 } }, []];
    const paramSets = [{ pull_number: '7' }, { pull_number: 'seven', per_page: '50' }, {}];

    const answers = (where: string | undefined) => {
      const body = storedValidator(jsonAjv, create, where);
      const response = storedValidator(jsonAjv, getPull, where);
      const parameters = storedValidator(paramsAjv, params, where);
      return [
        ...bodies.map((value) => [body(value), body.errors]),
        ...pulls.map((value) => [response(value), response.errors?.slice(0, 20)]),
        ...paramSets.map((value) => {
          const copy: Record<string, unknown> = { ...value };
          return [parameters(copy), parameters.errors, copy];
        }),
      ];
    };

    const compiledNow = answers(undefined);
    expect(readdirSync(folder.path)).toEqual([]);
    const stored = answers(folder.path);
    // The first call compiled and stored each of the three; the second read them back.
    expect(readdirSync(folder.path).filter((name) => name.endsWith('.cjs'))).toHaveLength(3);
    expect(readdirSync(folder.path).filter((name) => name.endsWith('.partial'))).toEqual([]);
    const readBack = answers(folder.path);
    expect(stored).toEqual(compiledNow);
    expect(readBack).toEqual(compiledNow);
    // What the cases show: a format refused, a type refused, a required property missing,
    // a URL string coerced to an integer (and one that is no integer refused).
    expect(JSON.stringify(compiledNow)).toContain('must match format \\"repo.nwo\\"');
    expect(compiledNow[1]?.[0]).toBe(false);
    expect(compiledNow[2]?.[0]).toBe(false);
    expect(compiledNow[0]?.[0]).toBe(true);
    expect(compiledNow[6]).toEqual([true, null, { pull_number: 7 }]);
    expect(compiledNow[7]?.[0]).toBe(false);
  });
});
