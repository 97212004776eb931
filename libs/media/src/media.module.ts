import { Module } from '@nestjs/common';
import { FilesController } from './files/files.controller';

/** The media service (DESIGN.md §1): uploaded objects, their processing, and the file URLs it hands out. */
@Module({ controllers: [FilesController] })
export class MediaModule {}
