module.exports = { ...require('../../jest.preset.js'), displayName: 'app-gateway', rootDir: __dirname };
