// Prints the exact SQL the content service runs for each benchmarked call, so the direct-SQL side of the bench
// runs the same statements (run by run.mjs through ts-node; not part of any build).
import { detailQuery, feedQueries } from '@shiliu/content';

const snapshot = new Date(Date.now() + 3_600_000);
const recommend = feedQueries({ drafts: false, snapshot }, 'hot', null, 20, 0);
const category = feedQueries({ drafts: false, snapshot, categoryTitle: 'food' }, 'newest', null, 20, 0);
process.stdout.write(JSON.stringify({ recommend, category, detail: detailQuery(0, null) }));
