/**
 * oxc-parser's table of visitor keys, on its own: the package's main module loads the native
 * parser, which the walk over a tree TypeScript made (the Action's bundle) must not need.
 */
declare module 'oxc-parser/src-js/generated/visit/keys' {
  const visitorKeys: Readonly<Record<string, readonly string[]>>;
  export default visitorKeys;
}
