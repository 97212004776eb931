import type { SchemaObject, ReferenceObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import ts from 'typescript';

export type Schema = SchemaObject | ReferenceObject;

/** OpenAPI 3.0 has no null type: a nullable object whose only value is null. */
const NULL_ONLY: SchemaObject = { type: 'object', nullable: true, enum: [null] };

export interface HandlerTypes {
  /** The `data` of the success answer: the handler's return type without Promise and Reply. */
  data: Schema;
  /** The position of the handler's `@Query()` argument, if it takes one. */
  queryIndex: number | null;
}

/**
 * What the @nestjs/swagger CLI plugin does for DTO classes, done for every handler's return type: the TypeScript
 * checker reads the types the controllers already declare or infer, so the answer schemas cannot drift from the
 * code. Named interfaces and classes become components; everything else is inlined.
 */
export class TypeSchemas {
  private components: Record<string, SchemaObject> = {};
  /** Which declaration each component name stands for, per document: two types of one name must not share it. */
  private readonly origins = new WeakMap<Record<string, SchemaObject>, Map<string, ts.Symbol>>();
  private readonly program: ts.Program;
  private readonly checker: ts.TypeChecker;

  /** `sources`: the folders of the project's own code (the services' `src`), whose controllers are read. */
  constructor(tsconfigPath: string, private readonly sources: string[]) {
    const config = ts.getParsedCommandLineOfConfigFile(tsconfigPath, {}, {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    });
    if (!config) throw new Error(`cannot read ${tsconfigPath}`);
    const controllers = sources.flatMap((source) => ts.sys.readDirectory(source, ['.ts'])).filter((file) => file.endsWith('.controller.ts'));
    this.program = ts.createProgram({ rootNames: controllers, options: config.options });
    this.checker = this.program.getTypeChecker();
  }

  private files(fileName: string): boolean {
    return this.sources.some((source) => fileName.startsWith(source));
  }

  /** The handler `Controller.method` as TypeScript sees it; the named types it uses go into `components`. */
  handler(controller: string, method: string, components: Record<string, SchemaObject>): HandlerTypes {
    this.components = components;
    const declaration = this.method(controller, method);
    const signature = this.checker.getSignatureFromDeclaration(declaration);
    if (!signature) throw new Error(`${controller}.${method} has no signature`);
    const query = declaration.parameters.findIndex((parameter) => ts.getDecorators(parameter)?.some((decorator) => decoratorName(decorator) === 'Query'));
    return { data: this.schemaOf(this.unwrap(this.checker.getReturnTypeOfSignature(signature))), queryIndex: query < 0 ? null : query };
  }

  private method(controller: string, method: string): ts.MethodDeclaration {
    for (const file of this.program.getSourceFiles()) {
      if (file.isDeclarationFile || !this.files(file.fileName)) continue;
      for (const statement of file.statements) {
        if (!ts.isClassDeclaration(statement) || statement.name?.text !== controller) continue;
        const found = statement.members.find((member): member is ts.MethodDeclaration => ts.isMethodDeclaration(member) && member.name.getText() === method);
        if (found) return found;
      }
    }
    throw new Error(`handler ${controller}.${method} not found`);
  }

  /** Promise<T> and Reply<T> (a custom success message) both answer T. */
  private unwrap(type: ts.Type): ts.Type {
    const name = type.getSymbol()?.getName();
    if ((name === 'Promise' || name === 'Reply') && this.checker.getTypeArguments(type as ts.TypeReference).length === 1) {
      return this.unwrap(this.checker.getTypeArguments(type as ts.TypeReference)[0]);
    }
    return type;
  }

  private schemaOf(type: ts.Type): Schema {
    const flags = type.flags;
    if (flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return {};
    if (flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined | ts.TypeFlags.Null)) return NULL_ONLY;
    if (flags & ts.TypeFlags.StringLiteral) return { type: 'string', enum: [(type as ts.StringLiteralType).value] };
    if (flags & ts.TypeFlags.NumberLiteral) return { type: 'number', enum: [(type as ts.NumberLiteralType).value] };
    if (flags & ts.TypeFlags.BooleanLiteral) return { type: 'boolean', enum: [this.checker.typeToString(type) === 'true'] };
    if (flags & ts.TypeFlags.String) return { type: 'string' };
    if (flags & ts.TypeFlags.Number) return { type: 'number' };
    if (flags & ts.TypeFlags.Boolean) return { type: 'boolean' };
    if (type.isUnion()) return this.union(type.types);
    if (this.checker.isArrayType(type)) return { type: 'array', items: this.schemaOf(this.checker.getTypeArguments(type as ts.TypeReference)[0]) };
    if (this.checker.isTupleType(type)) {
      const members = this.checker.getTypeArguments(type as ts.TypeReference).map((member) => this.schemaOf(member));
      return { type: 'array', items: members.length === 1 ? members[0] : { anyOf: members }, minItems: members.length, maxItems: members.length };
    }
    const symbol = type.getSymbol();
    if (symbol?.getName() === 'Date') return { type: 'string', format: 'date-time' };
    const name = this.componentName(type);
    if (!name) return this.object(type);
    const origins = this.origins.get(this.components) ?? new Map<string, ts.Symbol>();
    this.origins.set(this.components, origins);
    const origin = type.aliasSymbol ?? type.getSymbol()!;
    const known = origins.get(name);
    if (known && known !== origin) throw new Error(`two types are named ${name}: ${fileOf(known)} and ${fileOf(origin)}`);
    if (!known) {
      origins.set(name, origin);
      // Registered before its properties are read, so a type that contains itself (a comment's replies) ends.
      this.components[name] = {};
      this.components[name] = this.object(type);
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  private union(members: ts.Type[]): Schema {
    const present = members.filter((member) => !(member.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)));
    const nullable = present.some((member) => member.flags & ts.TypeFlags.Null);
    const values = present.filter((member) => !(member.flags & ts.TypeFlags.Null));
    let schema: Schema;
    if (values.length > 0 && values.every((member) => member.flags & ts.TypeFlags.BooleanLiteral)) {
      schema = values.length === 2 ? { type: 'boolean' } : this.schemaOf(values[0]);
    } else if (values.length > 0 && values.every((member) => member.isStringLiteral())) {
      schema = { type: 'string', enum: values.map((member) => (member as ts.StringLiteralType).value) };
    } else if (values.length > 0 && values.every((member) => member.isNumberLiteral())) {
      schema = { type: 'number', enum: values.map((member) => (member as ts.NumberLiteralType).value) };
    } else if (values.length === 1) {
      schema = this.schemaOf(values[0]);
    } else {
      schema = { anyOf: values.map((member) => this.schemaOf(member)) };
    }
    if (!nullable) return schema;
    if ('$ref' in schema) return { anyOf: [schema, NULL_ONLY] };
    return { ...schema, nullable: true, ...(schema.enum ? { enum: [...schema.enum, null] } : {}) };
  }

  private object(type: ts.Type): SchemaObject {
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    for (const property of this.checker.getPropertiesOfType(type)) {
      const declaration = property.valueDeclaration ?? property.declarations?.[0];
      if (!declaration) continue;
      const propertyType = this.checker.getTypeOfSymbolAtLocation(property, declaration);
      if (propertyType.getCallSignatures().length > 0) continue;
      properties[property.getName()] = this.schemaOf(propertyType);
      const optional = (property.flags & ts.SymbolFlags.Optional) !== 0;
      if (!optional) required.push(property.getName());
    }
    const index = this.checker.getIndexInfosOfType(type)[0];
    return {
      type: 'object',
      properties,
      ...(required.length > 0 ? { required } : {}),
      ...(index ? { additionalProperties: this.schemaOf(index.type) } : {}),
    };
  }

  /** Interfaces, classes and type aliases of the project's own code keep their names; generic instances do not. */
  private componentName(type: ts.Type): string | null {
    if (type.aliasSymbol) return type.aliasTypeArguments?.length ? null : this.ownName(type.aliasSymbol);
    const symbol = type.getSymbol();
    if (!symbol || !(symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.Class))) return null;
    if ((type as ts.TypeReference).typeArguments?.length) return null;
    return this.ownName(symbol);
  }

  private ownName(symbol: ts.Symbol): string | null {
    const file = symbol.declarations?.[0]?.getSourceFile().fileName ?? '';
    return this.files(file) ? symbol.getName() : null;
  }
}

function fileOf(symbol: ts.Symbol): string {
  return symbol.declarations?.[0]?.getSourceFile().fileName ?? symbol.getName();
}

function decoratorName(decorator: ts.Decorator): string | null {
  const call = decorator.expression;
  return ts.isCallExpression(call) && ts.isIdentifier(call.expression) ? call.expression.text : null;
}
