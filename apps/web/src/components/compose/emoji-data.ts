/** The picker's fixed groups after 最近使用 (public-side.md §3), each a list of `emoji:名称` (a trailing ~ takes skin tones). */
const RAW: [EmojiGroupId, string, string][] = [
  [
    'smileys_people',
    '笑脸与人物',
    '😀:大笑 😃:开心 😄:笑眯眯 😁:嘻嘻 😆:哈哈 😅:苦笑 🤣:笑到打滚 😂:笑哭 🙂:微笑 😉:眨眼 😊:害羞 😇:天使 🥰:喜欢 😍:花痴 🤩:星星眼 😘:飞吻 😋:好吃 😛:吐舌 😜:调皮 🤪:滑稽 🤗:抱抱 🤭:捂嘴笑 🤫:嘘 🤔:思考 😐:无语 😑:面无表情 😶:沉默 😏:得意 😒:不屑 🙄:翻白眼 😬:尴尬 😌:放松 😔:失落 😪:困 😴:睡觉 😷:口罩 🤒:生病 🥵:好热 🥶:好冷 🥴:晕 😵:晕倒 🤯:爆炸 🥳:庆祝 😎:酷 🤓:书呆子 🧐:观察 😕:困惑 😟:担心 🙁:不开心 😮:惊讶 😲:震惊 🥺:可怜 😢:流泪 😭:大哭 😱:惊恐 😖:纠结 😣:坚持 😞:失望 😓:汗 😩:累 😫:疲惫 🥱:哈欠 😤:生气 😡:愤怒 🤬:骂人 😈:坏笑 💀:骷髅 💩:便便 🤡:小丑 👻:幽灵 👽:外星人 🤖:机器人 😺:猫笑 ❤️:红心 💔:心碎 💕:两颗心 💯:满分 💢:生气符号 💤:睡着 👋:挥手~ 🤚:举手~ ✋:手掌~ 👌:好的~ 🤞:祈祷好运~ ✌️:耶~ 🤟:爱你~ 👈:左边~ 👉:右边~ 👆:上面~ 👇:下面~ 👍:赞~ 👎:踩~ ✊:拳头~ 👊:出拳~ 👏:鼓掌~ 🙌:欢呼~ 🤝:握手 🙏:拜托~ 💪:加油~ 🙋:举手提问~ 🙇:鞠躬~ 🤦:捂脸~ 🤷:耸肩~ 👨‍🎓:男学生~ 👩‍🎓:女学生~ 👨‍🏫:男老师~ 👩‍🏫:女老师~ 🧑‍💻:程序员~ 🏃:跑步~ 💃:跳舞~',
  ],
  [
    'animals_nature',
    '动物与自然',
    '🐶:小狗 🐱:小猫 🐭:老鼠 🐹:仓鼠 🐰:兔子 🦊:狐狸 🐻:熊 🐼:熊猫 🐨:考拉 🐯:老虎 🦁:狮子 🐮:牛 🐷:猪 🐸:青蛙 🐵:猴子 🐔:鸡 🐧:企鹅 🐦:小鸟 🐤:小鸡 🦆:鸭子 🦉:猫头鹰 🐺:狼 🐴:马 🦄:独角兽 🐝:蜜蜂 🦋:蝴蝶 🐌:蜗牛 🐞:瓢虫 🐢:乌龟 🐍:蛇 🐙:章鱼 🦀:螃蟹 🐠:热带鱼 🐬:海豚 🐳:鲸鱼 🦈:鲨鱼 🐘:大象 🦒:长颈鹿 🐿️:松鼠 🌵:仙人掌 🎄:圣诞树 🌲:松树 🌳:大树 🌴:棕榈树 🌱:发芽 🌿:草 🍀:四叶草 🍁:枫叶 🍂:落叶 🌷:郁金香 🌹:玫瑰 🌺:花 🌸:樱花 🌼:小花 🌻:向日葵 🌞:太阳 🌝:月亮脸 🌙:月亮 ⭐:星星 🌟:闪亮 ⚡:闪电 🔥:火 🌈:彩虹 ☀️:晴天 ⛅:多云 🌧️:下雨 ⛄:雪人 ❄️:雪花 🌊:海浪',
  ],
  [
    'food_drink',
    '食物与饮料',
    '🍏:青苹果 🍎:苹果 🍐:梨 🍊:橘子 🍋:柠檬 🍌:香蕉 🍉:西瓜 🍇:葡萄 🍓:草莓 🍒:樱桃 🍑:桃子 🥭:芒果 🍍:菠萝 🥝:猕猴桃 🍅:番茄 🥑:牛油果 🌽:玉米 🥕:胡萝卜 🍞:面包 🥐:可颂 🧀:奶酪 🍳:煎蛋 🥓:培根 🍗:鸡腿 🍔:汉堡 🍟:薯条 🍕:披萨 🌭:热狗 🌮:卷饼 🍜:面条 🍲:火锅 🍛:咖喱饭 🍣:寿司 🍱:便当 🥟:饺子 🍤:炸虾 🍙:饭团 🍚:米饭 🍢:关东煮 🍡:团子 🍧:刨冰 🍦:冰淇淋 🍰:蛋糕 🎂:生日蛋糕 🧁:纸杯蛋糕 🍮:布丁 🍭:棒棒糖 🍬:糖果 🍫:巧克力 🍿:爆米花 🍩:甜甜圈 🍪:饼干 🥛:牛奶 ☕:咖啡 🍵:茶 🧋:奶茶 🥤:饮料 🍺:啤酒 🍻:干杯 🥂:碰杯 🍷:红酒',
  ],
  [
    'activities',
    '活动',
    '⚽:足球 🏀:篮球 🏈:橄榄球 ⚾:棒球 🎾:网球 🏐:排球 🏓:乒乓球 🏸:羽毛球 🥊:拳击 🥋:武术 ⛳:高尔夫 ⛸️:滑冰 🎿:滑雪 🏊:游泳~ 🚴:骑行~ 🧘:瑜伽~ 🏆:奖杯 🥇:金牌 🥈:银牌 🥉:铜牌 🏅:奖牌 🎖️:勋章 🎫:门票 🎟️:入场券 🎪:马戏 🎭:戏剧 🎨:画画 🎬:电影 🎤:唱歌 🎧:耳机 🎼:乐谱 🎹:钢琴 🥁:鼓 🎷:萨克斯 🎺:小号 🎸:吉他 🎻:小提琴 🎲:骰子 🎯:飞镖 🎳:保龄球 🎮:游戏 🧩:拼图 🎉:撒花 🎊:彩球 🎈:气球 🎁:礼物 🎀:蝴蝶结 🧧:红包 🎆:烟花 🎇:仙女棒 🎃:南瓜灯',
  ],
  [
    'travel_places',
    '旅行与地点',
    '🚗:汽车 🚕:出租车 🚌:公交 🚎:无轨电车 🏎️:赛车 🚓:警车 🚑:救护车 🚒:消防车 🚲:自行车 🛴:滑板车 🛵:电动车 🚄:高铁 🚇:地铁 ✈️:飞机 🚀:火箭 🛸:飞碟 🚁:直升机 ⛵:帆船 🚢:轮船 ⚓:锚 🗺️:地图 🧭:指南针 🏔️:雪山 ⛰️:山 🌋:火山 🏕️:露营 🏖️:沙滩 🏝️:海岛 🏞️:公园 🏟️:体育场 🏛️:博物馆 🏫:学校 🏥:医院 🏦:银行 🏨:酒店 🏪:便利店 🏠:家 🏡:小屋 ⛪:教堂 🗼:塔 🗽:自由女神 🎡:摩天轮 🎢:过山车 🌃:夜景 🌆:黄昏 🌅:日出 🌉:大桥 🌌:银河',
  ],
  [
    'objects',
    '物品',
    '⌚:手表 📱:手机 💻:电脑 ⌨️:键盘 🖥️:显示器 🖨️:打印机 🖱️:鼠标 💾:软盘 📷:相机 📸:拍照 📹:摄像机 🎥:电影机 📺:电视 📻:收音机 ⏰:闹钟 ⌛:沙漏 🔋:电池 🔌:插头 💡:灯泡 🔦:手电筒 🕯️:蜡烛 💸:花钱 💵:钞票 💰:钱袋 💳:银行卡 💎:钻石 🔧:扳手 🔨:锤子 ✂️:剪刀 🔑:钥匙 🚪:门 🛏️:床 🛋️:沙发 🧸:玩偶 🖼️:画框 🛍️:购物袋 🛒:购物车 🎒:书包 👓:眼镜 👕:T恤 👗:裙子 👟:运动鞋 👑:皇冠 💄:口红 💍:戒指 ☂️:雨伞 📚:书 📖:打开的书 📝:笔记 ✏️:铅笔 🖊️:钢笔 📌:图钉 📎:回形针 📏:直尺 📅:日历 📊:图表 📦:快递 ✉️:信封 💌:情书 🔒:锁 🔔:铃铛 📣:喇叭 💊:药丸 🧪:试管 🔬:显微镜 🔭:望远镜',
  ],
  [
    'symbols',
    '符号',
    '🧡:橙心 💛:黄心 💚:绿心 💙:蓝心 💜:紫心 🖤:黑心 🤍:白心 🤎:棕心 ❣️:感叹心 💞:旋转的心 💓:心跳 💗:心动 💖:闪亮的心 💘:一箭穿心 💝:心形礼物 ☮️:和平 ☯️:太极 ♈:白羊座 ♉:金牛座 ♊:双子座 ♋:巨蟹座 ♌:狮子座 ♍:处女座 ♎:天秤座 ♏:天蝎座 ♐:射手座 ♑:摩羯座 ♒:水瓶座 ♓:双鱼座 🆗:OK 🆒:COOL 🆕:NEW 🆙:UP 🆓:FREE 🈶:有 🈚:无 🉐:得 🈵:满 ✅:勾选 ☑️:已选 ✔️:对 ❌:错 ❎:叉 ➕:加 ➖:减 ➗:除 ❓:问号 ❗:感叹号 ‼️:双感叹 ⁉️:疑问感叹 💲:美元 ♻️:循环 ⚠️:警告 🚫:禁止 ⛔:禁止通行 🔞:十八禁 📵:禁止手机 🔝:置顶 🔜:即将 🔛:开启 🔚:结束 🔴:红点 🟠:橙点 🟡:黄点 🟢:绿点 🔵:蓝点 🟣:紫点 ⚫:黑点 ⚪:白点 🎵:音符 🎶:音乐 💬:对话 💭:想法 🗯️:愤怒气泡',
  ],
  [
    'flags',
    '旗帜',
    '🏁:终点旗 🚩:红旗 🎌:交叉旗 🏴:黑旗 🏳️:白旗 🏳️‍🌈:彩虹旗 🇨🇳:中国 🇭🇰:中国香港 🇲🇴:中国澳门 🇹🇼:中国台湾 🇯🇵:日本 🇰🇷:韩国 🇸🇬:新加坡 🇹🇭:泰国 🇲🇾:马来西亚 🇻🇳:越南 🇮🇳:印度 🇺🇸:美国 🇨🇦:加拿大 🇬🇧:英国 🇫🇷:法国 🇩🇪:德国 🇮🇹:意大利 🇪🇸:西班牙 🇷🇺:俄罗斯 🇦🇺:澳大利亚 🇳🇿:新西兰 🇧🇷:巴西 🇦🇷:阿根廷 🇪🇬:埃及 🇿🇦:南非',
  ],
];

