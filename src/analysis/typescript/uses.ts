import type * as ts from 'typescript';
import type { DecoratorMode } from '../../model/facts.js';
import type { ImportEmit } from '../tree-sitter/import-uses.js';
import { typescript } from '../typescript-runtime.js';
import { hasModifier, type Source, startOf, textOf } from './syntax.js';

/** How the file uses what its imports bind, by the rules written down in tree-sitter/import-uses.ts. */

const K = typescript.SyntaxKind;

/** Before the walk: the names the top-level imports bind as values, which the walk watches. */
export function watchImportedNames(source: Source, statements: readonly ts.Statement[]): void {
  const { uses } = source.facts;
  for (const statement of statements) {
    const emit = typescript.isImportDeclaration(statement)
      ? importEmit(source, statement)
      : typescript.isImportEqualsDeclaration(statement)
        ? importEqualsEmit(source, statement)
        : 'never';
    if (typeof emit === 'object') for (const name of emit.values) uses.watch(name);
  }
}

export function importEmit(source: Source, node: ts.ImportDeclaration): ImportEmit {
  const clause = node.importClause;
  if (!isTopLevel(node) || clause?.isTypeOnly === true) return 'never';
  if (clause === undefined) return 'always';
  const values: string[] = [];
  if (clause.name !== undefined) values.push(textOf(source, clause.name));
  const named = clause.namedBindings;
  if (named !== undefined && typescript.isNamespaceImport(named)) {
    values.push(textOf(source, named.name));
  } else if (named !== undefined) {
    for (const element of named.elements)
      if (!element.isTypeOnly) values.push(textOf(source, element.name));
  }
  return values.length === 0 ? 'type-names' : { values };
}

export function importEqualsEmit(source: Source, node: ts.ImportEqualsDeclaration): ImportEmit {
  if (!isTopLevel(node) || node.isTypeOnly) return 'never';
  if (hasModifier(node, K.ExportKeyword)) return 'always';
  return { values: [textOf(source, node.name)] };
}

export function reexportEmit(node: ts.ExportDeclaration): ImportEmit {
  if (!isTopLevel(node) || node.isTypeOnly) return 'never';
  const clause = node.exportClause;
  if (clause === undefined || typescript.isNamespaceExport(clause)) return 'always';
  return clause.elements.some((element) => !element.isTypeOnly) ? 'always' : 'type-names';
}

/** Imports and re-exports elsewhere sit in a `declare module` block: ambient, never emitted. */
function isTopLevel(node: ts.Node): boolean {
  return typescript.isSourceFile(node.parent);
}

/** An identifier the walk meets: a use of an imported name, a local declaration hiding one, or neither. */
export function recordIdentifier(source: Source, id: ts.Identifier): void {
  const { uses } = source.facts;
  const name = id.text;
  if (!uses.watches(name)) return;
  const parent = id.parent;
  const declared = declarationScope(id, parent);
  if (declared !== undefined) {
    if (declared !== null) uses.shadow(name, { start: declared.pos, end: declared.end });
    return;
  }
  if (isReference(id, parent) && isValuePosition(id)) uses.value(name, startOf(source, id));
}

/** A JSX element or fragment: the classic runtime calls its factory there. */
export function recordJsxElement(source: Source, node: ts.Node): void {
  source.facts.uses.jsxElement(startOf(source, node));
}

/**
 * For a value declaration's name, the node whose range it is visible over (null at the top
 * level, where it cannot hide an import); undefined when `id` declares no value.
 */
function declarationScope(id: ts.Identifier, parent: ts.Node): ts.Node | null | undefined {
  switch (parent.kind) {
    case K.VariableDeclaration:
    case K.BindingElement:
    case K.Parameter:
      return (parent as ts.NamedDeclaration).name === id ? bindingScope(parent) : undefined;
    case K.FunctionDeclaration:
    case K.ClassDeclaration:
    case K.EnumDeclaration:
      return (parent as ts.NamedDeclaration).name === id ? blockOf(parent) : undefined;
    case K.FunctionExpression:
    case K.ClassExpression:
      return (parent as ts.NamedDeclaration).name === id ? parent : undefined;
    default:
      return undefined;
  }
}

