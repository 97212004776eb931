// `npm start`: the whole product in one process on its embedded default (see README).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { build, installDependencies, NODE_FLAGS, root } from './lib.mjs';

installDependencies();
build();

const server = spawn(process.execPath, [...NODE_FLAGS, join(root, 'apps/gateway/dist/embedded.js')], { cwd: root, stdio: 'inherit' });
// Ctrl-C reaches the server directly (same process group); this wrapper only waits for it to finish its shutdown.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => server.kill('SIGTERM'));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
