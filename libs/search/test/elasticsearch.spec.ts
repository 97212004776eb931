import { randomUUID } from 'node:crypto';
import { Client } from '@elastic/elasticsearch';
import { requireEnv } from '@shiliu/platform/testing';

/** The search service's engine in distributed mode answers: a Chinese document indexed with the standard analyzer is found by a phrase. */
describe('Elasticsearch', () => {
  const client = new Client({ node: requireEnv('ELASTICSEARCH_URL') });
  const index = `shiliu-smoke-${randomUUID()}`;

  afterAll(async () => {
    await client.indices.delete({ index }, { ignore: [404] });
    await client.close();
  });

  it('indexes a note and finds it by a Chinese phrase', async () => {
    await client.indices.create({ index, mappings: { properties: { title: { type: 'text', analyzer: 'standard' } } } });
    await client.index({ index, id: '1', document: { title: '图书馆里最安静的自习角落' }, refresh: 'wait_for' });
    await client.index({ index, id: '2', document: { title: '食堂新出的麻辣香锅' }, refresh: 'wait_for' });
    const result = await client.search<{ title: string }>({ index, query: { match_phrase: { title: '自习' } } });
    expect(result.hits.hits.map((hit) => hit._source?.title)).toEqual(['图书馆里最安静的自习角落']);
  });
});
