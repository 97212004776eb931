import { applyDecorators, BadRequestException, Controller, Get, HttpException, NotFoundException, Param, Post, Req } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type JobStatus, messageForStatus, type Principal, UserOrAdminAuth } from '@shiliu/platform';
import type { FastifyRequest as Request } from 'fastify';
import { VideoQueue } from '../videos/video-queue';
import { MalformedUploadError, type ReceivedUpload, receiveMultipart, type ReceiveOptions } from './multipart-receiver';
import { uploadLimits } from './upload-limits';
import { UploadRateLimit } from './upload-rate-limit';
import { type UploadedImage, type UploadedVideo, UploadService } from './upload.service';

export interface MultipleUpload {
  uploaded: UploadedImage[];
  errors: { file: string; reason: string }[];
}

/** The multipart form of each call, for the OpenAPI document: binary file fields by name. */
const MultipartForm = (fields: Record<string, 'one' | 'many'>) =>
  applyDecorators(
    ApiConsumes('multipart/form-data'),
    ApiBody({
      schema: {
        type: 'object',
        properties: Object.fromEntries(
          Object.entries(fields).map(([name, count]) => [
            name,
            count === 'one'
              ? { type: 'string', format: 'binary' }
              : { type: 'array', items: { type: 'string', format: 'binary' }, maxItems: uploadLimits.imagesPerRequest },
          ]),
        ),
      },
    }),
  );

const imageReceipt = (field: string): ReceiveOptions => ({ fields: [field], maxFileBytes: uploadLimits.imageCapBytes, maxFiles: 1 });

/**
 * public-side.md §7 "Uploads": every call needs a logged-in user; avatars and comment images use them too. The back
 * office's forms (a note's images and video, a user's avatar) upload through the same calls with an administrator's
 * token.
 */
@ApiTags('upload')
@UserOrAdminAuth()
@Controller('api/upload')
export class UploadController {
  constructor(private readonly uploads: UploadService, private readonly queue: VideoQueue, private readonly rateLimit: UploadRateLimit) {}

  @ApiOperation({ summary: '上传单张图片（字段 file）' })
  @MultipartForm({ file: 'one' })
  @Post('single')
  single(@Req() request: Request, @CurrentPrincipal() principal: Principal): Promise<UploadedImage> {
    return this.one(request, 'file', principal);
  }

  @ApiOperation({ summary: '上传单张图片（字段 image）' })
  @MultipartForm({ image: 'one' })
  @Post('image')
  image(@Req() request: Request, @CurrentPrincipal() principal: Principal): Promise<UploadedImage> {
    return this.one(request, 'image', principal);
  }

  @ApiOperation({ summary: '上传多张图片（字段 files，最多 9 张），逐张报告成功与失败' })
  @MultipartForm({ files: 'many' })
  @Post('multiple')
  async multiple(@Req() request: Request, @CurrentPrincipal() principal: Principal): Promise<MultipleUpload> {
    await this.rateLimit.consume(ownerOf(principal));
    return withUpload(request, { fields: ['files'], maxFileBytes: uploadLimits.imageCapBytes, maxFiles: uploadLimits.imagesPerRequest }, async (upload) => {
      if (upload.tooManyFiles) throw new BadRequestException(`最多只能上传${uploadLimits.imagesPerRequest}张图片`);
      if (upload.files.length === 0) throw new BadRequestException('请选择要上传的文件');
      const answer: MultipleUpload = { uploaded: [], errors: [] };
      for (const file of upload.files) {
        try {
          answer.uploaded.push(await this.uploads.image(file, ownerOf(principal)));
        } catch (error) {
          // A refused file is reported beside the others; anything else fails the call.
          if (!(error instanceof HttpException) || error.getStatus() >= 500) throw error;
          answer.errors.push({ file: file.originalName, reason: error.message });
        }
      }
      if (answer.uploaded.length === 0) throw new BadRequestException({ message: '上传失败，没有成功上传的图片', data: answer });
      return answer;
    });
  }

  @ApiOperation({ summary: '上传视频（字段 file，可选封面 thumbnail），答复处理任务 jobId' })
  @MultipartForm({ file: 'one', thumbnail: 'one' })
  @Post('video')
  async video(@Req() request: Request, @CurrentPrincipal() principal: Principal): Promise<UploadedVideo> {
    await this.rateLimit.consume(ownerOf(principal));
    return withUpload(request, { fields: ['file', 'thumbnail'], maxFileBytes: uploadLimits.videoBytes, maxFiles: 2 }, (upload) =>
      this.uploads.video(
        upload.files.find((file) => file.field === 'file'),
        upload.files.find((file) => file.field === 'thumbnail'),
        ownerOf(principal),
      ),
    );
  }

  @ApiOperation({ summary: '视频处理进度（百分比）与完成后的视频、封面地址' })
  @Get('video/jobs/:id')
  async job(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<JobStatus> {
    const payload = /^[0-9a-f-]{36}$/.test(id) ? await this.queue.jobs.payload(id) : null;
    // Another student's job answers as a missing one does, so its id tells nothing about it.
    const status = payload && (principal.audience === 'admin' || payload.ownerId === ownerOf(principal)) ? await this.queue.jobs.status(id) : null;
    if (!status) throw new NotFoundException(messageForStatus(404));
    return status;
  }

  private async one(request: Request, field: string, principal: Principal): Promise<UploadedImage> {
    await this.rateLimit.consume(ownerOf(principal));
    return withUpload(request, imageReceipt(field), async (upload) => {
      const [file] = upload.files;
      if (!file) throw new BadRequestException('请选择要上传的文件');
      return this.uploads.image(file, ownerOf(principal));
    });
  }
}

/**
 * Whose upload a row records. Administrators' ids are counted apart from students' (negated), so a student's
 * deletion, which lets go of everything that student holds, never touches what an administrator uploaded.
 */
function ownerOf(principal: Principal): number {
  return principal.audience === 'admin' ? -Number(principal.id) : Number(principal.id);
}

/** Receives the multipart body, hands it over, and removes the temporary files whatever happens. */
async function withUpload<T>(request: Request, options: ReceiveOptions, use: (upload: ReceivedUpload) => Promise<T>): Promise<T> {
  if (!/^multipart\/form-data\b/i.test(request.headers['content-type'] ?? '')) throw new BadRequestException('请选择要上传的文件');
  const upload = await receiveMultipart(request.raw, options).catch((error: unknown) => {
    throw error instanceof MalformedUploadError ? new BadRequestException('上传失败: 上传内容不完整或格式不正确') : error;
  });
  try {
    return await use(upload);
  } finally {
    await upload.dispose();
  }
}