/** Where a variable, destructured name or parameter is visible. */
function bindingScope(declaration: ts.Node): ts.Node | null {
  let node = declaration;
  while (
    typescript.isBindingElement(node) ||
    typescript.isObjectBindingPattern(node) ||
    typescript.isArrayBindingPattern(node)
  )
    node = node.parent;
  if (typescript.isParameter(node)) return node.parent;
  if (typescript.isCatchClause(node.parent)) return node.parent;
  const list = node.parent;
  const blockScoped = (list.flags & typescript.NodeFlags.BlockScoped) !== 0;
  if (blockScoped) {
    const owner = list.parent;
    // `for (const a of b)`: the loop.
    return isLoop(owner) ? owner : blockOf(owner);
  }
  for (let at = list.parent; ; at = at.parent) {
    if (typescript.isFunctionLike(at)) return at;
    if (typescript.isSourceFile(at)) return null;
  }
}

/** The block (or the top level: null) a declaration statement belongs to. */
function blockOf(statement: ts.Node): ts.Node | null {
  for (let at = statement.parent; ; at = at.parent) {
    switch (at.kind) {
      case K.Block:
      case K.ModuleBlock:
      case K.CaseBlock:
        return at;
      case K.SourceFile:
        return null;
    }
  }
}

function isLoop(node: ts.Node): boolean {
  return (
    node.kind === K.ForStatement || node.kind === K.ForInStatement || node.kind === K.ForOfStatement
  );
}

/** Whether `id` refers to something by its name, rather than naming a member, label or declaration. */
function isReference(id: ts.Identifier, parent: ts.Node): boolean {
  switch (parent.kind) {
    case K.PropertyAccessExpression:
      return (parent as ts.PropertyAccessExpression).name !== id;
    case K.QualifiedName:
      return (parent as ts.QualifiedName).right !== id;
    case K.ShorthandPropertyAssignment:
      return true;
    case K.ExportSpecifier: {
      // A local `export { a as b }` uses `a`, unless written `type`; a re-export names the
      // other module's names.
      const specifier = parent as ts.ExportSpecifier;
      const declaration = specifier.parent.parent;
      if (declaration.moduleSpecifier !== undefined) return false;
      if (specifier.isTypeOnly || declaration.isTypeOnly) return false;
      return (specifier.propertyName ?? specifier.name) === id;
    }
    case K.LabeledStatement:
    case K.BreakStatement:
    case K.ContinueStatement:
    case K.JsxNamespacedName:
    case K.MetaProperty:
      return false;
  }
  const named = parent as { readonly name?: ts.Node; readonly propertyName?: ts.Node };
  return named.name !== id && named.propertyName !== id;
}

/**
 * Whether a reference is to a value that the emit keeps: not inside a type (`typeof a` in a
 * type included), an `implements` clause or an interface's `extends` (an instantiation
 * expression `f<T>` is a value), except inside a computed
 * property name, which is a value even in a type (`{ [a.key]: string }`); and not in an ambient
 * context (a `declare` statement or member, a `declare module`/`namespace`/`global` block).
 */
function isValuePosition(id: ts.Identifier): boolean {
  let value = true;
  let settled = false;
  for (let node: ts.Node = id.parent; !typescript.isSourceFile(node); node = node.parent) {
    if (hasModifier(node, K.DeclareKeyword)) return false;
    if (settled) continue;
    if (node.kind === K.ComputedPropertyName) settled = true;
    else if (node.kind === K.ExpressionWithTypeArguments) {
      if (isHeritage(node)) {
        value = isClassExtends(node);
        settled = true;
      }
    } else if (typescript.isTypeNode(node)) {
      value = false;
      settled = true;
    }
  }
  return value;
}

/** In an `extends`/`implements` clause; elsewhere an instantiation expression (`f<T>`), a value. */
function isHeritage(node: ts.Node): boolean {
  return typescript.isHeritageClause(node.parent);
}

