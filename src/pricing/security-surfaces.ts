import type { Language } from '../model/facts.js';
import type { Policy } from '../model/policy.js';

/** A sensitive surface: one of the policy's `pricing.security` weights. */
export type Surface = keyof Policy['pricing']['security'];

/**
 * One way a file touches a surface, read from its facts.
 * - `modules`: import specifiers. A pattern matches the specifier itself or anything under it
 *   (`fs` matches `fs/promises`, `java.net` matches `java.net.URL`, `crypto` matches Go's
 *   `crypto/sha256`); a trailing `*` matches any continuation (`passport-*`). JavaScript's
 *   `node:` prefix is dropped before matching. Type-only imports never count (erased at run time).
 * - `names`: when present, the import alone is not the touch (importing `fs` to read is not a
 *   write): the file must also call one of these names (FunctionFact.calls: `fs.rmSync()` →
 *   `rmSync`) or import one by name from a matching module (`import { rm } from 'fs'`).
 *   With `modules` empty, the names alone are the touch (globals and builtins: `fetch`,
 *   `ProcessBuilder`).
 * Eval is also read from the facts' reflection (`eval`, `new Function`, Python `eval`/`exec`).
 *
 * Limits, from what facts hold:
 * - calls are recorded inside functions only: a call at module level is invisible;
 * - member reads are not facts: `process.env.X`, `os.environ['X']` and `System.getProperty`
 *   are invisible, so env/secrets is seen only through `dotenv`-like imports and calls such as
 *   `getenv`, `os.Getenv`, `System.getenv`;
 * - call arguments are not facts: Python's `open(path, 'w')` cannot be told from a read, so
 *   Python file writes are `shutil`, `os.remove`/`rename`/`mkdir`…, and pathlib's `write_text`…;
 * - a callee is its last name only (`a.b.exec()` → `exec`): Java's `exec` counts as
 *   `Runtime.exec` wherever it is called.
 */
export interface SurfaceRule {
  readonly surface: Surface;
  readonly modules: readonly string[];
  readonly names?: readonly string[];
}

export type LanguageFamily = 'script' | 'python' | 'go' | 'java';

export function familyOf(language: Language): LanguageFamily {
  if (language === 'typescript' || language === 'tsx' || language === 'javascript') return 'script';
  return language;
}

/** A rule from word lists: `rule('network', 'http https', 'fetch')`; '' for no modules. */
function rule(surface: Surface, modules: string, names?: string): SurfaceRule {
  const split = (words: string) => words.split(/\s+/).filter((word) => word !== '');
  return names === undefined
    ? { surface, modules: split(modules) }
    : { surface, modules: split(modules), names: split(names) };
}

/** Node's fs writers, each also as its `…Sync` twin. */
const NODE_FS_WRITES = [
  'writeFile appendFile unlink rm rmdir rename mkdir mkdtemp copyFile cp truncate symlink link',
  'chmod chown utimes',
]
  .join(' ')
  .split(' ')
  .map((name) => `${name} ${name}Sync`)
  .join(' ');

