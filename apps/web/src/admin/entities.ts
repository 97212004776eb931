import { api, call } from '../lib/api/client';
import { toast } from '../lib/toast';
import { adminCall } from './api';
import type { CellKind, EntityDeclaration, FormField, Option, Row } from './table/types';
import { initialValues } from './table/validate';

const options = (labels: Record<string, string>): Option[] => Object.entries(labels).map(([value, label]) => ({ value, label }));
const date: CellKind = { kind: 'date' };
const id = { key: 'id', label: 'ID', sortable: true, width: 64 };
const created = { key: 'created_at', label: '创建时间', cell: date, sortable: true, width: 150 };
const userLink = (key: string, display: string, label: string) => ({ key, label, cell: { kind: 'user', display } as CellKind, width: 110 });

export const POST_TYPES = { '1': '图文', '2': '视频' };
export const TARGET_TYPES = { '1': '笔记', '2': '评论' };
/** §3: the notification types 1-8. */
export const NOTIFICATION_TYPES = { '1': '点赞笔记', '2': '点赞评论', '3': '收藏笔记', '4': '评论笔记', '5': '回复评论', '6': '关注', '7': '评论提及', '8': '笔记提及' };
/** §3 gives two readings of the verification type; the screen's (1 official, 2 personal) is the one users apply with. */
export const VERIFICATION_TYPES = { '1': '官方认证', '2': '个人认证' };
/** The application's fields by type (libs/auth verification-content), shown by their Chinese names. */
const VERIFICATION_FIELDS = { org_name: '机构名称', credit_code: '统一社会信用代码', contact_name: '联系人姓名', contact_phone: '联系电话', real_name: '真实姓名', id_card: '身份证号', occupation: '职业', reason: '申请理由' };
export const AUDIT_STATUS = { '0': { label: '待审核', tone: 'pending' }, '1': { label: '已通过', tone: 'ok' }, '2': { label: '已拒绝', tone: 'bad' } } as const;
const VERIFIED = { '0': '未认证', '1': '官方认证', '2': '个人认证' };
/** §3: the user's gender is male or female; unset is no choice at all. */
const GENDERS = ['男', '女'];
const ZODIAC = ['白羊座', '金牛座', '双子座', '巨蟹座', '狮子座', '处女座', '天秤座', '天蝎座', '射手座', '摩羯座', '水瓶座', '双鱼座'];
/** Every MBTI type from the pairs E/I, S/N, T/F, J/P. */
const MBTI = ['E', 'I'].flatMap((a) => ['S', 'N'].flatMap((b) => ['T', 'F'].flatMap((c) => ['J', 'P'].map((d) => a + b + c + d))));
const EDUCATION = ['高中', '大专', '本科', '硕士', '博士'];
const list = (values: string[]): Option[] => values.map((value) => ({ value, label: value }));
const YES_NO: Option[] = [
  { value: '1', label: '是' },
  { value: '0', label: '否' },
];
const required = (key: string, label: string, extra: Partial<FormField> = {}): FormField => ({ key, label, type: 'text', required: true, ...extra });

/** A like's or collection's row names its user by numeric id; the form asks for the product ID. */
const byDisplayId = (row: Record<string, unknown>): Record<string, unknown> => ({ ...row, user_id: row.user_display_id ?? row.user_id });

/** The post form's categories, from the public list (§7: path not shown). */
async function categoryOptions(): Promise<Option[]> {
  const categories = await call(api.GET('/api/categories'));
  return categories.map((category) => ({ value: String(category.id), label: category.name }));
}

