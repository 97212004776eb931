// Prints the SQL the content service runs for a page of the 关注 feed, so the direct-SQL side of the bench runs the
// same statements (run by run.mjs through ts-node; not part of any build); the viewer is the parameter '0'. `cards`
// reads notes by id, as a page read from inboxes would.
import { feedQueries, shownNotes } from '@shiliu/content';

const snapshot = new Date(Date.now() + 3_600_000);
process.stdout.write(JSON.stringify({ following: feedQueries({ drafts: false, snapshot, followerId: '0' }, 'newest', null, 20, 0), cards: shownNotes.text }));