export type EmojiGroupId = 'recent' | 'smileys_people' | 'animals_nature' | 'food_drink' | 'activities' | 'travel_places' | 'objects' | 'symbols' | 'flags';

export interface Emoji {
  char: string;
  name: string;
  /** Takes a skin-tone modifier. */
  tones: boolean;
}

export interface EmojiGroup {
  id: EmojiGroupId;
  label: string;
  emojis: Emoji[];
}

export const EMOJI_GROUPS: EmojiGroup[] = RAW.map(([id, label, list]) => ({
  id,
  label,
  emojis: list.split(' ').map((entry) => {
    const at = entry.indexOf(':');
    const name = entry.slice(at + 1);
    return { char: entry.slice(0, at), name: name.replace(/~$/, ''), tones: name.endsWith('~') };
  }),
}));

/** The six skin tones: none, then Fitzpatrick types 1-2 to 6. */
export const SKIN_TONES = ['', '\u{1F3FB}', '\u{1F3FC}', '\u{1F3FD}', '\u{1F3FE}', '\u{1F3FF}'] as const;

/** An emoji with a skin tone: the modifier follows the first code point (before any joiner or variation selector). */
export function withTone(emoji: Emoji, tone: string): string {
  if (!tone || !emoji.tones) return emoji.char;
  const [first, ...rest] = [...emoji.char];
  return first + tone + rest.filter((char) => char !== '\uFE0F').join('');
}

/** Emojis whose name contains the words typed (case-insensitive), at most one of each character. */
export function searchEmojis(words: string): Emoji[] {
  const wanted = words.trim().toLowerCase();
  if (!wanted) return [];
  const seen = new Set<string>();
  return EMOJI_GROUPS.flatMap((group) => group.emojis).filter((emoji) => emoji.name.toLowerCase().includes(wanted) && !seen.has(emoji.char) && seen.add(emoji.char));
}

/** The recent list: the newest first, no repeats, at most 24 (public-side.md §9). */
export function addRecent(recent: string[], emoji: string, limit = 24): string[] {
  return [emoji, ...recent.filter((each) => each !== emoji)].slice(0, limit);
}
