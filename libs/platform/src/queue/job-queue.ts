/**
 * Background work (image and video processing): an in-process runner in embedded mode, BullMQ on Redis
 * in distributed mode. Each job name is tied to its payload type by the map `Jobs`, and to its handler by
 * `JobHandlers`, so a job without a handler does not compile.
 */
export interface JobQueue<Jobs extends Record<string, object>> {
  /** Answers the job's id, by which its progress can be read. */
  add<Name extends keyof Jobs & string>(name: Name, payload: Jobs[Name], options?: { jobId?: string }): Promise<string>;
  status(jobId: string): Promise<JobStatus | null>;
  /** What the job was given, for deciding who may read its status; null for a job unknown or forgotten. */
  payload(jobId: string): Promise<Jobs[keyof Jobs] | null>;
  close(): Promise<void>;
}

export type JobState = 'waiting' | 'active' | 'completed' | 'failed';

export interface JobStatus {
  state: JobState;
  /** 0-100, as the handler last reported it. */
  progress: number;
  /** What the handler answered, once completed. */
  result: object | null;
  /** Why the last attempt failed: set while retrying and once failed for good. */
  failedReason: string | null;
  attemptsMade: number;
}

export interface JobContext {
  jobId: string;
  progress(percent: number): Promise<void>;
  /** Aborted when the attempt runs out of time: long work (ffmpeg) stops when it fires. */
  signal: AbortSignal;
}

export type JobHandlers<Jobs extends Record<string, object>> = {
  [Name in keyof Jobs]: (payload: Jobs[Name], context: JobContext) => Promise<object>;
};

/** Retries with exponential backoff and a time limit per attempt, the same in both runners. */
export interface JobPolicy {
  attempts: number;
  backoffMs: number;
  timeoutMs: number;
}

export class JobTimeoutError extends Error {}

/** Runs one attempt of a handler, aborting it when it outlives the policy's time limit. */
export async function runAttempt<T>(timeoutMs: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new JobTimeoutError(`job timed out after ${timeoutMs} ms`);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    return await Promise.race([work(controller.signal), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
