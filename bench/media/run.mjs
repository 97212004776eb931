#!/usr/bin/env node
// Media benchmark (issue 14): the media service, one media worker and the gateway as separate processes in
// distributed mode (PostgreSQL, Kafka, Redis, MinIO from infra/local). In the same run it measures
//   1. a cover for an H.264 MP4 and the cover plus transcode of a 30 s 720p AVI through the job pipeline (upload
//      through the gateway, BullMQ, the worker, MinIO), beside the same ffmpeg commands run directly on the file;
//   2. 5 MB image uploads through the gateway (checked, processed by sharp, stored), beside direct puts of the
//      same bytes to MinIO, at the same concurrency.
//
// Usage: infra/local/up && node bench/media/run.mjs [seconds for the image case, default 20]
// Not part of `npm test`: it takes a few minutes and the machine to itself.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { importPKCS8, SignJWT } from 'jose';
import { Client } from 'minio';
import sharp from 'sharp';
import { benchEnv, freshDatabase, start, tokenKeys, waitFor } from '../lib.mjs';

const run = promisify(execFile);
const seconds = Number(process.argv[2] ?? 20);
const CONCURRENCY = 4;
const MEDIA_PORT = 3196;
const GATEWAY_PORT = 8096;
const BUCKET = 'shiliu-media-bench';

const env = benchEnv();
const ffmpeg = env.FFMPEG_PATH ?? 'ffmpeg';

// 1. A fresh database and bucket, the service, one worker, the gateway.
const databaseUrl = await freshDatabase(env, 'shiliu_media_bench');

const work = tokenKeys(mkdtempSync(join(tmpdir(), 'shiliu-media-bench-')));
const serviceEnv = { DATABASE_URL: databaseUrl, S3_BUCKET: BUCKET, AUTH_PUBLIC_KEY_FILE: join(work, 'token-public.pem') };
start(env, 'media', 'apps/media/src/main.ts', { ...serviceEnv, PORT: String(MEDIA_PORT) });
await waitFor(`http://127.0.0.1:${MEDIA_PORT}/health/ready`, 'the media service');
start(env, 'media worker', 'apps/media/src/worker.ts', serviceEnv);
writeFileSync(join(work, 'index.html'), '<!doctype html><div id="root"></div>');
start(env, 'gateway', 'apps/gateway/src/main.ts', {
  PORT: String(GATEWAY_PORT),
  ...Object.fromEntries(['AUTH', 'CONTENT', 'SOCIAL', 'NOTIFY', 'SEARCH', 'MEDIA'].map((name) => [`${name}_URL`, `http://127.0.0.1:${MEDIA_PORT}`])),
  RATE_LIMIT_PER_MINUTE: '1000000000',
  WEB_DIST_DIR: work,
});
await waitFor(`http://127.0.0.1:${GATEWAY_PORT}/api/health`, 'the gateway');

const token = await new SignJWT({ uid: 'bench_user', sid: randomUUID() })
  .setProtectedHeader({ alg: 'EdDSA' })
  .setSubject('1')
  .setIssuer('shiliu-auth')
  .setAudience('shiliu-user')
  .setIssuedAt()
  .setExpirationTime('2h')
  .sign(await importPKCS8(readFileSync(join(work, 'token-private.pem'), 'utf8'), 'EdDSA'));

async function upload(path, field, name, bytes) {
  const form = new FormData();
  form.append(field, new Blob([bytes]), name);
  const response = await fetch(`http://127.0.0.1:${GATEWAY_PORT}${path}`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  const body = await response.json();
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${body.message}`);
  return body.data;
}

// 2. Video: upload, then follow the job until it is done; the same ffmpeg commands directly on the same file.
async function clip(container, codecs, secondsLong, size) {
  const path = join(work, `clip-${size}-${secondsLong}.${container}`);
  await run(ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=duration=${secondsLong}:size=${size}:rate=30`, '-f', 'lavfi', '-i', `sine=frequency=440:duration=${secondsLong}`, ...codecs, '-shortest', path]);
  return path;
}

