import { apiDocument } from '@shiliu/contracts';
import Ajv, { type ValidateFunction } from 'ajv';

type Method = 'get' | 'post' | 'put' | 'delete';
type Operation = { responses: Record<string, { content?: Record<string, { schema: object }> }> };

const validators = new Map<string, ValidateFunction>();
let compiler: { document: ReturnType<typeof apiDocument>; ajv: Ajv } | undefined;

/**
 * How an answer body departs from the checked-in API document's 200 schema of `METHOD template` (e.g.
 * `GET /api/search`); empty when it matches. A service's own tests check its shapes against the contract with it.
 */
export function documentedAnswerProblems(operation: string, body: unknown): string[] {
  if (!validators.has(operation)) {
    compiler ??= (() => {
      const document = apiDocument();
      const ajv = new Ajv({ allErrors: true, strict: false });
      ajv.addSchema({ components: document.components }, 'openapi.json');
      return { document, ajv };
    })();
    const { document, ajv } = compiler;
    const [method, template] = operation.split(' ');
    const found = (document.paths[template] as Record<Method, Operation> | undefined)?.[method.toLowerCase() as Method];
    if (!found) throw new Error(`${operation} is not in the API document`);
    const schema = found.responses['200'].content!['application/json'].schema;
    validators.set(operation, ajv.compile(JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"openapi.json#/components/')) as object));
  }
  const validate = validators.get(operation)!;
  return validate(body) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`);
}
