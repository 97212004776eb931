import { BadRequestException, Inject, Injectable, PayloadTooLargeException } from '@nestjs/common';
import { mediaImageProcessed } from '@shiliu/contracts';
import { fileUrl, OBJECT_STORAGE, type ObjectStorage, Outbox } from '@shiliu/platform';
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { DataSource } from 'typeorm';
import { ImageProcessor, UnreadableImageError, widthKey } from '../images/image-processor';
import { ImageWidthsRepository } from '../images/image-widths.repository';
import { MEDIA_CONFIG, type MediaConfig } from '../media.config';
import { probeIsoBmff } from '../videos/iso-bmff.probe';
import { VIDEO_TOOLS, type VideoProbe, type VideoTools } from '../videos/video-tools';
import { VideoQueue } from '../videos/video-queue';
import { type FileFormat, formatOf } from './file-format';
import type { ReceivedFile } from './multipart-receiver';
import { megabytes, uploadLimits } from './upload-limits';
import { UploadRepository } from './upload.repository';

export interface UploadedImage {
  url: string;
  originalName: string;
  size: number;
  width: number;
  height: number;
  aspectRatio: number;
  blurhash: string;
  thumbnailUrl: string;
}

export interface UploadedVideo {
  url: string;
  /** The client's cover, or null until the job has made one (then in the job's status). */
  coverUrl: string | null;
  originalname: string;
  size: number;
  /** Read `GET /api/upload/video/jobs/{jobId}` for the progress and the final URLs. */
  jobId: string;
}

/**
 * Checks each uploaded file by its content and stores what is served of it under a name derived from that
 * content. Refusals carry the spec's messages (public-side.md §5, §8); nothing refused is stored.
 */
@Injectable()
export class UploadService {
  constructor(
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(VIDEO_TOOLS) private readonly tools: VideoTools,
    private readonly images: ImageProcessor,
    private readonly uploads: UploadRepository,
    private readonly widths: ImageWidthsRepository,
    private readonly queue: VideoQueue,
    private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
    @Inject(MEDIA_CONFIG) private readonly config: MediaConfig,
  ) {}

  async image(file: ReceivedFile, ownerId: number): Promise<UploadedImage> {
    return (await this.storeImage(file, ownerId)).image;
  }

  private async storeImage(file: ReceivedFile, ownerId: number): Promise<{ key: string; image: UploadedImage }> {
    if (file.overCap) throw new PayloadTooLargeException('图片大小不能超过5MB');
    const format = formatOf(file.head);
    if (format?.kind !== 'image') throw new BadRequestException('不支持的文件类型');
    if (file.size > uploadLimits.imageBytes) {
      throw new BadRequestException(`图片大小为 ${megabytes(file.size)}MB，超过 5MB 限制，请选择更小的图片`);
    }
    let processed;
    try {
      await this.refuseTooManyPixels(file.path);
      processed = await this.images.process(file.path, format);
    } catch (error) {
      if (error instanceof UnreadableImageError) throw new BadRequestException('上传失败: 图片文件不完整或已损坏');
      throw error;
    }
    const key = `images/${file.sha256}.${format.extension}`;
    const thumbnailKey = `images/${file.sha256}.thumb.webp`;
    await this.storage.put(key, processed.display, format.contentType);
    await this.storage.put(thumbnailKey, processed.thumbnail, 'image/webp');
    const widths = processed.widths.map(({ width, data }) => ({ key: widthKey(key, width), data }));
    for (const { key: shownKey, data } of widths) await this.storage.put(shownKey, data, 'image/webp');
    await this.dataSource.transaction(async (manager) => {
      await this.uploads.record(
        [
          { key, ownerId, kind: 'image', sourceKey: null, size: processed.display.length },
          { key: thumbnailKey, ownerId, kind: 'thumbnail', sourceKey: key, size: processed.thumbnail.length },
          ...widths.map(({ key: shownKey, data }) => ({ key: shownKey, ownerId, kind: 'thumbnail' as const, sourceKey: key, size: data.length })),
        ],
        manager,
      );
      await this.widths.settle(key, widths.length > 0 ? 'made' : 'none', manager);
      await this.outbox.add(manager, mediaImageProcessed, {
        owner_id: ownerId,
        url: fileUrl(key),
        width: processed.width,
        height: processed.height,
        blurhash: processed.blurhash,
        thumbnail_url: fileUrl(thumbnailKey),
      });
    });
    const image: UploadedImage = {
      url: fileUrl(key),
      originalName: file.originalName,
      size: file.size,
      width: processed.width,
      height: processed.height,
      aspectRatio: Number((processed.width / processed.height).toFixed(4)),
      blurhash: processed.blurhash,
      thumbnailUrl: fileUrl(thumbnailKey),
    };
    return { key, image };
  }

