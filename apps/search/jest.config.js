module.exports = { ...require('../../jest.preset.js'), displayName: 'app-search', rootDir: __dirname };