function isClassExtends(node: ts.Node): boolean {
  const clause = node.parent;
  return (
    typescript.isHeritageClause(clause) &&
    clause.token === K.ExtendsKeyword &&
    typescript.isClassLike(clause.parent)
  );
}

/** In a `declare` statement or a `declare module`/`namespace`/`global` block: nothing is emitted. */
function isAmbient(node: ts.Node): boolean {
  for (let at: ts.Node = node; !typescript.isSourceFile(at); at = at.parent)
    if (hasModifier(at, K.DeclareKeyword)) return true;
  return false;
}

/**
 * A decorator: with `emitDecoratorMetadata` TypeScript writes the types of what it decorates
 * (by TypeScript's checker, markDecoratorAliasReferenced): the constructor's parameter types
 * of a decorated class; the type of a decorated property; the parameter and return types of a
 * decorated method; an accessor's type (or its pair's); and, with legacy decorators, for a
 * decorated parameter, the parameter and return types of its method or constructor. Which
 * decorators allow it (nodeCanBeDecorated): legacy ones only on class declarations' members
 * (and never on `#private` ones), standard ones on class expressions' members too, but never
 * on parameters, nor on `abstract` or `declare` properties.
 */
export function recordDecorator(source: Source, decorator: ts.Decorator): void {
  const node = decorator.parent;
  const decorators = typescript.canHaveDecorators(node)
    ? typescript.getDecorators(node)
    : undefined;
  // Once per declaration, at its first decorator.
  // A `declare` property is no ambient context of its own: legacy decorators still describe it.
  const context = typescript.isPropertyDeclaration(node) ? node.parent : node;
  if (decorators?.[0] !== decorator || isAmbient(context)) return;
  const record = (type: ts.TypeNode | undefined, mode: DecoratorMode | null) => {
    if (mode !== null) recordMetadataType(source, type, mode);
  };
  if (typescript.isClassDeclaration(node)) {
    const ctor = node.members.find(
      (member): member is ts.ConstructorDeclaration =>
        typescript.isConstructorDeclaration(member) && member.body !== undefined,
    );
    for (const parameter of ctor?.parameters ?? []) record(parameterType(parameter), 'any');
  } else if (typescript.isPropertyDeclaration(node)) {
    const standard = !hasModifier(node, K.AbstractKeyword) && !hasModifier(node, K.DeclareKeyword);
    record(node.type, memberMode(node, standard));
  } else if (typescript.isMethodDeclaration(node) && node.body !== undefined) {
    const mode = memberMode(node, true);
    for (const parameter of node.parameters) record(parameterType(parameter), mode);
    record(node.type, mode);
  } else if (typescript.isAccessor(node) && node.body !== undefined) {
    record(accessorType(node) ?? pairedAccessorType(source, node), memberMode(node, true));
  } else if (typescript.isParameter(node)) {
    const owner = node.parent;
    const legacy =
      (typescript.isConstructorDeclaration(owner) ||
        typescript.isMethodDeclaration(owner) ||
        typescript.isSetAccessor(owner)) &&
      owner.body !== undefined &&
      typescript.isClassDeclaration(owner.parent) &&
      !isThisParameter(node);
    if (!legacy) return;
    for (const parameter of owner.parameters) record(parameterType(parameter), 'legacy');
    if (!typescript.isConstructorDeclaration(owner)) record(owner.type, 'legacy');
  }
}

/** Which decorators let a member of its class be decorated; `standard`: standard ones allow it. */
function memberMode(node: ts.ClassElement, standard: boolean): DecoratorMode | null {
  const legacy =
    typescript.isClassDeclaration(node.parent) &&
    !(node.name !== undefined && typescript.isPrivateIdentifier(node.name));
  if (legacy && standard) return 'any';
  if (legacy) return 'legacy';
  return standard ? 'es' : null;
}

