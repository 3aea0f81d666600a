import { AureusError } from '../model/errors.js';

/** Where `aureus init --builder` writes the builder's workflow, and what the App dispatches. */
export const BUILDER_WORKFLOW_PATH = '.github/workflows/aureus-builder.yml';

/**
 * The AUREUS Action a workflow runs, pinned by commit (THREATS row 30: a tag can be re-pointed
 * at other code): `owner/repo@<40 hex digits>`.
 */
const PINNED_ACTION = /^([A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100})@([0-9a-f]{40})$/;

/** The Action's reference as the README's copy of the workflow spells it. */
export const README_ACTION = 'your-org/aureus@0000000000000000000000000000000000000000';

/** `owner/repo@commit`, checked; the error says how to give it. */
export function pinnedAction(reference: string | undefined): string {
  if (reference === undefined || reference === '')
    throw new AureusError(
      'aureus init --builder writes a workflow that runs the AUREUS Action, and no --action names it.',
      'add --action <owner>/<repo>@<commit>: the repository your AUREUS Action comes from, pinned by its full 40-digit commit sha.',
    );
  if (!PINNED_ACTION.test(reference))
    throw new AureusError(
      `--action ${JSON.stringify(reference)} is not <owner>/<repo>@<commit> with a full 40-digit commit sha.`,
      'pin the AUREUS Action by commit (a tag or branch can be moved to other code): --action your-org/aureus@<40 hex digits>.',
    );
  return reference;
}

/**
 * The builder's workflow, the one text both `aureus init --builder` writes and the README shows
 * (a test holds them equal): four jobs, plan (the model, no token, contents: read), show-plan
 * (the plan on the issue, no model), act (the model again, no token) and publish (the only job
 * that writes, running no model and no code of the run). `trigger` is the Action's dispatch
 * input: a workflow without it answers the Action's dispatch with a 422.
 */
export function builderWorkflow(action: string): string {
  const [repository, commit] = action.split('@');
  const builder = `${repository}/builder@${commit}`;
  return `# .github/workflows/aureus-builder.yml
name: AUREUS builder
on:
  workflow_dispatch:
    inputs:
      issue: { required: true }
      snapshot: { required: true }
      requester: { required: true }
      run_id: { required: true }
      budget_usd: { required: false } # /aureus implement --budget $N
      budget_points: { required: false } # /aureus implement --budget <n>pt
      trigger: { required: false } # the Action's dispatch: the comment or label event, read again
      resume_from: { required: false } # /aureus approve-budget: the workflow run the run stopped in
permissions:
  contents: read
jobs:
  plan:
    runs-on: ubuntu-latest
    permissions:
      contents: read
      issues: read
      actions: read # a continuation reads the stopped workflow run and its artifacts
      pull-requests: read # a trigger whose run left a pull request starts no second run
    outputs:
      status: \${{ steps.builder.outputs.status }}
    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2
        with:
          persist-credentials: false # the agent's job holds no token
      - uses: actions/download-artifact@d3f86a106a0bac45b974a628896c90dbdf5c8093 # v4.3.0
        if: \${{ inputs.resume_from != '' }}
        continue-on-error: true # a stop at its plan left no aureus-run
        with:
          name: aureus-plan
          run-id: \${{ inputs.resume_from }}
          github-token: \${{ github.token }}
          path: \${{ runner.temp }}/aureus-stopped
      - uses: actions/download-artifact@d3f86a106a0bac45b974a628896c90dbdf5c8093 # v4.3.0
        if: \${{ inputs.resume_from != '' }}
        continue-on-error: true # the builder step refuses a stop it cannot read, and says why
        with:
          name: aureus-run
          run-id: \${{ inputs.resume_from }}
          github-token: \${{ github.token }}
          path: \${{ runner.temp }}/aureus-stopped
      - uses: ${builder}
        id: builder
        with:
          stage: plan # Gather and the plan only; a continuation hands its stop on instead
          resume-dir: \${{ runner.temp }}/aureus-stopped
        env:
          ANTHROPIC_API_KEY: \${{ secrets.ANTHROPIC_API_KEY }} # the policy's model key, nothing else
      - uses: actions/upload-artifact@ea165f8d65b6e75b540449e92b4886f43607fa02 # v4.6.2
        if: \${{ !cancelled() }}
        with:
          name: aureus-plan
          path: aureus-run
  show-plan:
    needs: plan
    if: \${{ needs.plan.outputs.status == 'planned' }}
    runs-on: ubuntu-latest
    permissions:
      contents: read
      issues: write
    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2
        with:
          persist-credentials: false
      - uses: actions/download-artifact@d3f86a106a0bac45b974a628896c90dbdf5c8093 # v4.3.0
        with:
          name: aureus-plan
          path: \${{ runner.temp }}/aureus-plan
      - uses: ${action}
        with:
          mode: post-plan # posts the plan and its estimate, no model
          output-dir: \${{ runner.temp }}/aureus-plan
  act:
    needs: show-plan # Act starts once the plan is on the issue
    runs-on: ubuntu-latest
    permissions:
      contents: read
      issues: read
    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2
        with:
          persist-credentials: false # the agent's job holds no token
      - uses: actions/download-artifact@d3f86a106a0bac45b974a628896c90dbdf5c8093 # v4.3.0
        with:
          name: aureus-plan
          path: \${{ runner.temp }}/aureus-plan
      - uses: ${builder}
        with:
          stage: act
          plan-dir: \${{ runner.temp }}/aureus-plan
        env:
          ANTHROPIC_API_KEY: \${{ secrets.ANTHROPIC_API_KEY }}
      - uses: actions/upload-artifact@ea165f8d65b6e75b540449e92b4886f43607fa02 # v4.6.2
        if: \${{ !cancelled() }}
        with:
          name: aureus-run
          path: aureus-run
  publish:
    needs: [plan, act]
    if: \${{ !cancelled() }} # a run stopped at its plan, refused or failed is reported too
    runs-on: ubuntu-latest
    permissions:
      contents: write
      pull-requests: write
      issues: write
      actions: read # a run the day's caps refused is said on the issue, from the runs list
    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2
        with:
          persist-credentials: false
          fetch-depth: 0 # where the run starts is checked against the default branch's history
      - uses: actions/download-artifact@d3f86a106a0bac45b974a628896c90dbdf5c8093 # v4.3.0
        continue-on-error: true # a build that left nothing is refused, and said so
        with:
          name: aureus-plan # a run that ended at its plan (a budget stop)
          path: \${{ runner.temp }}/aureus-run
      - uses: actions/download-artifact@d3f86a106a0bac45b974a628896c90dbdf5c8093 # v4.3.0
        continue-on-error: true
        with:
          name: aureus-run # the Act job's run, over the plan's files
          path: \${{ runner.temp }}/aureus-run
      - uses: ${action}
        with:
          mode: publish
          output-dir: \${{ runner.temp }}/aureus-run
`;
}
