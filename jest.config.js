// One Jest run over every project, so `npm test` prints one summary.
module.exports = {
  projects: ['<rootDir>/libs/*/jest.config.js', '<rootDir>/apps/*/jest.config.js', '<rootDir>/ops/jest.config.js'],
  // A ceiling for what hangs, never a measure: on a loaded machine, starting a suite's processes alone can take minutes.
  testTimeout: 300_000,
};
