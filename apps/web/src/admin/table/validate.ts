import type { FormField, FormValue, FormValues } from './types';

const empty = (value: FormValue | undefined) => value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The fields a form shows in its mode and for its current values. */
export function visibleFields(fields: FormField[], values: FormValues, mode: 'create' | 'edit'): FormField[] {
  return fields.filter((field) => (!field.only || field.only === mode) && (!field.when || field.when(values)));
}

/** The form's errors by field (admin-and-startup.md §5); an empty object when it may be sent. */
export function validate(fields: FormField[], values: FormValues, mode: 'create' | 'edit'): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of visibleFields(fields, values, mode)) {
    if (mode === 'edit' && field.readOnlyOnEdit) continue;
    const value = values[field.key];
    if (empty(value)) {
      if (field.required) errors[field.key] = `${['select', 'radio'].includes(field.type) ? '请选择' : '请输入'}${field.label}`;
      continue;
    }
    if (Array.isArray(value)) {
      if (field.max !== undefined && value.length > field.max) errors[field.key] = `${field.label}最多${field.max}个`;
    } else if (field.type === 'json') {
      if (!parseObject(String(value))) errors[field.key] = `${field.label}须为 JSON 对象，如 {"real_name": "张三"}`;
    } else if (field.type === 'number') {
      const number = Number(value);
      if (!Number.isFinite(number)) errors[field.key] = `${field.label}必须是数字`;
      else if (field.min !== undefined && number < field.min) errors[field.key] = `${field.label}不能小于${field.min}`;
    } else if (typeof value === 'string') {
      if (field.min !== undefined && value.length < field.min) errors[field.key] = `${field.label}至少需要${field.min}位`;
      else if (field.max !== undefined && value.length > field.max) errors[field.key] = `${field.label}不能超过${field.max}个字符`;
      else if (field.pattern && !field.pattern.regex.test(value)) errors[field.key] = field.pattern.message;
    }
  }
  return errors;
}

/** The request body: the visible, editable fields, numbers as numbers, empty optional values left out. */
export function toBody(fields: FormField[], values: FormValues, mode: 'create' | 'edit'): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of visibleFields(fields, values, mode)) {
    if (mode === 'edit' && field.readOnlyOnEdit) continue;
    const value = values[field.key];
    if (empty(value)) continue;
    const numeric = field.type === 'number' || field.numeric || ((field.type === 'select' || field.type === 'radio') && field.options?.every((option) => /^-?\d+$/.test(option.value)));
    body[field.key] = numeric ? Number(value) : field.type === 'json' ? parseObject(String(value)) : value;
  }
  return body;
}

/** A form's starting values: empty for create, the row's values (numbers and booleans as the inputs hold them) for edit. */
export function initialValues(fields: FormField[], row: Record<string, unknown> | null): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    const value = row?.[field.key];
    if (field.type === 'list' || field.type === 'images') values[field.key] = Array.isArray(value) ? value.map((item) => (typeof item === 'object' && item ? String((item as { name?: string; url?: string }).name ?? (item as { url?: string }).url) : String(item))) : [];
    else if (field.type === 'boolean') values[field.key] = value === true || value === 1 || value === '1';
    else if (value === null || value === undefined) values[field.key] = field.type === 'radio' && field.options ? field.options[0].value : '';
    else if (field.type === 'json') values[field.key] = JSON.stringify(value, null, 2);
    else values[field.key] = String(value);
  }
  return values;
}
