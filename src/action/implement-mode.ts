import { AureusError } from '../model/errors.js';

/**
 * `mode: implement` of the JavaScript action: refused. The runner starts a JavaScript action's
 * process with ACTIONS_RUNTIME_TOKEN (artifacts, the Actions cache), the cache URL and the
 * id-token request variables, and a process cannot take them out of its `/proc/<pid>/environ`,
 * which every command the run starts could read. The builder runs in the composite step
 * builder/action.yml instead, whose script steps the runner gives none of them.
 */
export function refuseImplementMode(): never {
  throw new AureusError(
    "mode: implement would run the builder inside a JavaScript action, whose process holds the runner's ACTIONS_RUNTIME_TOKEN where the commands of the run can read it.",
    'run the build job with the builder step instead: uses: <owner>/aureus/builder@<commit> (see "The builder workflow" in the README).',
  );
}
