import type { INestApplicationContext } from '@nestjs/common';
import type { Principal } from '@shiliu/platform';
import { DataSource } from 'typeorm';
import { FollowService } from '../follows/follow.service';

/** The demo student a first visitor signs in as: many follow her, so her fans list and notifications have people in them. */
const HOST = 'xiaoshiliu';
const OFFICIAL = ['campus_library', 'student_union'];

/** Circles of the demo accounts (auth's seed): clubs and friends who follow most of each other. */
const CIRCLES: readonly string[][] = [
  ['chen_mo', 'liu_xingchen', 'song_yi', 'zhang_yifan', 'ma_xiaoxiao', 'xie_wan', 'han_xue', HOST],
  ['wang_haoran', 'hu_yang', 'han_xue', 'yu_hang', 'he_yu', 'xu_ming'],
  ['zhou_tiantian', 'sun_mengqi', 'luo_qian', 'liang_chen', 'zhao_ziyu', 'li_sisi', HOST],
  ['lin_xiaoyu', 'huang_jiajia', 'guo_jingjing', 'wu_yutong', 'ye_zhi', 'xu_ming', 'feng_lei', 'liu_xingchen'],
  ['li_sisi', 'tang_guo', 'xie_wan', 'deng_zi', 'huang_jiajia'],
  ['zhou_jie', 'deng_zi', 'cao_yue', 'peng_bo', 'ye_zhi', 'song_yi', 'luo_qian'],
  ['zhang_yifan', 'ma_xiaoxiao', 'he_yu', 'zhao_ziyu', 'hu_yang', 'chen_mo', 'yu_hang'],
  [...OFFICIAL, HOST, 'cao_yue', 'peng_bo'],
];

/** Whether the pair (a, b) is among `percent` of all pairs: a fixed spread, so the graph is the same on every first start. */
const chosen = (a: number, b: number, percent: number) => (a * 37 + b * 61 + 13) % 100 < percent;

/**
 * The demo follow graph, through FollowService so each follow moves both counters and emits user.followed (notify
 * tells the one followed): most of a circle follow each other (many of them both ways), most students follow the
 * official accounts, a good part of them follow the host, and whoever is left out follows, and is followed by,
 * someone. Only the demo accounts take part: a real student's follows are theirs to make.
 */
export async function seedDemoFollows(app: INestApplicationContext): Promise<void> {
  const follows = app.get(FollowService);
  const cast = [...new Set(CIRCLES.flat())];
  const cards: { id: string; user_id: string }[] = await app.get(DataSource).query(`SELECT "id", "user_id" FROM "user_cards" WHERE "user_id" = ANY($1) ORDER BY "id"`, [cast]);
  if (cards.length < 2) return;
  const byUserId = new Map(cards.map((card) => [card.user_id, card]));
  const edges = new Set<string>();
  const following = new Set<string>();
  const followed = new Set<string>();
  const follow = async (from: string, to: string) => {
    const follower = byUserId.get(from);
    if (!follower || !byUserId.has(to) || from === to || edges.has(`${from}>${to}`)) return;
    edges.add(`${from}>${to}`);
    following.add(from);
    followed.add(to);
    const principal: Principal = { audience: 'user', id: String(follower.id), userId: from, sessionId: 'demo-seed' };
    await follows.follow(principal, to);
  };

  for (const [c, circle] of CIRCLES.entries()) for (const [i, from] of circle.entries()) for (const [j, to] of circle.entries()) if (chosen(c + i, j, 70)) await follow(from, to);
  for (const [i, { user_id }] of cards.entries()) for (const [j, official] of OFFICIAL.entries()) if (!OFFICIAL.includes(user_id) && chosen(i, j, 75)) await follow(user_id, official);
  const fans = cards.filter((card, i) => card.user_id !== HOST && chosen(i, 3, 45));
  for (const fan of fans) await follow(fan.user_id, HOST);
  for (const [i, fan] of fans.entries()) if (i % 2 === 0) await follow(HOST, fan.user_id);

  for (const [index, card] of cards.entries()) {
    const other = cards[(index + 1 + ((index * 7) % (cards.length - 1))) % cards.length].user_id;
    if (!following.has(card.user_id)) await follow(card.user_id, other);
    if (!followed.has(card.user_id)) await follow(other, card.user_id);
  }
}
