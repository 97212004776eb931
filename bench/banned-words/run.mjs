#!/usr/bin/env node
// The banned-word check as every service runs it (libs/platform/src/moderation/banned-words.ts, from the build):
// 1,000 words against a 2,000-character note that holds none of them (the whole text is read), against one that
// holds a word at its end, and the naive scan (one `includes` a word) beside it. Prints the median time of a check.
// Usage: npx nx run-many -t build --projects=@shiliu/platform && node bench/banned-words/run.mjs [checks, default 2000]
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { root } from '../lib.mjs';

const N = Number(process.argv[2] ?? 2_000);
const { BannedWordMatcher, normalizeForBannedWords } = createRequire(import.meta.url)(join(root, 'libs/platform/dist/moderation/banned-words.js'));

// Words of two to five common characters, seeded so that every run checks the same list.
const pool = '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处理府研质';
let seed = 7;
const next = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
const words = Array.from({ length: 1000 }, () => Array.from({ length: 2 + Math.floor(next() * 4) }, () => pool[Math.floor(next() * pool.length)]).join('') + '禁');
const clean = Array.from({ length: 2000 }, () => pool[Math.floor(next() * pool.length)]).join('');
const hit = clean.slice(0, 1990) + words[999];

const matcher = new BannedWordMatcher(words);
const naive = (text) => {
  const plain = normalizeForBannedWords(text);
  return matcher.words.find((word) => plain.includes(word)) ?? null;
};

function median(check, text) {
  const times = [];
  for (let i = 0; i < N; i++) {
    const started = performance.now();
    check(text);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(N / 2)];
}

const started = performance.now();
new BannedWordMatcher(words);
console.log(`compile 1,000 words: ${(performance.now() - started).toFixed(2)} ms`);
console.log('| check of a 2,000-character note | median ms |');
console.log('|---|---|');
console.log(`| Aho-Corasick, no word | ${median((text) => matcher.find(text), clean).toFixed(3)} |`);
console.log(`| Aho-Corasick, a word at the end | ${median((text) => matcher.find(text), hit).toFixed(3)} |`);
console.log(`| one includes a word, no word | ${median(naive, clean).toFixed(3)} |`);
