import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { bannedWordsChanged, type BannedWordsChangedPayload, type EventEnvelope } from '@shiliu/contracts';
import { EventContext } from '../events/event-context';
import { BannedWords } from './banned-word-copy';

/** Copies the banned-word list when its owner announces a new one. */
@Controller()
export class KeepBannedWordsWhenListChanges {
  constructor(private readonly bannedWords: BannedWords) {}

  @EventPattern(bannedWordsChanged.type)
  async keep(@Payload() envelope: EventEnvelope<BannedWordsChangedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.bannedWords.keep(context.manager, envelope.payload);
  }
}
