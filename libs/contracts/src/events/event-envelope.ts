/** The wire shape of every event (DESIGN.md §1, "Events"). */
export interface EventEnvelope<TPayload = unknown> {
  id: string;
  type: string;
  version: number;
  occurredAt: string;
  /** Product-internal numeric id of the user who caused the event, or null for the system. */
  actor: string | null;
  correlationId: string;
  causationId: string;
  payload: TPayload;
}

export const topics = [
  'shiliu.user',
  'shiliu.post',
  'shiliu.comment',
  'shiliu.reaction',
  'shiliu.follow',
  'shiliu.media',
  'shiliu.verification',
  'shiliu.backfill',
  'shiliu.admin',
  'shiliu.banned-words',
] as const;
export type Topic = (typeof topics)[number];
