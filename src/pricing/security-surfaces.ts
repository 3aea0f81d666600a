import type { Language } from '../model/facts.js';
import type { Policy } from '../model/policy.js';

/** A sensitive surface: one of the policy's `pricing.security` weights. */
export type Surface = keyof Policy['pricing']['security'];

/**
 * One way a file touches a surface, read from its facts. What counts is what a name resolves
 * to (price-security.ts), never a method name alone: `query.fetch()` is no network call and
 * `s.replace()` no file write.
 * - `module`: a runtime import of a matching module, or a call that resolves into one
 *   (Python's `urllib.request.urlopen()` after `import urllib`), is the touch: every use of the
 *   module is the surface (`child_process`, `subprocess`, `pickle`).
 * - `exports`: a call that resolves to one of `names` of a matching module (`fs.writeFileSync`,
 *   `os.system`, `Files.write`; a name also covers what is under it: `environ` covers
 *   `os.environ.get`), or an import of one by name (`import { rm } from 'fs'`). Importing the
 *   module alone is not the touch (importing `fs` to read is not a write).
 * - `global`: a call of a global (a root name the file neither imports nor declares) named in
 *   `names`, or under it (`crypto.subtle.digest`); JavaScript only: Java's globals are
 *   `java.lang`'s exports, Python's and Go's builtins touch nothing here.
 * - `methods`: a call of one of `methods` on any object, in a file that also calls `via` of a
 *   matching module: the object is one `via` made (`Path(p)` then `out.write_text()`;
 *   `Runtime.getRuntime().exec()`). The method name alone would be a guess; with the class in
 *   use in the file it is the common case, and the variable holding the object is not a fact.
 * Patterns in `modules`: the specifier itself, anything under it (`fs` matches `fs/promises`,
 * `java.net` matches `java.net.http`), or a `*` prefix (`passport-*`). Type-only imports never
 * count (erased at run time). Eval is also read from the facts' reflection (`eval`,
 * `new Function`, Python `eval`/`exec`).
 *
 * Limits, from what facts hold: member reads are not facts (`process.env.X`, `os.environ['X']`
 * are invisible: env/secrets is seen through calls such as `os.getenv`, `os.environ.get`,
 * `System.getenv`, and `dotenv`-like imports); call arguments are not facts, so Python's
 * `open(path, 'w')` cannot be told from a read.
 */
export type SurfaceRule =
  | { readonly kind: 'module'; readonly surface: Surface; readonly modules: readonly string[] }
  | {
      readonly kind: 'exports';
      readonly surface: Surface;
      readonly modules: readonly string[];
      readonly names: readonly string[];
    }
  | { readonly kind: 'global'; readonly surface: Surface; readonly names: readonly string[] }
  | {
      readonly kind: 'methods';
      readonly surface: Surface;
      readonly modules: readonly string[];
      readonly via: readonly string[];
      readonly methods: readonly string[];
    };

export type LanguageFamily = 'script' | 'python' | 'go' | 'java';

export function familyOf(language: Language): LanguageFamily {
  if (language === 'typescript' || language === 'tsx' || language === 'javascript') return 'script';
  return language;
}

const words = (text: string): string[] => text.split(/\s+/).filter((word) => word !== '');

function modules(surface: Surface, patterns: string): SurfaceRule {
  return { kind: 'module', surface, modules: words(patterns) };
}

function exports(surface: Surface, patterns: string, names: string): SurfaceRule {
  return { kind: 'exports', surface, modules: words(patterns), names: words(names) };
}

function globals(surface: Surface, names: string): SurfaceRule {
  return { kind: 'global', surface, names: words(names) };
}

function methods(surface: Surface, patterns: string, via: string, called: string): SurfaceRule {
  return {
    kind: 'methods',
    surface,
    modules: words(patterns),
    via: words(via),
    methods: words(called),
  };
}

/** Node's fs writers, each also as its `…Sync` twin and as `promises.…`. */
const NODE_FS_WRITERS = words(
  'writeFile appendFile unlink rm rmdir rename mkdir mkdtemp copyFile cp truncate symlink link chmod chown utimes',
);
const NODE_FS_WRITES = [
  ...NODE_FS_WRITERS.flatMap((name) => [name, `${name}Sync`, `promises.${name}`]),
  'createWriteStream',
].join(' ');