/** The table: per language family, every rule that makes a file touch a surface. */
export const SURFACE_RULES: Readonly<Record<LanguageFamily, readonly SurfaceRule[]>> = {
  script: [
    rule('process_spawn', 'child_process execa cross-spawn shelljs zx node-pty'),
    rule('eval', 'vm vm2 isolated-vm'),
    rule('filesystem_write', 'fs graceful-fs', `${NODE_FS_WRITES} createWriteStream`),
    rule(
      'filesystem_write',
      'fs-extra',
      `${NODE_FS_WRITES} createWriteStream outputFile outputJson writeJson remove move copy emptyDir ensureDir ensureFile mkdirp mkdirs`,
    ),
    rule('filesystem_write', 'rimraf del mkdirp make-dir write-file-atomic proper-lockfile'),
    rule(
      'network',
      'http https http2 net tls dgram dns axios node-fetch cross-fetch got undici ky superagent request ws socket.io socket.io-client express fastify koa',
    ),
    rule('network', '', 'fetch WebSocket XMLHttpRequest EventSource'),
    rule(
      'crypto',
      'crypto bcrypt bcryptjs argon2 crypto-js tweetnacl node-forge @noble/* scrypt-js',
    ),
    rule(
      'auth',
      'passport passport-* jsonwebtoken jose oauth oauth4webapi simple-oauth2 express-session cookie-session next-auth @auth/* openid-client keycloak-connect @okta/* firebase-admin/auth',
    ),
    rule('deserialization', 'node-serialize funcster cryo'),
    rule('deserialization', 'v8', 'deserialize'),
    rule('deserialization', 'js-yaml', 'load loadAll'),
    rule('env_secrets', 'dotenv dotenv-* @dotenvx/* env-var envalid keytar'),
  ],
  python: [
    rule('process_spawn', 'subprocess pexpect plumbum'),
    rule(
      'process_spawn',
      'os',
      'system popen execv execve execvp execl execlp spawnv spawnl posix_spawn startfile',
    ),
    rule('process_spawn', 'asyncio', 'create_subprocess_exec create_subprocess_shell'),
    rule('eval', 'runpy'),
    rule('filesystem_write', 'shutil tempfile'),
    rule(
      'filesystem_write',
      'os',
      'remove unlink rename replace mkdir makedirs rmdir removedirs chmod chown symlink link truncate',
    ),
    rule(
      'filesystem_write',
      'pathlib',
      'write_text write_bytes unlink rmdir mkdir touch rename replace chmod symlink_to',
    ),
    rule(
      'network',
      'requests urllib urllib3 httpx aiohttp socket http ftplib smtplib websockets grpc paramiko flask fastapi django.http',
    ),
    rule('crypto', 'hashlib hmac secrets ssl cryptography Crypto Cryptodome nacl bcrypt argon2'),
    rule(
      'auth',
      'flask_login flask_jwt_extended django.contrib.auth jwt authlib oauthlib passlib rest_framework.authentication fastapi.security',
    ),
    rule('deserialization', 'pickle cPickle _pickle dill marshal shelve jsonpickle joblib'),
    rule('deserialization', 'yaml', 'load load_all unsafe_load full_load'),
    rule('env_secrets', 'os', 'getenv getenvb putenv environ'),
    rule('env_secrets', 'dotenv environ decouple keyring'),
  ],
  go: [
    rule('process_spawn', 'os/exec'),
    rule('process_spawn', 'os syscall', 'StartProcess Exec ForkExec'),
    rule('eval', 'plugin'),
    rule(
      'filesystem_write',
      'os',
      'WriteFile Create CreateTemp OpenFile Remove RemoveAll Rename Mkdir MkdirAll MkdirTemp Chmod Chown Symlink Link Truncate',
    ),
    rule('filesystem_write', 'io/ioutil', 'WriteFile TempFile TempDir'),
    rule(
      'network',
      'net',
      'Dial DialTimeout DialTCP DialUDP DialUnix Listen ListenPacket ListenTCP ListenUDP',
    ),
    rule(
      'network',
      'net/http net/rpc net/smtp google.golang.org/grpc github.com/gorilla/websocket github.com/gin-gonic/gin',
    ),
    rule('crypto', 'crypto golang.org/x/crypto'),
    rule(
      'auth',
      'golang.org/x/oauth2 github.com/golang-jwt/jwt github.com/dgrijalva/jwt-go github.com/coreos/go-oidc',
    ),
    rule('deserialization', 'encoding/gob'),
    rule('env_secrets', 'os syscall', 'Getenv LookupEnv Environ Setenv'),
    rule(
      'env_secrets',
      'github.com/joho/godotenv github.com/kelseyhightower/envconfig github.com/spf13/viper',
    ),
  ],
  java: [
    rule('process_spawn', '', 'ProcessBuilder exec'),
    rule('process_spawn', 'org.apache.commons.exec'),
    rule('eval', 'javax.script groovy.lang org.mozilla.javascript'),
    rule(
      'filesystem_write',
      'java.nio.file',
      'write writeString createFile createDirectory createDirectories createTempFile delete deleteIfExists move copy newOutputStream newBufferedWriter',
    ),
    rule(
      'filesystem_write',
      'java.io',
      'FileOutputStream FileWriter RandomAccessFile PrintWriter mkdir mkdirs createNewFile renameTo delete',
    ),
    rule(
      'network',
      'java.net javax.net okhttp3 org.apache.http org.apache.hc retrofit2 org.springframework.web.client org.springframework.web.reactive.function.client io.netty',
    ),
    rule('crypto', 'javax.crypto java.security org.bouncycastle'),
    rule(
      'auth',
      'org.springframework.security javax.security.auth jakarta.security io.jsonwebtoken com.auth0.jwt org.keycloak',
    ),
    rule('deserialization', 'java.io', 'ObjectInputStream readObject'),
    rule('deserialization', 'java.beans', 'XMLDecoder'),
    rule('deserialization', 'com.esotericsoftware.kryo com.thoughtworks.xstream'),
    rule('env_secrets', '', 'getenv'),
  ],
};

/** The surfaces in the order their items are listed (the policy's order). */
export const SURFACE_ORDER: readonly Surface[] = [
  'process_spawn',
  'eval',
  'filesystem_write',
  'network',
  'crypto',
  'auth',
  'deserialization',
  'env_secrets',
];
