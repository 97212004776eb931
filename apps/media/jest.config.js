module.exports = { ...require('../../jest.preset.js'), displayName: 'app-media', rootDir: __dirname };
