import { shownApplication, verificationContent, verificationErrors } from './verification-form';

describe('the verification forms', () => {
  it('require every field of the chosen type', () => {
    expect(verificationErrors(2, {})).toEqual({ real_name: '请填写真实姓名', id_card: '请填写身份证号', occupation: '请填写职业', reason: '请填写申请理由' });
    expect(Object.keys(verificationErrors(1, {}))).toEqual(['org_name', 'credit_code', 'contact_name', 'contact_phone', 'reason']);
  });

  it('check formats and the 200-character reason', () => {
    const personal = { real_name: '林小柳', id_card: '11010519491231002X', occupation: '学生', reason: '校园摄影社社长' };
    expect(verificationErrors(2, personal)).toEqual({});
    expect(verificationErrors(2, { ...personal, id_card: '1234' })).toEqual({ id_card: '身份证号格式不正确' });
    expect(verificationErrors(2, { ...personal, reason: '理'.repeat(201) })).toEqual({ reason: '申请理由最多200个字符' });
    expect(verificationErrors(1, { org_name: '拾柳大学', credit_code: '91350100M000100Y43', contact_name: '王老师', contact_phone: '2380000', reason: '官方账号' })).toEqual({ contact_phone: '联系电话格式不正确' });
  });

  it('sends only the chosen type’s fields, trimmed', () => {
    expect(verificationContent(2, { real_name: ' 林小柳 ', id_card: '11010519491231002X', occupation: '学生', reason: '理由', org_name: '不该带上' })).toEqual({ real_name: '林小柳', id_card: '11010519491231002X', occupation: '学生', reason: '理由' });
  });

  it('show, of the status call\'s list (newest first), approved before rejected before pending, the newest of each', () => {
    const pending = { id: 5, status: 0 };
    const newerRejected = { id: 4, status: 2 };
    const olderRejected = { id: 3, status: 2 };
    const approved = { id: 1, status: 1 };
    expect(shownApplication([pending, newerRejected, olderRejected, approved])).toBe(approved);
    expect(shownApplication([pending, newerRejected, olderRejected])).toBe(newerRejected);
    expect(shownApplication([pending])).toBe(pending);
    expect(shownApplication([])).toBeNull();
  });
});
