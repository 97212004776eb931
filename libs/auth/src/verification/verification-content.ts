import { BadRequestException } from '@nestjs/common';
import type { VerificationType } from './verification.repository';

interface FieldRule {
  name: string;
  label: string;
  max: number;
  pattern?: RegExp;
  patternMessage?: string;
  /** Personal data: encrypted at rest, masked when shown. */
  secret?: { keepStart: number; keepEnd: number };
}

export const contentRules: Record<VerificationType, FieldRule[]> = {
  1: [
    { name: 'org_name', label: '机构名称', max: 100 },
    { name: 'credit_code', label: '统一社会信用代码', max: 18, pattern: /^[0-9A-HJ-NPQRTUWXY]{2}\d{6}[0-9A-HJ-NPQRTUWXY]{10}$/, patternMessage: '统一社会信用代码格式不正确' },
    { name: 'contact_name', label: '联系人姓名', max: 30 },
    { name: 'contact_phone', label: '联系电话', max: 11, pattern: /^1\d{10}$/, patternMessage: '联系电话格式不正确', secret: { keepStart: 3, keepEnd: 4 } },
    { name: 'reason', label: '申请理由', max: 200 },
  ],
  2: [
    { name: 'real_name', label: '真实姓名', max: 30 },
    { name: 'id_card', label: '身份证号', max: 18, pattern: /^\d{17}[\dXx]$/, patternMessage: '身份证号格式不正确', secret: { keepStart: 6, keepEnd: 4 } },
    { name: 'occupation', label: '职业', max: 50 },
    { name: 'reason', label: '申请理由', max: 200 },
  ],
};

/** Every field of the chosen type is required and checked; unknown fields are dropped. */
export function validContent(type: VerificationType, content: unknown): Record<string, string> {
  if (typeof content !== 'object' || content === null || Array.isArray(content)) throw new BadRequestException('请填写认证信息');
  const given = content as Record<string, unknown>;
  const result: Record<string, string> = {};
  for (const rule of contentRules[type]) {
    const raw = given[rule.name];
    const value = typeof raw === 'string' ? raw.trim() : typeof raw === 'number' ? String(raw) : '';
    if (!value) throw new BadRequestException(`请填写${rule.label}`);
    if ([...value].length > rule.max) throw new BadRequestException(`${rule.label}最多${rule.max}个字符`);
    if (rule.pattern && !rule.pattern.test(value)) throw new BadRequestException(rule.patternMessage);
    result[rule.name] = rule.name === 'id_card' ? value.toUpperCase() : value;
  }
  return result;
}