const users: EntityDeclaration = {
  name: 'users',
  title: '用户管理',
  noun: '用户',
  columns: [
    id,
    { key: 'user_id', label: '小石榴号', cell: { kind: 'user', display: 'user_id' }, sortable: true, width: 110 },
    { key: 'nickname', label: '昵称', sortable: true, width: 100 },
    { key: 'avatar', label: '头像', cell: { kind: 'image' } },
    { key: 'bio', label: '简介', cell: { kind: 'content', max: 20 }, width: 140 },
    { key: 'location', label: 'IP属地', width: 80 },
    { key: 'personality_tags', label: '个性标签', cell: { kind: 'personality' } },
    { key: 'verified', label: '认证', cell: { kind: 'status', labels: { '0': { label: '未认证', tone: 'muted' }, '1': { label: '官方认证', tone: 'ok' }, '2': { label: '个人认证', tone: 'pending' } } } },
    { key: 'follow_count', label: '关注', sortable: true },
    { key: 'fans_count', label: '粉丝', sortable: true },
    { key: 'like_count', label: '获赞', sortable: true },
    { key: 'is_active', label: '账号', cell: { kind: 'boolean', yes: '正常', no: '已禁用' } },
    created,
  ],
  filters: [
    { key: 'search', label: '关键词', type: 'text' },
    { key: 'user_display_id', label: '小石榴号', type: 'text' },
    { key: 'location', label: 'IP属地', type: 'text' },
    { key: 'verified', label: '认证', type: 'select', options: options(VERIFIED) },
    { key: 'is_active', label: '账号', type: 'select', options: [{ value: '1', label: '正常' }, { value: '0', label: '已禁用' }] },
  ],
  form: [
    required('user_id', '小石榴号', { max: 15 }),
    required('nickname', '昵称', { max: 10 }),
    { key: 'password', label: '密码', type: 'password', required: true, min: 6, max: 20, only: 'create' },
    { key: 'avatar', label: '头像地址', type: 'text', upload: 'image', placeholder: '上传图片或输入地址' },
    { key: 'bio', label: '简介', type: 'textarea', max: 200 },
    { key: 'location', label: 'IP属地', type: 'text', max: 50 },
    { key: 'gender', label: '性别', type: 'select', options: list(GENDERS) },
    { key: 'zodiac_sign', label: '星座', type: 'select', options: list(ZODIAC) },
    { key: 'mbti', label: 'MBTI', type: 'select', options: list(MBTI) },
    { key: 'education', label: '学历', type: 'select', options: list(EDUCATION) },
    { key: 'major', label: '专业', type: 'text', max: 11 },
    { key: 'interests', label: '兴趣', type: 'list' },
    { key: 'verified', label: '认证', type: 'radio', options: options(VERIFIED) },
    { key: 'is_active', label: '允许登录（取消勾选即禁用并让其下线）', type: 'boolean', only: 'edit' },
  ],
  describe: (row) => `确定要删除用户「${row.nickname ?? row.user_id}」吗？`,
  // The list row carries personality tags as one field; the form edits them one by one.
  loadForEdit: async (row) => {
    const tags = (row.personality_tags ?? {}) as Record<string, unknown>;
    return initialValues(users.form, { ...tags, ...row });
  },
};

const postForm: FormField[] = [
  required('user_id', '作者小石榴号', { readOnlyOnEdit: true }),
  required('title', '标题', { max: 100 }),
  { key: 'content', label: '内容', type: 'textarea', required: true },
  { key: 'category_id', label: '分类', type: 'select', required: true, numeric: true, loadOptions: categoryOptions },
  { key: 'type', label: '类型', type: 'radio', required: true, options: options(POST_TYPES) },
  { key: 'is_draft', label: '存为草稿', type: 'boolean' },
  { key: 'view_count', label: '浏览量', type: 'number', min: 0 },
  { key: 'tags', label: '标签', type: 'list', max: 10 },
  { key: 'images', label: '图片', type: 'images', max: 9, when: (values) => values.type !== '2' },
  { key: 'video_url', label: '视频地址', type: 'text', required: true, upload: 'video', placeholder: '上传视频（mp4/avi/mov，最大100MB）或输入地址', when: (values) => values.type === '2' },
  { key: 'cover_url', label: '封面地址', type: 'text', upload: 'image', placeholder: '上传图片或输入地址', when: (values) => values.type === '2' },
];

