import { consumerLagSources, metricsRegistry, poolUseSources, queueDepthSources } from './metrics';

/** Scrape-time gauges read their sources when Prometheus asks, and a failing source hides only its own figures. */
describe('scrape-time metrics', () => {
  it('report consumer lag, queue depth and pool use from their sources, skipping one that fails', async () => {
    const lag = async () => [{ service: 'social', group: 'shiliu-social', topic: 'shiliu.post', lag: 7 }];
    const depth = async () => [{ queue: 'media', state: 'waiting', jobs: 3 }];
    const pool = async () => [{ service: 'content', total: 10, idle: 4, waiting: 2 }];
    const broken = async (): Promise<never[]> => {
      throw new Error('Kafka away');
    };
    consumerLagSources.add(lag).add(broken);
    queueDepthSources.add(depth);
    poolUseSources.add(pool);
    try {
      const text = await metricsRegistry.metrics();
      expect(text).toContain('shiliu_kafka_consumer_lag{service="social",group="shiliu-social",topic="shiliu.post"} 7');
      expect(text).toContain('shiliu_queue_jobs{queue="media",state="waiting"} 3');
      expect(text).toContain('shiliu_db_pool_total{service="content"} 10');
      expect(text).toContain('shiliu_db_pool_idle{service="content"} 4');
      expect(text).toContain('shiliu_db_pool_waiting{service="content"} 2');
    } finally {
      consumerLagSources.delete(lag);
      consumerLagSources.delete(broken);
      queueDepthSources.delete(depth);
      poolUseSources.delete(pool);
    }
  });
});
