/** 1 official (organisations), 2 personal, as the auth service numbers them. */
export type VerificationType = 1 | 2;

export interface VerificationField {
  name: string;
  label: string;
  max: number;
  pattern?: RegExp;
  patternMessage?: string;
  multiline?: boolean;
}

/** Both forms' fields with the same limits and formats the auth service checks, so mistakes show before sending. */
export const VERIFICATION_FIELDS: Record<VerificationType, VerificationField[]> = {
  1: [
    { name: 'org_name', label: '机构名称', max: 100 },
    { name: 'credit_code', label: '统一社会信用代码', max: 18, pattern: /^[0-9A-HJ-NPQRTUWXY]{2}\d{6}[0-9A-HJ-NPQRTUWXY]{10}$/, patternMessage: '统一社会信用代码格式不正确' },
    { name: 'contact_name', label: '联系人姓名', max: 30 },
    { name: 'contact_phone', label: '联系电话', max: 11, pattern: /^1\d{10}$/, patternMessage: '联系电话格式不正确' },
    { name: 'reason', label: '申请理由', max: 200, multiline: true },
  ],
  2: [
    { name: 'real_name', label: '真实姓名', max: 30 },
    { name: 'id_card', label: '身份证号', max: 18, pattern: /^\d{17}[\dXx]$/, patternMessage: '身份证号格式不正确' },
    { name: 'occupation', label: '职业', max: 50 },
    { name: 'reason', label: '申请理由', max: 200, multiline: true },
  ],
};

export const VERIFICATION_TYPES: [VerificationType, string][] = [
  [2, '个人认证'],
  [1, '官方认证'],
];

export const VERIFICATION_STATUS: Record<0 | 1 | 2, string> = { 0: '审核中', 1: '已通过', 2: '未通过' };

/** public-side.md §4: when several applications exist, approved shows first, then rejected, then pending. */
const PRECEDENCE = [1, 2, 0];

/** The application to show from the status call's list (newest first): the newest of the highest-ranked status. */
export function shownApplication<T extends { status: number }>(applications: readonly T[]): T | null {
  for (const status of PRECEDENCE) {
    const found = applications.find((application) => application.status === status);
    if (found) return found;
  }
  return null;
}

/** Every field of the chosen type is required, within its length, and in its format; the first problem per field. */
export function verificationErrors(type: VerificationType, values: Record<string, string>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of VERIFICATION_FIELDS[type]) {
    const value = (values[field.name] ?? '').trim();
    if (!value) errors[field.name] = `请填写${field.label}`;
    else if ([...value].length > field.max) errors[field.name] = `${field.label}最多${field.max}个字符`;
    else if (field.pattern && !field.pattern.test(value)) errors[field.name] = field.patternMessage ?? `${field.label}格式不正确`;
  }
  return errors;
}

/** The content the service takes: only the chosen type's fields, trimmed. */
export function verificationContent(type: VerificationType, values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(VERIFICATION_FIELDS[type].map((field) => [field.name, (values[field.name] ?? '').trim()]));
}