const posts: EntityDeclaration = {
  name: 'posts',
  title: '笔记管理',
  noun: '笔记',
  columns: [
    id,
    { key: 'title', label: '标题', cell: { kind: 'content', max: 16 }, width: 160 },
    userLink('nickname', 'user_display_id', '作者'),
    { key: 'category', label: '分类' },
    { key: 'type', label: '类型', cell: { kind: 'map', labels: POST_TYPES } },
    { key: 'is_draft', label: '状态', cell: { kind: 'status', labels: { '0': { label: '已发布', tone: 'ok' }, false: { label: '已发布', tone: 'ok' }, '1': { label: '草稿', tone: 'muted' }, true: { label: '草稿', tone: 'muted' } } } },
    { key: 'content', label: '内容', cell: { kind: 'content', max: 20, rich: true }, width: 160 },
    { key: 'tags', label: '标签', cell: { kind: 'tags' } },
    { key: 'images', label: '媒体', cell: { kind: 'gallery' } },
    { key: 'view_count', label: '浏览', sortable: true },
    { key: 'like_count', label: '点赞', sortable: true },
    { key: 'collect_count', label: '收藏', sortable: true },
    { key: 'comment_count', label: '评论', sortable: true },
    created,
  ],
  filters: [
    { key: 'title', label: '标题', type: 'text' },
    { key: 'user_display_id', label: '小石榴号', type: 'text' },
    { key: 'type', label: '类型', type: 'select', options: options(POST_TYPES) },
    { key: 'is_draft', label: '状态', type: 'select', options: [{ value: '0', label: '已发布' }, { value: '1', label: '草稿' }] },
  ],
  form: postForm,
  describe: (row) => `确定要删除笔记「${row.title ?? row.id}」吗？`,
  // The server takes a video note's file as one video object.
  transform: ({ video_url, cover_url, ...body }) => (video_url ? { ...body, video: { url: video_url, ...(cover_url ? { cover_url } : {}) } } : body),
  loadForEdit: async (row) => {
    const post = await adminCall<Record<string, unknown>>('GET', `/api/admin/posts/${row.id}`);
    return initialValues(postForm, { ...row, ...post, user_id: post.user_display_id ?? row.user_display_id });
  },
};

const comments: EntityDeclaration = {
  name: 'comments',
  title: '评论管理',
  noun: '评论',
  columns: [
    id,
    { key: 'content', label: '内容', cell: { kind: 'content', max: 24, rich: true }, width: 200 },
    userLink('nickname', 'user_display_id', '评论者'),
    { key: 'post_id', label: '笔记', cell: { kind: 'post' } },
    { key: 'post_title', label: '笔记标题', cell: { kind: 'content', max: 12 } },
    { key: 'parent_id', label: '回复评论', cell: { kind: 'comment', post: 'post_id' } },
    { key: 'like_count', label: '点赞', sortable: true },
    created,
  ],
  filters: [
    { key: 'post_id', label: '笔记ID', type: 'text' },
    { key: 'user_display_id', label: '小石榴号', type: 'text' },
    { key: 'content', label: '内容', type: 'text' },
  ],
  // Only the text changes on edit: where a comment sits and who wrote it stay.
  form: [
    required('post_id', '笔记ID', { type: 'number', readOnlyOnEdit: true }),
    { key: 'content', label: '内容', type: 'textarea', required: true, max: 20000 },
    required('user_id', '评论者小石榴号', { max: 32, readOnlyOnEdit: true }),
    { key: 'parent_id', label: '回复评论ID', type: 'number', readOnlyOnEdit: true },
  ],
  describe: (row) => `确定要删除这条评论（ID ${row.id}）吗？`,
};

const categories: EntityDeclaration = {
  name: 'categories',
  title: '分类管理',
  noun: '分类',
  columns: [id, { key: 'name', label: '名称', sortable: true }, { key: 'category_title', label: '英文标题' }, { key: 'post_count', label: '笔记数', sortable: true }, created],
  filters: [
    { key: 'name', label: '名称', type: 'text' },
    { key: 'category_title', label: '英文标题', type: 'text' },
  ],
  form: [required('name', '名称', { max: 50 }), required('category_title', '英文标题', { max: 50, pattern: { regex: /^[a-z]+$/, message: '只能输入小写英文字母' } })],
  describe: (row) => `确定要删除分类「${row.name}」吗？`,
};

const tags: EntityDeclaration = {
  name: 'tags',
  title: '标签管理',
  noun: '标签',
  columns: [id, { key: 'name', label: '名称', sortable: true }, { key: 'use_count', label: '使用次数', sortable: true }, created],
  filters: [{ key: 'name', label: '名称', type: 'text' }],
  form: [required('name', '名称', { max: 50 })],
  describe: (row) => `确定要删除标签「${row.name}」吗？`,
};

