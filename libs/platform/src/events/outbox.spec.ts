import type { DataSource, EntityManager } from 'typeorm';
import { Outbox, OUTBOX_WRITTEN, relayOf } from './outbox';

describe('Outbox.written', () => {
  const dataSource = {} as DataSource;
  const wake = jest.fn();

  beforeEach(() => {
    wake.mockClear();
    relayOf(dataSource, wake);
  });

  afterEach(() => relayOf(dataSource, null));

  it('wakes the relay at once after a statement that committed on its own', () => {
    new Outbox().written({ connection: dataSource } as EntityManager);
    expect(wake).toHaveBeenCalledTimes(1);
  });

  it("leaves the wake to a transaction's commit, marking the transaction instead", () => {
    const data: Record<string, unknown> = {};
    new Outbox().written({ connection: dataSource, queryRunner: { isTransactionActive: true, data } } as unknown as EntityManager);
    expect(wake).not.toHaveBeenCalled();
    expect(data[OUTBOX_WRITTEN]).toBe(true);
  });

  it('wakes nothing once the relay has stopped', () => {
    relayOf(dataSource, null);
    new Outbox().written({ connection: dataSource } as EntityManager);
    expect(wake).not.toHaveBeenCalled();
  });
});
