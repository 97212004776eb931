#!/usr/bin/env node
// Media benchmark (issue 14): the media service, one media worker and the gateway as separate processes in
// distributed mode (PostgreSQL, Kafka, Redis, MinIO from infra/local). In the same run it measures
//   1. a cover for an H.264 MP4 and the cover plus transcode of a 30 s 720p AVI through the job pipeline (upload
//      through the gateway, BullMQ, the worker, MinIO), beside the same ffmpeg commands run directly on the file;
//   2. 5 MB image uploads through the gateway (checked, processed by sharp, stored), beside direct puts of the
//      same bytes to MinIO, at the same concurrency.
//
// The machine is often shared, so the cover, which takes well under a second, is made several times, each time
// directly and through the pipeline back to back, and the median of those paired ratios is reported. The pipeline's
// time ends when BullMQ announces the job completed (QueueEvents), not at the next turn of a polling client.
//
// Usage: infra/local/up && npm run build && node bench/media/run.mjs [seconds for the image case, default 20] [cover runs, default 5]
// Not part of `npm test`: it takes a few minutes and the machine to itself.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Queue, QueueEvents } from 'bullmq';
import { importPKCS8, SignJWT } from 'jose';
import { Client } from 'minio';
import sharp from 'sharp';
import { benchEnv, freshDatabase, sleep, start, tokenKeys, waitFor } from '../lib.mjs';

const run = promisify(execFile);
const seconds = Number(process.argv[2] ?? 20);
const coverRuns = Number(process.argv[3] ?? 5);
const CONCURRENCY = 4;
const MEDIA_PORT = 3196;
const GATEWAY_PORT = 8096;
const BUCKET = 'shiliu-media-bench';
// The service's queue (libs/media/src/videos/video-process.job.ts, schema "media").
const QUEUE = 'shiliu-media-jobs';

const env = benchEnv();
const ffmpeg = env.FFMPEG_PATH ?? 'ffmpeg';

// 1. A fresh database and bucket, the service, one worker, the gateway.
const databaseUrl = await freshDatabase(env, 'shiliu_media_bench');

