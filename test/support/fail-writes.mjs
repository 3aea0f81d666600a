// Preloaded into an `aureus` process (`node --import`): every write under the folder
// AUREUS_TEST_FAIL_UNDER fails with AUREUS_TEST_FAIL_CODE, as a full disk (ENOSPC), a read-only
// mount (EROFS) or a folder this user may not write (EACCES) would make it fail. A test cannot
// fill a disk or mount one read-only, and a folder of mode 0555 stops no one running as root.
// Reads are left alone; a folder that already exists is "created" again without complaint, as
// mkdir -p does on a full or read-only disk.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const folder = process.env.AUREUS_TEST_FAIL_UNDER;
const code = process.env.AUREUS_TEST_FAIL_CODE;
const FAILURES = {
  ENOSPC: { errno: -28, text: 'no space left on device' },
  EROFS: { errno: -30, text: 'read-only file system' },
  EACCES: { errno: -13, text: 'permission denied' },
};

if (folder && code in FAILURES) {
  const { errno, text } = FAILURES[code];
  const under = (path) => path != null && String(path).startsWith(folder);
  const failure = (syscall, path) =>
    Object.assign(new Error(`${code}: ${text}, ${syscall} '${String(path)}'`), {
      errno,
      code,
      syscall,
      path: String(path),
    });
  const { O_WRONLY, O_RDWR, O_CREAT, O_APPEND } = fs.constants;
  const writes = (flags) =>
    typeof flags === 'number'
      ? (flags & (O_WRONLY | O_RDWR | O_CREAT | O_APPEND)) !== 0
      : typeof flags === 'string' && /[wax+]/.test(flags);
  const fails = {
    open: (path, flags) => under(path) && writes(flags),
    writeFile: (path) => under(path),
    appendFile: (path) => under(path),
    mkdir: (path) => under(path) && !fs.existsSync(path),
    rename: (from, to) => under(from) || under(to),
    copyFile: (_from, to) => under(to),
  };
  const sync = fs;
  const promises = fs.promises;
  for (const [name, failsFor] of Object.entries(fails)) {
    const original = promises[name];
    promises[name] = (...args) =>
      failsFor(...args) ? Promise.reject(failure(name, args[0])) : original(...args);
    const originalSync = sync[`${name}Sync`];
    sync[`${name}Sync`] = (...args) => {
      if (failsFor(...args)) throw failure(name, args[0]);
      return originalSync(...args);
    };
    const originalCallback = sync[name];
    sync[name] = (...args) => {
      if (!failsFor(...args)) return originalCallback(...args);
      const callback = args.at(-1);
      process.nextTick(() => callback(failure(name, args[0])));
    };
  }
  syncBuiltinESMExports();
}
