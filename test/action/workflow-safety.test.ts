import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import {
  field,
  repositoryRoot as root,
  workflowDocuments as workflows,
} from '../support/workflow-documents.js';

const readme = readFileSync(join(root, 'README.md'), 'utf8');

function steps(document: unknown): Record<string, unknown>[] {
  const jobs = Object.values(field(document, 'jobs') ?? {});
  return jobs.flatMap((job) => {
    const list = field(job, 'steps');
    return Array.isArray(list) ? list : [];
  });
}

describe('workflows and examples (THREATS rows 14, 16, 30)', () => {
  it('finds the workflows to check', () => {
    expect(workflows().map((workflow) => workflow.name)).toEqual(
      expect.arrayContaining(['.github/workflows/aureus.yml', 'README.md example 1']),
    );
  });

  it('never check out a pull request head under pull_request_target', () => {
    for (const workflow of workflows()) {
      const triggers = JSON.stringify(Reflect.get(Object(workflow.document), 'on') ?? {});
      if (!triggers.includes('pull_request_target')) continue;
      const checkouts = JSON.stringify(steps(workflow.document));
      expect({
        workflow: workflow.name,
        headCheckout: /head\.|refs\/pull\//.test(checkouts),
      }).toEqual({
        workflow: workflow.name,
        headCheckout: false,
      });
    }
  });

  it('pin every action from elsewhere to a full commit SHA', () => {
    for (const workflow of workflows()) {
      for (const step of steps(workflow.document)) {
        const uses = step.uses;
        if (typeof uses !== 'string' || uses.startsWith('./')) continue;
        expect({
          workflow: workflow.name,
          uses,
          pinned: /@[0-9a-f]{40}$/.test(uses),
        }).toMatchObject({
          pinned: true,
        });
      }
    }
  });

  it('never expand an expression inside a shell command', () => {
    for (const workflow of workflows()) {
      for (const step of steps(workflow.document)) {
        if (typeof step.run !== 'string') continue;
        expect({ workflow: workflow.name, run: step.run }).not.toMatchObject({
          run: expect.stringContaining('${{'),
        });
      }
    }
  });
});

describe('action.yml', () => {
  const action: unknown = parse(readFileSync(join(root, 'action.yml'), 'utf8'));
  const inputs = Object.keys(field(action, 'inputs') ?? {});
  const settings = readFileSync(join(root, 'src', 'action', 'action-settings.ts'), 'utf8');

  it('documents every input in the README and reads every one of them', () => {
    expect(inputs.length).toBeGreaterThan(5);
    for (const input of inputs) {
      expect({ input, documented: readme.includes(`\`${input}\``) }).toEqual({
        input,
        documented: true,
      });
      expect({ input, read: settings.includes(`input('${input}')`) }).toEqual({
        input,
        read: true,
      });
    }
  });

  it('documents every output in the README', () => {
    for (const output of Object.keys(field(action, 'outputs') ?? {}))
      expect({ output, documented: readme.includes(`\`${output}\``) }).toEqual({
        output,
        documented: true,
      });
  });
});
