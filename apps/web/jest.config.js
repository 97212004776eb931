// Unit tests next to the code (src), browser tests against the embedded product (test).
module.exports = { ...require('../../jest.preset.js'), displayName: 'web', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'] };
