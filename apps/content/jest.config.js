module.exports = { ...require('../../jest.preset.js'), displayName: 'app-content', rootDir: __dirname };