const likes: EntityDeclaration = {
  name: 'likes',
  title: '点赞管理',
  noun: '点赞',
  columns: [id, userLink('nickname', 'user_display_id', '用户'), { key: 'target_type', label: '目标类型', cell: { kind: 'map', labels: TARGET_TYPES } }, { key: 'target_id', label: '目标ID' }, created],
  filters: [
    { key: 'user_display_id', label: '小石榴号', type: 'text' },
    { key: 'target_type', label: '目标类型', type: 'select', options: options(TARGET_TYPES) },
    { key: 'target_id', label: '目标ID', type: 'text' },
  ],
  form: [required('user_id', '用户小石榴号', { max: 32 }), { key: 'target_type', label: '目标类型', type: 'radio', required: true, options: options(TARGET_TYPES) }, required('target_id', '目标ID', { type: 'number' })],
  loadForEdit: async (row) => initialValues(likes.form, byDisplayId(row)),
};

const collections: EntityDeclaration = {
  name: 'collections',
  title: '收藏管理',
  noun: '收藏',
  columns: [id, userLink('nickname', 'user_display_id', '用户'), { key: 'post_id', label: '笔记', cell: { kind: 'post' } }, { key: 'post_title', label: '笔记标题', cell: { kind: 'content', max: 20 } }, created],
  filters: [
    { key: 'user_display_id', label: '小石榴号', type: 'text' },
    { key: 'post_id', label: '笔记ID', type: 'text' },
  ],
  form: [required('user_id', '用户小石榴号', { max: 32 }), required('post_id', '笔记ID', { type: 'number' })],
  loadForEdit: async (row) => initialValues(collections.form, byDisplayId(row)),
};

const follows: EntityDeclaration = {
  name: 'follows',
  title: '关注管理',
  noun: '关注',
  columns: [
    id,
    userLink('follower_display_id', 'follower_display_id', '关注者'),
    { key: 'follower_nickname', label: '关注者昵称' },
    userLink('following_display_id', 'following_display_id', '被关注者'),
    { key: 'following_nickname', label: '被关注者昵称' },
    created,
  ],
  filters: [
    { key: 'follower_display_id', label: '关注者', type: 'text' },
    { key: 'following_display_id', label: '被关注者', type: 'text' },
    { key: 'search', label: '昵称', type: 'text' },
  ],
  form: [required('follower_id', '关注者小石榴号', { max: 32 }), required('following_id', '被关注者小石榴号', { max: 32 })],
  loadForEdit: async (row) => initialValues(follows.form, { follower_id: row.follower_display_id ?? row.follower_id, following_id: row.following_display_id ?? row.following_id }),
};

const notifications: EntityDeclaration = {
  name: 'notifications',
  title: '通知管理',
  noun: '通知',
  columns: [
    id,
    userLink('user_display_id', 'user_display_id', '接收者'),
    userLink('sender_display_id', 'sender_display_id', '发送者'),
    { key: 'sender_nickname', label: '发送者昵称' },
    { key: 'type', label: '类型', cell: { kind: 'map', labels: NOTIFICATION_TYPES } },
    { key: 'title', label: '标题', cell: { kind: 'content', max: 30 }, width: 200 },
    { key: 'target_id', label: '目标ID' },
    { key: 'comment_id', label: '评论ID' },
    { key: 'is_read', label: '已读', cell: { kind: 'boolean', yes: '已读', no: '未读' } },
    created,
  ],
  filters: [
    { key: 'user_display_id', label: '接收者', type: 'text' },
    { key: 'sender_display_id', label: '发送者', type: 'text' },
    { key: 'title', label: '标题', type: 'text' },
    { key: 'type', label: '类型', type: 'select', options: options(NOTIFICATION_TYPES) },
    { key: 'is_read', label: '已读', type: 'select', options: [{ value: '1', label: '已读' }, { value: '0', label: '未读' }] },
  ],
  // §5: receiver, sender, type and title required.
  form: [
    required('user_id', '接收者小石榴号', { max: 32, only: 'create' }),
    required('sender_id', '发送者小石榴号', { max: 32, only: 'create' }),
    { key: 'type', label: '类型', type: 'select', required: true, options: options(NOTIFICATION_TYPES), only: 'create' },
    required('title', '标题', { max: 100, only: 'create' }),
    { key: 'target_id', label: '目标ID', type: 'number', required: true, only: 'create' },
    { key: 'post_id', label: '笔记ID', type: 'number', only: 'create' },
    { key: 'comment_id', label: '评论ID', type: 'number', only: 'create' },
    { key: 'is_read', label: '已读', type: 'boolean', only: 'edit' },
  ],
};

