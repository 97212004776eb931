import { buildGroups, filterGroups, highlightParts, type OpenApiDocument } from './docs';

const document: OpenApiDocument = {
  info: { title: 'Shiliu API', version: '1.2.0' },
  paths: {
    '/api/posts/{id}': {
      get: {
        summary: '笔记详情',
        tags: ['posts'],
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'number' } }],
        responses: { '200': { content: { 'application/json': { schema: { type: 'object', properties: { code: { type: 'integer', enum: [200] }, data: { $ref: '#/components/schemas/Post' } } } } } } },
      },
    },
    '/api/admin/monitor/activities': {
      get: { summary: '最新动态', tags: ['admin-monitor'], parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } }] },
    },
    '/api/auth/admin/login': {
      post: {
        summary: '管理员登录',
        tags: ['admin-auth'],
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Login' } } } },
      },
    },
  },
  components: {
    schemas: {
      Post: { type: 'object', properties: { id: { type: 'number' }, title: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } }, created_at: { type: 'string', format: 'date-time' } } },
      Login: { type: 'object', required: ['username'], properties: { username: { type: 'string', maxLength: 50 }, captchaId: { type: 'string', format: 'uuid' } } },
    },
  },
};

describe('the API docs page', () => {
  const groups = buildGroups(document);

  it('groups endpoints by tag with Chinese titles, parameter tables and example answers', () => {
    expect(groups.map((group) => group.title)).toEqual(['笔记', '动态监控', '管理员账号']);
    const [detail] = groups[0].endpoints;
    expect(detail).toMatchObject({ method: 'GET', path: '/api/posts/{id}', title: '笔记详情', auth: false });
    expect(detail.params).toEqual([{ name: 'id', type: 'number', required: true, description: '路径参数' }]);
    expect(detail.example).toEqual({ code: 200, data: { id: 1, title: 'string', tags: ['string'], created_at: '2024-09-28T08:00:00.000Z' } });
    expect(groups[2].endpoints[0].params).toEqual([
      { name: 'username', type: 'string', required: true, description: '请求体，长度 0~50' },
      { name: 'captchaId', type: 'string', required: false, description: '请求体，格式 uuid' },
    ]);
  });
  it('marks every admin endpoint as needing authentication', () => {
    expect(groups[1].endpoints[0].auth).toBe(true);
    expect(groups[1].endpoints[0].params[0].description).toBe('查询参数，范围 1~100');
  });
  it('filters by path, title or description, ignoring case, and drops empty groups', () => {
    expect(filterGroups(groups, 'ADMIN').flatMap((group) => group.endpoints.map((endpoint) => endpoint.path))).toEqual(['/api/admin/monitor/activities', '/api/auth/admin/login']);
    expect(filterGroups(groups, '详情').map((group) => group.tag)).toEqual(['posts']);
    expect(filterGroups(groups, 'nothing-like-this')).toEqual([]);
    expect(filterGroups(groups, '  ')).toBe(groups);
  });
  it('splits a text around every match for highlighting', () => {
    expect(highlightParts('/api/admin/Admins', 'admin')).toEqual([
      { text: '/api/', match: false },
      { text: 'admin', match: true },
      { text: '/', match: false },
      { text: 'Admin', match: true },
      { text: 's', match: false },
    ]);
  });
});