/** The table: per language family, every rule that makes a file touch a surface. */
export const SURFACE_RULES: Readonly<Record<LanguageFamily, readonly SurfaceRule[]>> = {
  script: [
    // Spawning processes is all these modules do.
    modules('process_spawn', 'child_process execa cross-spawn shelljs zx node-pty'),
    // Node's and sandboxing libraries' code evaluation.
    modules('eval', 'vm vm2 isolated-vm'),
    // Node's internal bindings run native code without a module (`spawn_sync`, `fs`), as does
    // an addon loaded by its path, and WebAssembly compiled from bytes the code is handed.
    globals(
      'eval',
      'process.binding process._linkedBinding process.dlopen WebAssembly.instantiate WebAssembly.instantiateStreaming WebAssembly.compile WebAssembly.compileStreaming WebAssembly.Module',
    ),
    // fs also reads: only its writing functions are the touch, however fs is imported.
    exports('filesystem_write', 'fs graceful-fs', NODE_FS_WRITES),
    exports(
      'filesystem_write',
      'fs-extra',
      `${NODE_FS_WRITES} outputFile outputJson writeJson remove move copy emptyDir ensureDir ensureFile mkdirp mkdirs`,
    ),
    // Packages whose only job is writing or deleting files.
    modules('filesystem_write', 'rimraf del mkdirp make-dir write-file-atomic proper-lockfile'),
    // Sockets, HTTP clients and servers.
    modules(
      'network',
      'http https http2 net tls dgram dns axios node-fetch cross-fetch got undici ky superagent request ws socket.io socket.io-client express fastify koa',
    ),
    // The platform's network globals (not a method named `fetch` on some object).
    globals('network', 'fetch WebSocket XMLHttpRequest EventSource'),
    modules(
      'crypto',
      'crypto bcrypt bcryptjs argon2 crypto-js tweetnacl node-forge @noble/* scrypt-js',
    ),
    // Web Crypto: the `crypto` global of browsers, Deno and Node ≥ 19.
    globals('crypto', 'crypto'),
    modules(
      'auth',
      'passport passport-* jsonwebtoken jose oauth oauth4webapi simple-oauth2 express-session cookie-session next-auth @auth/* openid-client keycloak-connect @okta/* firebase-admin/auth',
    ),
    // Libraries that rebuild objects (and code) from bytes.
    modules('deserialization', 'node-serialize funcster cryo'),
    exports('deserialization', 'v8', 'deserialize'),
    // js-yaml's `load` builds arbitrary types in its older versions; `dump` is harmless.
    exports('deserialization', 'js-yaml', 'load loadAll'),
    modules('env_secrets', 'dotenv dotenv-* @dotenvx/* env-var envalid keytar'),
  ],
  python: [
    modules('process_spawn', 'subprocess pexpect plumbum'),
    // `os` is mostly paths and files: only its process functions spawn.
    exports(
      'process_spawn',
      'os',
      'system popen execv execve execvp execvpe execl execle execlp execlpe spawnv spawnve spawnl spawnle posix_spawn posix_spawnp startfile',
    ),
    exports('process_spawn', 'asyncio', 'create_subprocess_exec create_subprocess_shell'),
    modules('eval', 'runpy'),
    // tempfile creates files and folders; shutil also reads (`which`, `disk_usage`).
    modules('filesystem_write', 'tempfile'),
    exports(
      'filesystem_write',
      'shutil',
      'copy copy2 copyfile copytree copymode copystat move rmtree chown make_archive unpack_archive',
    ),
    exports(
      'filesystem_write',
      'os',
      'remove unlink rename renames replace mkdir makedirs rmdir removedirs chmod chown lchown symlink link truncate mkfifo',
    ),
    // A Path's writers, on a file that makes Paths (`rename`/`replace` left out: `str.replace`).
    methods(
      'filesystem_write',
      'pathlib',
      'Path PosixPath WindowsPath',
      'write_text write_bytes touch mkdir unlink rmdir chmod symlink_to hardlink_to',
    ),
    // Clients and servers; `urllib.parse` and `http.HTTPStatus` are not network.
    modules(
      'network',
      'requests urllib.request urllib3 httpx aiohttp socket socketserver http.client http.server xmlrpc ftplib smtplib poplib imaplib websockets grpc paramiko flask fastapi django.http',
    ),
    modules('crypto', 'hashlib hmac secrets ssl cryptography Crypto Cryptodome nacl bcrypt argon2'),
    modules(
      'auth',
      'flask_login flask_jwt_extended django.contrib.auth jwt authlib oauthlib passlib rest_framework.authentication fastapi.security',
    ),
    // These rebuild objects (and run code) from bytes.
    modules('deserialization', 'pickle cPickle _pickle dill marshal shelve jsonpickle joblib'),
    // PyYAML's loaders other than safe_load build arbitrary objects.
    exports('deserialization', 'yaml', 'load load_all unsafe_load full_load'),
    exports('env_secrets', 'os', 'getenv getenvb putenv unsetenv environ environb'),
    modules('env_secrets', 'dotenv environ decouple keyring'),
  ],
  go: [
    modules('process_spawn', 'os/exec'),
    exports('process_spawn', 'os syscall', 'StartProcess Exec ForkExec'),
    // Loads compiled code at run time; cgo's `import "C"` runs C the analysis does not read.
    modules('eval', 'plugin C'),
    // `os` also reads: only its writers.
    exports(
      'filesystem_write',
      'os',
      'WriteFile Create CreateTemp OpenFile Remove RemoveAll Rename Mkdir MkdirAll MkdirTemp Chmod Chown Symlink Link Truncate',
    ),
    exports('filesystem_write', 'io/ioutil', 'WriteFile TempFile TempDir'),
    // `net` also parses addresses: only its dialers and listeners.
    exports(
      'network',
      'net',
      'Dial DialTimeout DialTCP DialUDP DialUnix Listen ListenPacket ListenTCP ListenUDP',
    ),
    modules(
      'network',
      'net/http net/rpc net/smtp google.golang.org/grpc github.com/gorilla/websocket github.com/gin-gonic/gin',
    ),
    modules('crypto', 'crypto golang.org/x/crypto'),
    modules(
      'auth',
      'golang.org/x/oauth2 github.com/golang-jwt/jwt github.com/dgrijalva/jwt-go github.com/coreos/go-oidc',
    ),
    // gob decodes into any registered type.
    modules('deserialization', 'encoding/gob'),
    exports('env_secrets', 'os syscall', 'Getenv LookupEnv Environ Setenv'),
    modules(
      'env_secrets',
      'github.com/joho/godotenv github.com/kelseyhightower/envconfig github.com/spf13/viper',
    ),
  ],
  java: [
    // java.lang's classes need no import: `new ProcessBuilder(…)`, `Runtime.getRuntime().exec(…)`.
    exports('process_spawn', 'java.lang', 'ProcessBuilder'),
    methods('process_spawn', 'java.lang', 'Runtime.getRuntime', 'exec'),
    modules('process_spawn', 'org.apache.commons.exec'),
    modules('eval', 'javax.script groovy.lang org.mozilla.javascript'),
    exports(
      'filesystem_write',
      'java.nio.file',
      'Files.write Files.writeString Files.createFile Files.createDirectory Files.createDirectories Files.createTempFile Files.createTempDirectory Files.delete Files.deleteIfExists Files.move Files.copy Files.newOutputStream Files.newBufferedWriter',
    ),
    // Writers that open a file (a PrintWriter mostly wraps another writer: left out).
    exports('filesystem_write', 'java.io', 'FileOutputStream FileWriter RandomAccessFile'),
    methods('filesystem_write', 'java.io', 'File', 'mkdir mkdirs createNewFile renameTo delete'),
    // `java.net.URI` and `URLEncoder` only parse: sockets, connections and HTTP clients.
    exports('network', 'java.net', 'Socket ServerSocket DatagramSocket MulticastSocket'),
    methods('network', 'java.net', 'URL URI.toURL', 'openConnection openStream'),
    modules(
      'network',
      'java.net.http javax.net okhttp3 org.apache.http org.apache.hc retrofit2 org.springframework.web.client org.springframework.web.reactive.function.client io.netty',
    ),
    modules('crypto', 'javax.crypto java.security org.bouncycastle'),
    modules(
      'auth',
      'org.springframework.security javax.security.auth jakarta.security io.jsonwebtoken com.auth0.jwt org.keycloak',
    ),
    // Java serialization and XML bean decoding build any class on the class path.
    exports('deserialization', 'java.io', 'ObjectInputStream'),
    exports('deserialization', 'java.beans', 'XMLDecoder'),
    modules('deserialization', 'com.esotericsoftware.kryo com.thoughtworks.xstream'),
    exports('env_secrets', 'java.lang', 'System.getenv'),
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