const sessions: EntityDeclaration = {
  name: 'sessions',
  title: '会话管理',
  noun: '会话',
  columns: [
    id,
    userLink('user_display_id', 'user_display_id', '用户'),
    { key: 'user_agent', label: '设备', cell: { kind: 'content', max: 24 }, width: 180 },
    { key: 'is_active', label: '有效', cell: { kind: 'boolean', yes: '有效', no: '已失效' } },
    { key: 'expires_at', label: '过期时间', cell: date, sortable: true, width: 150 },
    created,
  ],
  filters: [
    { key: 'user_display_id', label: '小石榴号', type: 'text' },
    { key: 'is_active', label: '有效', type: 'select', options: YES_NO },
  ],
  // A created session is a sign-in made for the user (§5: user_id required); an existing one can only be ended.
  form: [
    required('user_id', '用户小石榴号', { max: 32, only: 'create' }),
    { key: 'user_agent', label: '设备说明', type: 'text', max: 300, only: 'create' },
    { key: 'is_active', label: '有效（取消勾选即让该会话下线）', type: 'boolean', only: 'edit' },
  ],
  transform: (body, mode) => (mode === 'edit' ? { is_active: body.is_active === true } : body),
};

/** Administrator accounts as a table like the others (§7: paged, sorted, filtered by name); only the password changes on edit. */
const admins: EntityDeclaration = {
  name: 'admins',
  title: '管理员',
  noun: '管理员',
  columns: [id, { key: 'username', label: '用户名', sortable: true }, { key: 'last_login_at', label: '最近登录', cell: date, width: 150 }, created],
  filters: [{ key: 'username', label: '用户名', type: 'text' }],
  form: [required('username', '用户名', { min: 2, max: 50, readOnlyOnEdit: true, pattern: { regex: /^[A-Za-z0-9_]+$/, message: '用户名只能包含字母、数字和下划线' } }), { key: 'password', label: '密码', type: 'password', required: true, min: 6, max: 100 }],
  describe: (row) => `确定要删除管理员「${row.username}」吗？`,
};

const actionFailed = (prefix: string, error: unknown) => toast.error((error as Error)?.message ? `${prefix}：${(error as Error).message}` : '操作失败');

