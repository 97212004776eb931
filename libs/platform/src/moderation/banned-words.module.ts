import { Module } from '@nestjs/common';
import { BannedWords } from './banned-word-copy';
import { KeepBannedWordsWhenListChanges } from './keep-banned-words-when-list-changes.handler';

/**
 * What a service that accepts students' text imports to check it: the copy and its handler. It also lists
 * `BannedWordCopy1764810000000` in its migrations and `{ table: 'banned_word_copy', follows: ['banned-words'] }` in
 * its read models, so a new service asks for the list at its first start.
 */
@Module({
  controllers: [KeepBannedWordsWhenListChanges],
  providers: [BannedWords],
  exports: [BannedWords],
})
export class BannedWordsModule {}
