module.exports = { ...require('../../jest.preset.js'), displayName: 'app-social', rootDir: __dirname };
