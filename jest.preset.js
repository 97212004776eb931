// Shared Jest settings: TypeScript through ts-jest (transpile only; `typecheck` does the type checking),
// workspace libraries resolved to their sources so tests need no prior build.
const path = require('node:path');

const libs = ['platform', 'contracts', 'gateway', 'auth', 'content', 'social', 'notify', 'search', 'media'];

module.exports = {
  testEnvironment: 'node',
  // A ceiling for what hangs, never a measure: on a loaded machine, starting a suite's processes alone can take minutes.
  testTimeout: 300_000,
  transform: {
    '^.+\\.tsx?$': ['ts-jest', { tsconfig: path.join(__dirname, 'tsconfig.base.json'), diagnostics: false }],
  },
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
  moduleNameMapper: {
    // Test helpers live outside the platform's production exports.
    '^@shiliu/platform/testing$': path.join(__dirname, 'libs/platform/src/testing/index.ts'),
    // Entry points that load part of a library, for processes that need no more.
    '^@shiliu/platform/core$': path.join(__dirname, 'libs/platform/src/core.ts'),
    '^@shiliu/platform/bullmq$': path.join(__dirname, 'libs/platform/src/queue/bullmq.queue.ts'),
    '^@shiliu/gateway/embedded$': path.join(__dirname, 'libs/gateway/src/embedded.ts'),
    ...Object.fromEntries(libs.map((lib) => [`^@shiliu/${lib}$`, path.join(__dirname, 'libs', lib, 'src', 'index.ts')])),
  },
  setupFiles: [path.join(__dirname, 'libs/platform/test/setup-env.js')],
};