async function throughPipeline(path, name) {
  const started = performance.now();
  const answer = await upload('/api/upload/video', 'file', name, readFileSync(path));
  const uploaded = performance.now();
  for (;;) {
    const response = await fetch(`http://127.0.0.1:${GATEWAY_PORT}/api/upload/video/jobs/${answer.jobId}`, { headers: { authorization: `Bearer ${token}` } });
    const status = (await response.json()).data;
    if (status.state === 'failed') throw new Error(status.failedReason);
    if (status.state === 'completed') break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const done = performance.now();
  return { total: (done - started) / 1000, upload: (uploaded - started) / 1000, job: (done - uploaded) / 1000 };
}

// The commands FfmpegVideoTools runs (libs/media/src/videos/ffmpeg.video-tools.ts).
const coverArgs = (input, output) => ['-v', 'error', '-y', '-ss', '1', '-i', input, '-frames:v', '1', '-vf', 'scale=640:360:force_original_aspect_ratio=decrease,pad=640:360:(ow-iw)/2:(oh-ih)/2', '-q:v', '3', output];
const transcodeArgs = (input, output) => ['-v', 'error', '-y', '-i', input, '-c:v', 'libx264', '-c:a', 'aac', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p', '-vf', 'scale=trunc(iw/2)*2:trunc(ih/2)*2', '-movflags', '+faststart', '-f', 'mp4', output];

async function timed(work) {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
}

console.log('making the clips…');
const mp4 = await clip('mp4', ['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'], 30, '1280x720');
const avi = await clip('avi', ['-c:v', 'mpeg4', '-q:v', '4', '-c:a', 'mp3'], 30, '1280x720');

console.log('cover (H.264 MP4, 30 s 720p)…');
const coverDirect = await timed(() => run(ffmpeg, coverArgs(mp4, join(work, 'cover.jpg'))));
const coverPipeline = await throughPipeline(mp4, 'clip.mp4');
console.log('cover and transcode (AVI, 30 s 720p)…');
const transcodeDirect = await timed(async () => {
  await run(ffmpeg, coverArgs(avi, join(work, 'cover2.jpg')));
  await run(ffmpeg, transcodeArgs(avi, join(work, 'out.mp4')));
});
const transcodePipeline = await throughPipeline(avi, 'clip.avi');

// 3. Images: 5 MB uploads through the gateway against direct puts to MinIO, CONCURRENCY at a time.
const side = 1290;
const picture = await sharp({ create: { width: side, height: side, channels: 3, background: '#3a7', noise: { type: 'gaussian', mean: 128, sigma: 50 } } }).png({ compressionLevel: 0 }).toBuffer();
if (picture.length > 5 * 1024 * 1024) throw new Error(`the test image is ${picture.length} bytes, over 5 MB`);

async function loop(once) {
  let count = 0;
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        await once();
        count += 1;
      }
    }),
  );
  return count / seconds;
}

console.log(`image uploads (${(picture.length / 1024 / 1024).toFixed(2)} MB PNG, ${CONCURRENCY} at a time, ${seconds} s each)…`);
const viaGateway = await loop(() => upload('/api/upload/image', 'image', 'photo.png', picture));
const s3 = new URL(env.S3_ENDPOINT);
const minio = new Client({ endPoint: s3.hostname, port: Number(s3.port), useSSL: false, accessKey: env.S3_ACCESS_KEY, secretKey: env.S3_SECRET_KEY });
const direct = await loop(() => minio.putObject(BUCKET, `bench/${randomUUID()}.png`, picture, picture.length, { 'Content-Type': 'image/png' }));

const f = (n) => n.toFixed(2).padStart(7);
console.log('\ncase                              | pipeline s (upload + job) | direct ffmpeg s | ratio (target ≤ 1.2×)');
console.log(`cover, 30 s 720p H.264 MP4        | ${f(coverPipeline.total)} (${f(coverPipeline.upload)} + ${f(coverPipeline.job)}) | ${f(coverDirect)}         | ${(coverPipeline.total / coverDirect).toFixed(2)}× (job alone ${(coverPipeline.job / coverDirect).toFixed(2)}×)`);
console.log(`cover + transcode, 30 s 720p AVI  | ${f(transcodePipeline.total)} (${f(transcodePipeline.upload)} + ${f(transcodePipeline.job)}) | ${f(transcodeDirect)}         | ${(transcodePipeline.total / transcodeDirect).toFixed(2)}× (job alone ${(transcodePipeline.job / transcodeDirect).toFixed(2)}×)`);
console.log(`\n5 MB image uploads: ${viaGateway.toFixed(1)}/s through the gateway (${((viaGateway * picture.length) / 1024 / 1024).toFixed(1)} MB/s), ${direct.toFixed(1)}/s direct to MinIO (${((direct * picture.length) / 1024 / 1024).toFixed(1)} MB/s): ${((viaGateway / direct) * 100).toFixed(0)}%`);

const objects = [];
for await (const item of minio.listObjectsV2(BUCKET, '', true)) objects.push(item.name);
if (objects.length > 0) await minio.removeObjects(BUCKET, objects);
process.exit(0);
