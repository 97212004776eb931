// The process bench/adapters/run.mjs starts: one Nest application on the adapter named by argv[2] ('express' or
// 'fastify'), listening on argv[3], with the shape of a service's pipeline (a global guard, the platform's envelope
// interceptor and a second one, a path parameter, a JSON body) and as many routes as content has, a note's detail
// and a like among them. It tells its parent when it listens.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
require('reflect-metadata');
const { Body, Controller, Get, Module, Param, Post } = require('@nestjs/common');
const { APP_GUARD, APP_INTERCEPTOR, NestFactory } = require('@nestjs/core');
const { EnvelopeInterceptor } = require(join(dirname(fileURLToPath(import.meta.url)), '../../libs/platform/dist/http/envelope.interceptor.js'));

const note = { id: 1, title: '毕业旅行计划', content: '出发前的清单'.repeat(100), images: ['a.jpg', 'b.jpg'], likeCount: 12, collectCount: 3, author: { id: 7, nickname: '同学' } };

class AllowEveryone {
  canActivate() {
    return true;
  }
}
class PassThrough {
  intercept(_context, next) {
    return next.handle();
  }
}

class Routes {
  async detail(id) {
    return { ...note, id: Number(id) };
  }
  async like(body) {
    return { liked: true, likeCount: Number(body.target_id) };
  }
}
const route = (name, verb, path, parameter) => {
  const descriptor = Object.getOwnPropertyDescriptor(Routes.prototype, name);
  verb(path)(Routes.prototype, name, descriptor);
  parameter(Routes.prototype, name, 0);
};
// Content's other routes, registered first so that the two measured calls are matched after them, as in the service.
for (let index = 0; index < 40; index++) {
  const name = `other${index}`;
  Routes.prototype[name] = async (value) => value;
  route(name, index % 2 ? Post : Get, `other${index}/:value`, Param('value'));
}
route('detail', Get, 'posts/:id', Param('id'));
route('like', Post, 'likes', Body());
Controller('api')(Routes);

class BenchModule {}
Module({
  controllers: [Routes],
  providers: [
    { provide: APP_GUARD, useClass: AllowEveryone },
    { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
    { provide: APP_INTERCEPTOR, useClass: PassThrough },
  ],
})(BenchModule);

const [adapter, port] = process.argv.slice(2);
const app =
  adapter === 'fastify'
    ? await NestFactory.create(BenchModule, new (require('@nestjs/platform-fastify').FastifyAdapter)(), { logger: false })
    : await NestFactory.create(BenchModule, { logger: false });
await app.listen(Number(port), '127.0.0.1');
process.send('listening');