function parameterType(parameter: ts.ParameterDeclaration): ts.TypeNode | undefined {
  const type = parameter.type;
  if (parameter.dotDotDotToken === undefined || type === undefined) return type;
  // A rest parameter's metadata is its element type.
  if (typescript.isArrayTypeNode(type)) return type.elementType;
  if (typescript.isTypeReferenceNode(type) && type.typeArguments?.length === 1)
    return type.typeArguments[0];
  return undefined;
}

function accessorType(node: ts.AccessorDeclaration): ts.TypeNode | undefined {
  if (typescript.isGetAccessor(node)) return node.type;
  const value = node.parameters.find((parameter) => !isThisParameter(parameter));
  return value?.type;
}

/** The type of the other accessor of the same name (a getter's setter, a setter's getter). */
function pairedAccessorType(source: Source, node: ts.AccessorDeclaration): ts.TypeNode | undefined {
  const isStatic = hasModifier(node, K.StaticKeyword);
  const name = textOf(source, node.name);
  const members: readonly ts.Node[] = typescript.isClassLike(node.parent)
    ? node.parent.members
    : [];
  for (const member of members) {
    if (
      typescript.isAccessor(member) &&
      member.kind !== node.kind &&
      hasModifier(member, K.StaticKeyword) === isStatic &&
      textOf(source, member.name) === name
    )
      return accessorType(member);
  }
  return undefined;
}

function isThisParameter(parameter: ts.ParameterDeclaration): boolean {
  return typescript.isIdentifier(parameter.name) && parameter.name.text === 'this';
}

/** The name decorator metadata writes for a type, by TypeScript's getEntityNameForDecoratorMetadata. */
function recordMetadataType(
  source: Source,
  type: ts.TypeNode | undefined,
  mode: DecoratorMode,
): void {
  const entity = type === undefined ? null : metadataEntity(type);
  if (entity === null) return;
  let root: ts.EntityName = entity.name;
  while (typescript.isQualifiedName(root)) root = root.left;
  const { uses } = source.facts;
  if (uses.watches(root.text)) uses.decoratorMetadata(root.text, mode, entity.loose);
}

interface MetadataEntity {
  readonly name: ts.EntityName;
  /** Found only by skipping `null`/`undefined`, which TypeScript does without strictNullChecks. */
  readonly loose: boolean;
}

function metadataEntity(type: ts.TypeNode): MetadataEntity | null {
  switch (type.kind) {
    case K.UnionType:
    case K.IntersectionType:
      return commonEntity((type as ts.UnionOrIntersectionTypeNode).types);
    case K.ConditionalType: {
      const conditional = type as ts.ConditionalTypeNode;
      return commonEntity([conditional.trueType, conditional.falseType]);
    }
    case K.ParenthesizedType:
    case K.NamedTupleMember:
      return metadataEntity((type as ts.ParenthesizedTypeNode).type);
    case K.TypeReference:
      return { name: (type as ts.TypeReferenceNode).typeName, loose: false };
    default:
      return null;
  }
}

function commonEntity(types: readonly ts.TypeNode[]): MetadataEntity | null {
  let common: MetadataEntity | null = null;
  let loose = false;
  for (const written of types) {
    let type = written;
    while (typescript.isParenthesizedTypeNode(type) || typescript.isNamedTupleMember(type))
      type = type.type;
    if (type.kind === K.NeverKeyword) continue;
    if (type.kind === K.UndefinedKeyword || isNullType(type)) {
      loose = true;
      continue;
    }
    const entity = metadataEntity(type);
    if (entity === null) return null;
    loose ||= entity.loose;
    if (common === null) common = entity;
    else if (!sameIdentifier(common.name, entity.name)) return null;
  }
  return common === null ? null : { name: common.name, loose };
}

function isNullType(type: ts.TypeNode): boolean {
  return typescript.isLiteralTypeNode(type) && type.literal.kind === K.NullKeyword;
}

function sameIdentifier(a: ts.EntityName, b: ts.EntityName): boolean {
  return typescript.isIdentifier(a) && typescript.isIdentifier(b) && a.text === b.text;
}
