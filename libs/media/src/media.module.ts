import { Module } from '@nestjs/common';
import { ObjectCleanupService } from './cleanup/object-cleanup.service';
import { RecordAvatarWhenUserChanges } from './cleanup/record-avatar-when-user-changes.handler';
import { RecordCommentImagesWhenCommentIsSaved } from './cleanup/record-comment-images-when-comment-is-saved.handler';
import { RecordNoteUploadsWhenPostIsSaved } from './cleanup/record-note-uploads-when-post-is-saved.handler';
import { ReleaseCommentImagesWhenCommentIsDeleted } from './cleanup/release-comment-images-when-comment-is-deleted.handler';
import { ReleaseNoteUploadsWhenPostIsDeleted } from './cleanup/release-note-uploads-when-post-is-deleted.handler';
import { ReleaseUploadsWhenUserIsDeleted } from './cleanup/release-uploads-when-user-is-deleted.handler';
import { FilesController } from './files/files.controller';
import { ImageProcessor } from './images/image-processor';
import { ImageWidthsBackfill } from './images/image-widths.backfill';
import { ImageWidthsRepository } from './images/image-widths.repository';
import { loadMediaConfig, MEDIA_CONFIG } from './media.config';
import { UploadController } from './uploads/upload.controller';
import { UploadRateLimit } from './uploads/upload-rate-limit';
import { UploadRepository } from './uploads/upload.repository';
import { UploadService } from './uploads/upload.service';
import { FfmpegVideoTools } from './videos/ffmpeg.video-tools';
import { VideoProcessJob } from './videos/video-process.job';
import { VideoQueue } from './videos/video-queue';
import { VIDEO_TOOLS } from './videos/video-tools';

/** The media service (DESIGN.md §1): uploaded objects, their processing, and the file URLs it hands out. */
@Module({
  controllers: [
    UploadController,
    FilesController,
    RecordNoteUploadsWhenPostIsSaved,
    ReleaseNoteUploadsWhenPostIsDeleted,
    RecordCommentImagesWhenCommentIsSaved,
    ReleaseCommentImagesWhenCommentIsDeleted,
    RecordAvatarWhenUserChanges,
    ReleaseUploadsWhenUserIsDeleted,
  ],
  providers: [
    ImageProcessor,
    ImageWidthsBackfill,
    ImageWidthsRepository,
    ObjectCleanupService,
    UploadRateLimit,
    UploadRepository,
    UploadService,
    VideoProcessJob,
    VideoQueue,
    { provide: VIDEO_TOOLS, useClass: FfmpegVideoTools },
    { provide: MEDIA_CONFIG, useFactory: () => loadMediaConfig() },
  ],
})
export class MediaModule {}
