// Tests read the URLs of the local infrastructure that `infra/local/up` wrote, unless the environment gives them.
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const envFile = join(__dirname, '../../../infra/local/.run/test.env');
if (existsSync(envFile)) {
  for (const line of readFileSync(envFile, 'utf8').split('\n')) {
    const match = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (match && process.env[match[1]] === undefined) process.env[match[1]] = match[2];
  }
}
process.env.LOG_LEVEL ??= 'silent';
