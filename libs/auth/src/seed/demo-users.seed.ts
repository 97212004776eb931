import type { INestApplicationContext } from '@nestjs/common';
import { OBJECT_STORAGE, type ObjectStorage } from '@shiliu/platform';
import { UsersService } from '../users/users.service';
import { VerificationService } from '../verification/verification.service';
import { type AvatarKind, storeDemoAvatar } from './demo-avatars';

/** Every demo account signs in with this password (README.md, on what `npm start` loads at its first start). */
export const DEMO_PASSWORD = 'shiliu123';

const people: [string, string, string, string][] = [
  ['xiaoshiliu', '小石榴', '北京', '热爱生活的小石榴，记录校园里的每一天'],
  ['lin_xiaoyu', '林小雨', '上海', '图书馆常驻选手 | 考研中'],
  ['chen_mo', '陈默', '浙江', '摄影社社长，带你看不一样的校园'],
  ['zhou_tiantian', '周甜甜', '四川', '美食探店，吃遍学校周边'],
  ['wang_haoran', '王浩然', '江苏', '篮球、跑步、健身，一个都不能少'],
  ['li_sisi', '李思思', '湖北', '穿搭分享 | 学生党平价好物'],
  ['zhang_yifan', '张一帆', '广东', '旅行是最好的学习'],
  ['liu_xingchen', '刘星辰', '山东', '天文社 | 夜空比代码更迷人'],
  ['huang_jiajia', '黄佳佳', '福建', '手账爱好者，分享学习方法'],
  ['zhao_ziyu', '赵子瑜', '陕西', '西安土著，古城慢生活'],
  ['sun_mengqi', '孙梦琪', '湖南', '辣妹子的食堂测评'],
  ['zhou_jie', '周杰', '重庆', '吉他社 | 偶尔写歌'],
  ['wu_yutong', '吴雨桐', '天津', '英语角组织者，欢迎来练口语'],
  ['xu_ming', '徐明', '河南', '计算机系，写代码也写生活'],
  ['ma_xiaoxiao', '马笑笑', '云南', '把大理的风带到校园'],
  ['hu_yang', '胡杨', '新疆', '来自新疆的跑者'],
  ['guo_jingjing', '郭晶晶', '安徽', '考证达人，经验都在这里'],
  ['he_yu', '何宇', '广西', '骑行爱好者，周末去看海'],
  ['luo_qian', '罗倩', '江西', '烘焙社 | 今天也烤了小蛋糕'],
  ['liang_chen', '梁晨', '辽宁', '东北话十级，快乐源泉'],
  ['song_yi', '宋依', '河北', '画画、插画、板绘练习中'],
  ['tang_guo', '唐果', '贵州', '宿舍好物与收纳分享'],
  ['han_xue', '韩雪', '黑龙江', '冰雪运动爱好者'],
  ['feng_lei', '冯磊', '山西', '机械系 | 动手做点小东西'],
  ['cao_yue', '曹悦', '江苏', '辩论队，喜欢讲道理'],
  ['deng_zi', '邓紫', '广东', '追剧、综艺和音乐节'],
  ['peng_bo', '彭博', '湖南', '创业社团，想法很多'],
  ['xie_wan', '谢婉', '浙江', '汉服社 | 传统文化爱好者'],
  ['yu_hang', '于航', '北京', '飞盘和露营'],
  ['ye_zhi', '叶知', '上海', '读书会，一周一本书'],
  ['campus_library', '校图书馆', '北京', '开馆时间、新书推荐和讲座预告，都在这里'],
  ['student_union', '校学生会', '北京', '服务同学，活动、招新和权益反馈请找我们'],
];

/** The official accounts among them: each gets an emblem for an avatar and an approved official verification. */
const officials: Record<string, { kind: AvatarKind; org: string; code: string }> = {
  campus_library: { kind: 'library', org: '拾柳大学图书馆', code: '12100000400000001A' },
  student_union: { kind: 'union', org: '拾柳大学学生会', code: '51100000500000002B' },
};

/** The demo accounts' product IDs: the back office lists them as its test users (GET /api/admin/test-users). */
export const DEMO_USER_IDS: readonly string[] = people.map(([userId]) => userId);

/**
 * About thirty students and two official accounts registered through the normal path, each with a drawn avatar, so
 * every service hears user.registered for each; the official accounts apply for verification and are approved as an
 * administrator would approve them, so their badge arrives as user.verified.
 */
export async function seedDemoUsers(app: INestApplicationContext): Promise<void> {
  const users = app.get(UsersService);
  const verification = app.get(VerificationService);
  const storage = app.get<ObjectStorage>(OBJECT_STORAGE);
  for (const [index, [userId, nickname, location, bio]] of people.entries()) {
    if (!(await users.isUserIdFree(userId))) continue;
    const official = officials[userId];
    // Spread over the face combinations, so neighbours in the list do not look alike.
    const avatar = await storeDemoAvatar(storage, userId, official?.kind ?? 'student', index * 37 + 11);
    const user = await users.register({ userId, nickname, password: DEMO_PASSWORD, location, bio, avatar });
    if (!official) continue;
    const application = await verification.submit(user.id, 1, {
      org_name: official.org,
      credit_code: official.code,
      contact_name: nickname,
      contact_phone: '13800000000',
      reason: '学校官方账号',
    });
    await verification.approve(String(application.id));
  }
}
