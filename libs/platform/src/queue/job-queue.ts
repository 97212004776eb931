/**
 * Background work (image and video processing): an in-process runner in embedded mode, BullMQ on Redis
 * in distributed mode. Each job name is tied to its payload type by the map `Jobs`.
 */
export interface JobQueue<Jobs extends Record<string, object>> {
  add<Name extends keyof Jobs & string>(name: Name, payload: Jobs[Name], options?: { jobId?: string; attempts?: number }): Promise<void>;
  close(): Promise<void>;
}