const work = tokenKeys(mkdtempSync(join(tmpdir(), 'shiliu-media-bench-')));
const serviceEnv = { DATABASE_URL: databaseUrl, S3_BUCKET: BUCKET, AUTH_PUBLIC_KEY_FILE: join(work, 'token-public.pem') };
start(env, 'media', 'apps/media/dist/main.js', { ...serviceEnv, PORT: String(MEDIA_PORT) });
await waitFor(`http://127.0.0.1:${MEDIA_PORT}/health/ready`, 'the media service');
start(env, 'media worker', 'apps/media/dist/worker.js', serviceEnv);
writeFileSync(join(work, 'index.html'), '<!doctype html><div id="root"></div>');
start(env, 'gateway', 'apps/gateway/dist/main.js', {
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

// Every job's end as BullMQ announces it, kept by id: a job may end before its upload's answer has arrived.
const redisUrl = new URL(env.REDIS_URL);
const connection = { host: redisUrl.hostname, port: Number(redisUrl.port || 6379), password: redisUrl.password || undefined, db: Number(redisUrl.pathname.slice(1) || 0) };
const queueEvents = new QueueEvents(QUEUE, { connection });
const queue = new Queue(QUEUE, { connection });
await queueEvents.waitUntilReady();
const ended = new Map();
const waiting = new Map();
function jobEnded(jobId, outcome) {
  ended.set(jobId, { at: performance.now(), ...outcome });
  waiting.get(jobId)?.();
}
queueEvents.on('completed', ({ jobId }) => jobEnded(jobId, { failedReason: null }));
queueEvents.on('failed', ({ jobId, failedReason }) => jobEnded(jobId, { failedReason }));
const endOf = (jobId) => ended.get(jobId) ?? new Promise((resolve) => waiting.set(jobId, () => resolve(ended.get(jobId))));

async function throughPipeline(path, name) {
  const started = performance.now();
  const answer = await upload('/api/upload/video', 'file', name, readFileSync(path));
  const uploaded = performance.now();
  let end = await endOf(answer.jobId);
  let status = await jobStatus(answer.jobId);
  // An attempt that failed announces "failed" before its retry: only a job failed for good ends the run.
  while (end.failedReason && status.state !== 'failed') {
    ended.delete(answer.jobId);
    end = await endOf(answer.jobId);
    status = await jobStatus(answer.jobId);
  }
  if (status.state !== 'completed' || !status.result.coverUrl) throw new Error(`job ${answer.jobId} ended as ${JSON.stringify(status)}`);
  // Where the job's time went, by BullMQ's own clock: waiting in the queue, then in the worker's hands.
  const job = await queue.getJob(answer.jobId);
  return {
    total: (end.at - started) / 1000,
    upload: (uploaded - started) / 1000,
    job: (end.at - uploaded) / 1000,
    queued: (job.processedOn - job.timestamp) / 1000,
    worked: (job.finishedOn - job.processedOn) / 1000,
  };
}

async function jobStatus(jobId) {
  const response = await fetch(`http://127.0.0.1:${GATEWAY_PORT}/api/upload/video/jobs/${jobId}`, { headers: { authorization: `Bearer ${token}` } });
  return (await response.json()).data;
}

// The commands FfmpegVideoTools runs (libs/media/src/videos/ffmpeg.video-tools.ts): the cover (its JPEG on the
// standard output) and the transcode in the job. An MP4's upload call starts no ffprobe: it reads the file's boxes.
const coverArgs = (input) => ['-v', 'error', '-ss', '1', '-i', input, '-frames:v', '1', '-vf', 'scale=640:360:force_original_aspect_ratio=decrease,pad=640:360:(ow-iw)/2:(oh-ih)/2', '-q:v', '3', '-f', 'image2pipe', '-c:v', 'mjpeg', 'pipe:1'];
const transcodeArgs = (input, output) => ['-v', 'error', '-y', '-i', input, '-c:v', 'libx264', '-c:a', 'aac', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p', '-vf', 'scale=trunc(iw/2)*2:trunc(ih/2)*2', '-movflags', '+faststart', '-f', 'mp4', output];

async function timed(work) {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
}

console.log('making the clips…');
const mp4 = await clip('mp4', ['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'], 30, '1280x720');
const avi = await clip('avi', ['-c:v', 'mpeg4', '-q:v', '4', '-c:a', 'mp3'], 30, '1280x720');

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`cover (H.264 MP4, 30 s 720p), ${coverRuns} times…`);
const covers = [];
for (let i = 0; i < coverRuns; i += 1) {
  const direct = await timed(() => run(ffmpeg, coverArgs(mp4), { encoding: 'buffer' }));
  const pipeline = await throughPipeline(mp4, 'clip.mp4');
  covers.push({ direct, ...pipeline });
  // The worker starts its next cover command as soon as a cover is made; let that start end before the next
  // direct command, so that the two do not share the cores.
  await sleep(1000);
  console.log(`  direct ${direct.toFixed(2)} s, pipeline ${pipeline.total.toFixed(2)} s (upload ${pipeline.upload.toFixed(2)}, job ${pipeline.job.toFixed(2)}: queued ${pipeline.queued.toFixed(2)}, worked ${pipeline.worked.toFixed(2)}): ${(pipeline.total / direct).toFixed(2)}×`);
}
const coverDirect = median(covers.map((cover) => cover.direct));
const coverPipeline = { total: median(covers.map((cover) => cover.total)), upload: median(covers.map((cover) => cover.upload)), job: median(covers.map((cover) => cover.job)) };
const coverRatio = median(covers.map((cover) => cover.total / cover.direct));
const coverJobRatio = median(covers.map((cover) => cover.job / cover.direct));
console.log('cover and transcode (AVI, 30 s 720p)…');
const transcodeDirect = await timed(async () => {
  await run(ffmpeg, coverArgs(avi), { encoding: 'buffer' });
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
console.log(`cover, 30 s 720p H.264 MP4 (med.) | ${f(coverPipeline.total)} (${f(coverPipeline.upload)} + ${f(coverPipeline.job)}) | ${f(coverDirect)}         | ${coverRatio.toFixed(2)}× (job alone ${coverJobRatio.toFixed(2)}×), medians of ${coverRuns} paired runs`);
console.log(`cover + transcode, 30 s 720p AVI  | ${f(transcodePipeline.total)} (${f(transcodePipeline.upload)} + ${f(transcodePipeline.job)}) | ${f(transcodeDirect)}         | ${(transcodePipeline.total / transcodeDirect).toFixed(2)}× (job alone ${(transcodePipeline.job / transcodeDirect).toFixed(2)}×)`);
console.log(`\n5 MB image uploads: ${viaGateway.toFixed(1)}/s through the gateway (${((viaGateway * picture.length) / 1024 / 1024).toFixed(1)} MB/s), ${direct.toFixed(1)}/s direct to MinIO (${((direct * picture.length) / 1024 / 1024).toFixed(1)} MB/s): ${((viaGateway / direct) * 100).toFixed(0)}%`);

const objects = [];
for await (const item of minio.listObjectsV2(BUCKET, '', true)) objects.push(item.name);
if (objects.length > 0) await minio.removeObjects(BUCKET, objects);
await queueEvents.close();
await queue.close();
rmSync(work, { recursive: true, force: true });
process.exit(0);
