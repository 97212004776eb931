// Unit tests next to the code (src), browser tests against the embedded product (test). Components compile with JSX
// so that a unit test can render one (the console's management table) to markup.
const preset = require('../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'web',
  rootDir: __dirname,
  transform: { '^.+\\.tsx?$': ['ts-jest', { tsconfig: require('node:path').join(__dirname, 'tsconfig.jest.json'), diagnostics: false }] },
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
};
