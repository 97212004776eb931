// `npx nx run @shiliu/platform:replay -- <service> [event type]`: sends a service's parked events again (see replayParked).
import '@shiliu/contracts';
import { replayParked } from '../events/replay';
import { loadConfig, url } from '../config/config';

const [service, type] = process.argv.slice(2);
if (!service) {
  console.error('usage: replay <service> [event type]');
  process.exit(2);
}
replayParked(loadConfig({ DATABASE_URL: url() }).DATABASE_URL, service, { type }).then(
  ({ replayed, released }) => console.log(`${service}: ${replayed} parked event(s) sent again, ${released} refused outbox record(s) released`),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