  /** A few hundred bytes of header can stand for gigabytes of pixels: the header is read, and such an image refused, before any decoding. */
  private async refuseTooManyPixels(path: string): Promise<void> {
    const { width, height, frames } = await this.images.measure(path);
    const limit = this.config.MEDIA_IMAGE_MAX_PIXELS;
    if (width * height * frames <= limit) return;
    const size = `${width}×${height}${frames > 1 ? `×${frames}帧` : ''}`;
    throw new BadRequestException(`图片尺寸为 ${size}，超过 ${pixelCount(limit)} 像素限制，请选择更小的图片`);
  }

  async video(file: ReceivedFile | undefined, thumbnail: ReceivedFile | undefined, ownerId: number): Promise<UploadedVideo> {
    if (!file) throw new BadRequestException('没有视频文件');
    if (file.overCap) throw new PayloadTooLargeException(`文件大小不能超过${megabytes(uploadLimits.videoBytes)}MB`);
    const format = formatOf(file.head);
    if (format?.kind !== 'video') throw new BadRequestException('请选择视频文件');
    let probe;
    try {
      probe = await this.probe(file.path, format);
    } catch {
      throw new BadRequestException('上传失败: 视频文件不完整或已损坏');
    }
    const cover = thumbnail ? await this.cover(thumbnail, ownerId) : null;
    const key = `videos/${file.sha256}.${format.extension}`;
    await this.storage.put(key, createReadStream(file.path), format.contentType);
    await this.uploads.record([{ key, ownerId, kind: 'video', sourceKey: null, size: file.size }]);
    // Random job ids, and the progress call answers only the uploader and administrators.
    const jobId = await this.queue.jobs.add(
      'video.process',
      { sourceKey: key, extension: format.extension, sha256: file.sha256, ownerId, probe, coverKey: cover?.key ?? null },
      { jobId: randomUUID() },
    );
    return { url: fileUrl(key), coverUrl: cover?.image.url ?? null, originalname: file.originalName, size: file.size, jobId };
  }

  /**
   * What the job needs to know of the video, refusing one that is not whole before anything is stored. MP4 and MOV
   * are read in this process (their box structure shows a cut-off file); ffprobe decides the other containers and
   * what the box reader leaves to it.
   */
  private async probe(path: string, format: FileFormat): Promise<VideoProbe> {
    const boxed = format.extension === 'mp4' || format.extension === 'mov' ? await probeIsoBmff(path) : null;
    return boxed ?? this.tools.probe(path);
  }

  private async cover(thumbnail: ReceivedFile, ownerId: number): Promise<{ key: string; image: UploadedImage }> {
    if (formatOf(thumbnail.head)?.kind !== 'image') throw new BadRequestException('请选择图片文件');
    if (thumbnail.overCap || thumbnail.size > uploadLimits.imageBytes) throw new BadRequestException(`封面图片大小不能超过${megabytes(uploadLimits.imageBytes)}MB`);
    return this.storeImage(thumbnail, ownerId);
  }
}

/** A pixel count as people say it: 5000万, or the plain number below ten thousand. */
function pixelCount(pixels: number): string {
  return pixels >= 10_000 ? `${Number((pixels / 10_000).toFixed(1))}万` : String(pixels);
}
