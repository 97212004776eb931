import { createLogger } from '../logging/logger';
import { waitFor } from '../testing/infra';
import { InProcessJobQueue } from './in-process.queue';
import type { JobStatus } from './job-queue';

type Jobs = { work: { failures: number; hang?: boolean } };

const logger = createLogger('test', 'silent');

async function settled(queue: InProcessJobQueue<Jobs>, jobId: string): Promise<JobStatus> {
  return waitFor('the job to settle', async () => {
    const status = await queue.status(jobId);
    return status && (status.state === 'completed' || status.state === 'failed') ? status : null;
  });
}

describe('InProcessJobQueue', () => {
  it('retries a failing job and completes it with its result and progress', async () => {
    let calls = 0;
    const queue = new InProcessJobQueue<Jobs>(
      {
        work: async (payload, context) => {
          calls += 1;
          await context.progress(40);
          if (calls <= payload.failures) throw new Error(`attempt ${calls} failed`);
          return { calls };
        },
      },
      { attempts: 3, backoffMs: 1, timeoutMs: 5_000 },
      logger,
    );
    const jobId = await queue.add('work', { failures: 2 });
    expect(await settled(queue, jobId)).toEqual({ state: 'completed', progress: 40, result: { calls: 3 }, failedReason: 'attempt 2 failed', attemptsMade: 3 });
    await queue.close();
  });

  it('gives up after the last attempt and keeps the reason; an attempt that runs too long is aborted', async () => {
    const aborted: unknown[] = [];
    const queue = new InProcessJobQueue<Jobs>(
      {
        work: (payload, context) =>
          new Promise((_resolve, reject) => {
            if (!payload.hang) return reject(new Error('no such video'));
            context.signal.addEventListener('abort', () => aborted.push(context.signal.reason));
          }),
      },
      { attempts: 2, backoffMs: 1, timeoutMs: 50 },
      logger,
    );
    const failing = await queue.add('work', { failures: 9 });
    expect(await settled(queue, failing)).toMatchObject({ state: 'failed', failedReason: 'no such video', attemptsMade: 2 });
    const hanging = await queue.add('work', { failures: 0, hang: true });
    expect(await settled(queue, hanging)).toMatchObject({ state: 'failed', failedReason: 'job timed out after 50 ms', attemptsMade: 2 });
    expect(aborted).toHaveLength(2);
    expect(await queue.status('unknown')).toBeNull();
    await queue.close();
  });
});
