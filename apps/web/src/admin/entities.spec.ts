import { entityByName } from './entities';
import type { ActionContext, Row } from './table/types';

jest.mock('./api', () => ({ adminCall: jest.fn(async () => null) }));
jest.mock('../lib/toast', () => ({ toast: { success: jest.fn(), error: jest.fn() } }));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { adminCall } = require('./api') as { adminCall: jest.Mock };

const pending: Row = { id: 5, status: 0, nickname: '小柳' };

function context(answer: string | null = '材料不全'): ActionContext & { reload: jest.Mock } {
  return { reload: jest.fn(async () => undefined), ask: jest.fn(async () => answer) };
}

describe('the console’s declarations', () => {
  beforeEach(() => adminCall.mockClear());

  it('offers male and female as the user’s gender (admin-and-startup.md §3)', () => {
    const gender = entityByName('users')!.form.find((field) => field.key === 'gender');
    expect(gender?.options?.map((option) => option.value)).toEqual(['男', '女']);
  });

  it('asks for the receiver, sender, type and title of a new notification (admin-and-startup.md §5)', () => {
    const form = entityByName('notifications')!.form.filter((field) => field.only !== 'edit');
    expect(form.filter((field) => field.required).map((field) => field.key)).toEqual(['user_id', 'sender_id', 'type', 'title', 'target_id']);
  });

  it('reloads the audit table after an approve and after a reject', async () => {
    const [approve, reject] = entityByName('audit')!.actions!;
    const approving = context();
    await approve.run(pending, approving);
    expect(adminCall).toHaveBeenCalledWith('PUT', '/api/admin/audit/5/approve');
    expect(approving.reload).toHaveBeenCalledTimes(1);

    const rejecting = context();
    await reject.run(pending, rejecting);
    expect(adminCall).toHaveBeenCalledWith('PUT', '/api/admin/audit/5/reject', { body: { reject_reason: '材料不全' } });
    expect(rejecting.reload).toHaveBeenCalledTimes(1);
  });

  it('neither calls nor reloads when the reject is cancelled', async () => {
    const [, reject] = entityByName('audit')!.actions!;
    const cancelled = context(null);
    await reject.run(pending, cancelled);
    expect(adminCall).not.toHaveBeenCalled();
    expect(cancelled.reload).not.toHaveBeenCalled();
  });
});
