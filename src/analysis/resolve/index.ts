export { DEFAULT_COMPILER_OPTIONS } from './compiler-defaults.js';
export { createResolver, type Resolver, type ResolverOptions } from './create-resolver.js';
export type { Resolution, ResolveImport } from './resolution.js';
