import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { parse } from 'yaml';
import { root, tool } from './tools';

/** docker-compose.yml against the Compose specification's JSON schema (from the compose-go module, installOpsTools). */
describe('docker-compose.yml', () => {
  it('validates against the Compose specification', () => {
    const schema = JSON.parse(readFileSync(tool('compose-spec.json'), 'utf8')) as object;
    const validate = new Ajv2020({ strict: false, allErrors: true, validateFormats: false }).compile(schema);
    const compose: unknown = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true });
    validate(compose);
    expect(validate.errors ?? []).toEqual([]);
  });
});
