module.exports = { ...require('../../jest.preset.js'), displayName: 'app-notify', rootDir: __dirname };
