// One Jest run over every project, so `npm test` prints one summary.
module.exports = {
  projects: ['<rootDir>/libs/*/jest.config.js', '<rootDir>/apps/*/jest.config.js', '<rootDir>/ops/jest.config.js'],
  testTimeout: 120_000,
};
