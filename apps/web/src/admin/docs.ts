/** The parts of an OpenAPI 3 document the docs page reads. */
export interface SchemaObject {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  items?: SchemaObject;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  nullable?: boolean;
  example?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  pattern?: string;
  oneOf?: SchemaObject[];
  allOf?: SchemaObject[];
}

interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: SchemaObject }[];
  requestBody?: { content?: Record<string, { schema?: SchemaObject }> };
  responses?: Record<string, { content?: Record<string, { schema?: SchemaObject }> }>;
}

export interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, SchemaObject> };
}

export interface Param {
  name: string;
  type: string;
  required: boolean;
  description: string;
}

export interface Endpoint {
  method: string;
  path: string;
  title: string;
  description: string;
  auth: boolean;
  params: Param[];
  example: unknown;
}

export interface Group {
  tag: string;
  title: string;
  endpoints: Endpoint[];
}

/** Group titles by the document's tags; a tag not listed shows as itself. */
const GROUP_TITLES: Record<string, string> = {
  auth: '认证与登录',
  users: '用户',
  verification: '身份认证',
  'admin-auth': '管理员账号',
  'admin-monitor': '动态监控',
  categories: '分类',
  posts: '笔记',
  comments: '评论',
  likes: '点赞与收藏',
  tags: '标签',
  follows: '关注',
  notifications: '通知',
  search: '搜索',
  upload: '上传',
  files: '文件',
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function resolve(schema: SchemaObject | undefined, document: OpenApiDocument, depth = 0): SchemaObject {
  if (!schema || depth > 8) return {};
  if (schema.$ref) return resolve(document.components?.schemas?.[schema.$ref.split('/').pop()!], document, depth + 1);
  if (schema.allOf) return schema.allOf.reduce<SchemaObject>((merged, part) => {
    const resolved = resolve(part, document, depth + 1);
    return { ...merged, ...resolved, properties: { ...merged.properties, ...resolved.properties }, required: [...(merged.required ?? []), ...(resolved.required ?? [])] };
  }, {});
  return schema;
}

function typeOf(schema: SchemaObject, document: OpenApiDocument): string {
  const resolved = resolve(schema, document);
  if (resolved.type === 'array') return `${typeOf(resolved.items ?? {}, document)}[]`;
  if (resolved.format === 'binary') return 'file';
  return resolved.type ?? (resolved.properties ? 'object' : 'any');
}

/** A parameter's description: its own, else what its schema allows. */
function describe(schema: SchemaObject, document: OpenApiDocument, where: string, own?: string): string {
  if (own) return own;
  const resolved = resolve(schema, document);
  const parts = [where];
  if (resolved.enum) parts.push(`可选值：${resolved.enum.join('、')}`);
  if (resolved.minimum !== undefined || resolved.maximum !== undefined) parts.push(`范围 ${resolved.minimum ?? ''}~${resolved.maximum ?? ''}`);
  if (resolved.minLength !== undefined || resolved.maxLength !== undefined) parts.push(`长度 ${resolved.minLength ?? 0}~${resolved.maxLength ?? ''}`);
  if (resolved.maxItems !== undefined) parts.push(`最多 ${resolved.maxItems} 项`);
  if (resolved.format) parts.push(`格式 ${resolved.format}`);
  if (resolved.description) parts.push(resolved.description);
  return parts.join('，');
}

/** An example value for a schema: its own example, else one built from its type. */
export function exampleOf(schema: SchemaObject | undefined, document: OpenApiDocument, depth = 0): unknown {
  const resolved = resolve(schema, document);
  if (resolved.example !== undefined) return resolved.example;
  if (depth > 6) return null;
  if (resolved.enum?.length) return resolved.enum[0];
  if (resolved.oneOf?.length) return exampleOf(resolved.oneOf[0], document, depth + 1);
  if (resolved.properties) return Object.fromEntries(Object.entries(resolved.properties).map(([key, value]) => [key, exampleOf(value, document, depth + 1)]));
  switch (resolved.type ?? '') {
    case 'array':
      return [exampleOf(resolved.items, document, depth + 1)];
    case 'integer':
    case 'number':
      return resolved.minimum ?? 1;
    case 'boolean':
      return true;
    case 'string':
      return resolved.format === 'date-time' ? '2024-09-28T08:00:00.000Z' : resolved.format === 'uuid' ? '3f1c2a9e-8b7d-4c61-9a0e-2b5d7f4e6c11' : 'string';
    case 'object':
      return {};
    default:
      return null;
  }
}

/** The document as collapsible groups of endpoints with their parameter tables and example answers (§2.5). */
export function buildGroups(document: OpenApiDocument): Group[] {
  const groups = new Map<string, Group>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? 'other';
      const params: Param[] = (operation.parameters ?? []).map((param) => ({
        name: param.name,
        type: typeOf(param.schema ?? {}, document),
        required: !!param.required,
        description: describe(param.schema ?? {}, document, param.in === 'path' ? '路径参数' : param.in === 'query' ? '查询参数' : '请求头', param.description),
      }));
      const bodySchema = resolve(Object.values(operation.requestBody?.content ?? {})[0]?.schema, document);
      for (const [name, schema] of Object.entries(bodySchema.properties ?? {})) params.push({ name, type: typeOf(schema, document), required: bodySchema.required?.includes(name) ?? false, description: describe(schema, document, '请求体') });
      const success = operation.responses?.['200'] ?? operation.responses?.['201'];
      const answer = Object.values(success?.content ?? {})[0]?.schema;
      const group = groups.get(tag) ?? { tag, title: GROUP_TITLES[tag] ?? tag, endpoints: [] };
      group.endpoints.push({
        method: method.toUpperCase(),
        path,
        title: operation.summary ?? path,
        description: operation.description ?? operation.summary ?? '',
        // Every admin endpoint needs the administrator's token (§2.5), whether or not its operation says so.
        auth: (operation.security?.length ?? 0) > 0 || path.startsWith('/api/admin/'),
        params,
        example: answer ? exampleOf(answer, document) : { code: 200, message: 'success', data: null },
      });
      groups.set(tag, group);
    }
  }
  return [...groups.values()];
}

/** The groups keeping only endpoints whose path, title or description contains the query (case-insensitive). */
export function filterGroups(groups: Group[], query: string): Group[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return groups;
  return groups
    .map((group) => ({ ...group, endpoints: group.endpoints.filter((endpoint) => [endpoint.path, endpoint.title, endpoint.description].some((text) => text.toLowerCase().includes(needle))) }))
    .filter((group) => group.endpoints.length > 0);
}

/** A text split into the parts that match the query and those that do not, for highlighting. */
export function highlightParts(text: string, query: string): { text: string; match: boolean }[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [{ text, match: false }];
  const parts: { text: string; match: boolean }[] = [];
  const lower = text.toLowerCase();
  let at = 0;
  for (let found = lower.indexOf(needle); found !== -1; found = lower.indexOf(needle, at)) {
    if (found > at) parts.push({ text: text.slice(at, found), match: false });
    parts.push({ text: text.slice(found, found + needle.length), match: true });
    at = found + needle.length;
  }
  if (at < text.length) parts.push({ text: text.slice(at), match: false });
  return parts;
}
