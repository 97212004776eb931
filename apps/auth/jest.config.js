module.exports = { ...require('../../jest.preset.js'), displayName: 'app-auth', rootDir: __dirname };