/** Verification applications (认证管理): approve, reject with a reason, delete (§4, §8). */
const audit: EntityDeclaration = {
  name: 'audit',
  title: '认证管理',
  noun: '认证申请',
  columns: [
    id,
    userLink('user_display_id', 'user_display_id', '用户'),
    { key: 'nickname', label: '昵称' },
    { key: 'type', label: '类型', cell: { kind: 'map', labels: VERIFICATION_TYPES } },
    { key: 'content', label: '申请内容', cell: { kind: 'content', max: 20, labels: VERIFICATION_FIELDS }, width: 180 },
    { key: 'status', label: '状态', cell: { kind: 'status', labels: AUDIT_STATUS }, sortable: true },
    created,
    { key: 'audit_time', label: '审核时间', cell: date, sortable: true, width: 150 },
    // A reject may come without a reason (the spec's screen sends none): a rejected row says so.
    { key: 'reject_reason', label: '拒绝原因', cell: { kind: 'content', max: 16, empty: (row) => (Number(row.status) === 2 ? '未填写原因' : null) } },
  ],
  filters: [
    { key: 'user_display_id', label: '小石榴号', type: 'text' },
    { key: 'real_name', label: '真实姓名', type: 'text' },
    { key: 'type', label: '类型', type: 'select', options: options(VERIFICATION_TYPES) },
    { key: 'status', label: '状态', type: 'select', options: Object.entries(AUDIT_STATUS).map(([value, status]) => ({ value, label: status.label })) },
  ],
  form: [
    required('user_id', '用户小石榴号', { only: 'create' }),
    { key: 'type', label: '类型', type: 'radio', required: true, options: options(VERIFICATION_TYPES), only: 'create' },
    { key: 'content', label: '申请内容', type: 'json', required: true, only: 'create', placeholder: '{"real_name": "张三", "reason": "学生会官方账号"}' },
    { key: 'status', label: '状态', type: 'select', required: true, options: Object.entries(AUDIT_STATUS).map(([value, status]) => ({ value, label: status.label })), only: 'edit' },
    { key: 'reject_reason', label: '拒绝原因', type: 'text', max: 200, only: 'edit' },
  ],
  describe: (row) => `确定要删除用户「${row.nickname ?? row.user_display_id}」的认证申请吗？此操作不可撤销。`,
  actions: [
    {
      label: '通过',
      tone: 'primary',
      visible: (row: Row) => Number(row.status) === 0,
      run: async (row, context) => {
        try {
          await adminCall('PUT', `/api/admin/audit/${row.id}/approve`);
          toast.success('审核通过');
          await context.reload();
        } catch (error) {
          actionFailed('通过失败', error);
        }
      },
    },
    {
      label: '拒绝',
      tone: 'danger',
      visible: (row: Row) => Number(row.status) === 0,
      run: async (row, context) => {
        const reason = await context.ask(`拒绝「${row.nickname ?? row.user_display_id}」的认证申请`, '拒绝原因');
        if (reason === null) return;
        try {
          await adminCall('PUT', `/api/admin/audit/${row.id}/reject`, { body: { reject_reason: reason } });
          toast.success('已拒绝');
          await context.reload();
        } catch (error) {
          actionFailed('拒绝失败', error);
        }
      },
    },
  ],
};

/** The banned-word list (issue 40): every service refuses students' text holding one of these words. */
const bannedWords: EntityDeclaration = {
  name: 'banned-words',
  title: '违禁词',
  noun: '违禁词',
  columns: [id, { key: 'word', label: '违禁词', sortable: true }, { ...created, label: '添加时间' }],
  filters: [{ key: 'keyword', label: '关键词', type: 'text' }],
  // The server stores words as it compares them (lower case, half-width, no spaces): one a line adds several.
  form: [{ key: 'word', label: '违禁词', type: 'textarea', required: true, max: 2000, placeholder: '一行一个，或用逗号分隔，可一次添加多个' }],
  canEdit: false,
  describe: (row) => `确定要删除违禁词「${row.word}」吗？删除后不再拦截含有它的内容。`,
};

/** Every administrator write, who did what and when, as each service reported it (read only). */
const adminActions: EntityDeclaration = {
  name: 'admin-actions',
  title: '操作日志',
  noun: '操作记录',
  path: '/api/admin/monitor/admin-actions',
  columns: [
    id,
    { key: 'admin_name', label: '管理员' },
    { key: 'method', label: '操作', cell: { kind: 'map', labels: { POST: '新增', PUT: '修改', PATCH: '修改', DELETE: '删除' } } },
    { key: 'entity', label: '对象' },
    { key: 'target_ids', label: '目标ID', cell: { kind: 'array' } },
    { key: 'path', label: '接口', cell: { kind: 'content', max: 32 }, width: 200 },
    { key: 'service', label: '服务' },
    { ...created, label: '时间' },
  ],
  filters: [
    { key: 'admin_name', label: '管理员', type: 'text' },
    { key: 'entity', label: '对象', type: 'text' },
    { key: 'method', label: '操作', type: 'select', options: options({ POST: '新增', PUT: '修改', DELETE: '删除' }) },
  ],
  form: [],
  canCreate: false,
  canEdit: false,
  canDelete: false,
};

/** The twelve managed entities of §3 in the sidebar's order, the banned words, then the administrators' audit log. */
export const ENTITIES: EntityDeclaration[] = [users, posts, comments, categories, tags, likes, collections, follows, notifications, sessions, admins, audit, bannedWords, adminActions];
export const entityByName = (name: string | undefined) => ENTITIES.find((entity) => entity.name === name);
