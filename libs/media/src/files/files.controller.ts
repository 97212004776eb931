import { Controller, Get, Inject, NotFoundException, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrors, isValidObjectKey, messageForStatus, OBJECT_STORAGE, type ObjectStorage, takeOverResponse } from '@shiliu/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pipeline } from 'node:stream/promises';
import parseRange from 'range-parser';

/**
 * Serves stored objects at the URLs the API hands out, with their content type and byte ranges
 * (video players seek with Range requests). Object keys are content-addressed, so answers are cached for long.
 */
@ApiTags('files')
@Controller('api/files')
export class FilesController {
  constructor(@Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage) {}

  @ApiOperation({ summary: '读取已上传的文件（支持 Range）' })
  @ApiParam({ name: 'path', type: String, description: '文件的对象键，如 images/…' })
  @ApiResponse({ status: 200, description: '文件内容', content: { '*/*': { schema: { type: 'string', format: 'binary' } } } })
  @ApiResponse({ status: 206, description: '请求的字节范围', content: { '*/*': { schema: { type: 'string', format: 'binary' } } } })
  @ApiResponse({ status: 416, description: '字节范围无法满足' })
  @ApiErrors(404)
  // Fastify's wildcard is `*`, documented as {path} (the key may hold slashes), and read from the request's
  // parameters: through @Param('*') the document would list a parameter named `*` beside it.
  @Get('*')
  async read(@Req() req: FastifyRequest<{ Params: { '*': string } }>, @Res() reply: FastifyReply): Promise<void> {
    const key = req.params['*'];
    const info = isValidObjectKey(key) ? await this.storage.stat(key) : null;
    if (!info) throw new NotFoundException(messageForStatus(404));
    const res = takeOverResponse(reply);

    res.setHeader('Content-Type', info.contentType);
    res.setHeader('Accept-Ranges', 'bytes');
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.setHeader('X-Content-Type-Options', 'nosniff');

    const header = req.headers.range;
    const ranges = header ? parseRange(info.size, header, { combine: true }) : -2;
    if (ranges === -1) {
      res.statusCode = 416;
      res.setHeader('Content-Range', `bytes */${info.size}`).end();
      return;
    }
    if (Array.isArray(ranges) && ranges.type === 'bytes' && ranges.length === 1) {
      const [range] = ranges;
      res.statusCode = 206;
      res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${info.size}`);
      res.setHeader('Content-Length', String(range.end - range.start + 1));
      if (req.method === 'HEAD') return void res.end();
      await pipeline(await this.storage.read(key, range), res);
      return;
    }
    res.setHeader('Content-Length', String(info.size));
    if (req.method === 'HEAD') return void res.end();
    await pipeline(await this.storage.read(key), res);
  }
}
