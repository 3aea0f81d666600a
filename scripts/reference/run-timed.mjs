// Runs a tool in a process of its own and times it, start to exit: what a user waits for.
import { execFile } from 'node:child_process';

export function runTimed(command, args, options = {}) {
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { maxBuffer: 512 * 1024 * 1024, ...options },
      (error, stdout, stderr) => {
        const seconds = Number(process.hrtime.bigint() - start) / 1e9;
        // dependency-cruiser exits non-zero when a rule is violated: that is an answer, not a failure.
        if (error !== null && typeof error.code !== 'number') reject(error);
        else resolve({ seconds, stdout, stderr, exitCode: error === null ? 0 : error.code });
      },
    );
  });
}

export function toolVersion(packageJsonUrl) {
  return import(packageJsonUrl, { with: { type: 'json' } }).then(
    (module) => module.default.version,
  );
}
