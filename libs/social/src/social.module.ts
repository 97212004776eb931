import { Module } from '@nestjs/common';

/** The social service (DESIGN.md §1): its controllers, providers and event handlers are registered here. */
@Module({})
export class SocialModule {}
