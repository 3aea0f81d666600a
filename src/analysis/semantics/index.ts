export { MAX_DEPTH as REEXPORT_LIMIT } from './exported-names.js';
export {
  type AbstractionDeclaration,
  type ClassHeritage,
  type Heritage,
  type HeritageReference,
  resolveHeritage,
  type UnresolvedHeritage,
  unresolvedHeritage,
} from './heritage.js';
export { type AbstractionImplementations, countImplementations } from './implementations.js';
export { type AncestorLink, type ClassInheritance, inheritanceDepth } from './inheritance-depth.js';
export type { DeclarationRef, ReferenceTarget, UnresolvedReason } from './targets.js';
