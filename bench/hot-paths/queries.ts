// Prints the SQL the content service runs for the benchmarked reads, taken from its source where the repository
// exposes it, so the direct-SQL floor runs what the API runs (run by run.mjs through ts-node; not part of any build).
import { detailQuery, feedQueries, rankingQuery, shownNotes, viewerFlags } from '@shiliu/content';

const snapshot = new Date(Date.now() + 3_600_000);
process.stdout.write(
  JSON.stringify({
    recommendRanking: rankingQuery({ drafts: false, snapshot }, 'hot', 240),
    recommendTotal: feedQueries({ drafts: false, snapshot }, 'hot', null, 20, 0).total,
    category: feedQueries({ drafts: false, snapshot, categoryTitle: 'food' }, 'newest', null, 20, 0),
    detail: detailQuery(0, null),
    // Prepared by the service (named after their text), so run prepared here too.
    shownNotes,
    viewerFlags,
  }),
);
