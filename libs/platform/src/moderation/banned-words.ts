/** What a student is told when their text holds a banned word; nothing of it is stored. */
export const BANNED_WORDS_MESSAGE = '内容包含违规词汇';

/**
 * Text as banned words are compared (public-side.md §5, the text-image rule, plus full-width forms): markup tags
 * and every space or invisible format character removed, full-width letters, digits and signs made half-width
 * (NFKC), lower case. So `<b>赌</b> 博`, `ＳＰＡＭ` and `s p a m` hit the words `赌博` and `spam`.
 */
export function normalizeForBannedWords(text: string): string {
  return text
    .replace(/<[^>]*>/g, '')
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\p{Cf}]+/gu, '');
}

/**
 * The banned words compiled into an Aho-Corasick automaton: one pass over the text finds any of them, however many
 * there are, so a note is checked against a long list in well under a millisecond (bench/banned-words).
 */
export class BannedWordMatcher {
  /** Transitions of each state by character; state 0 is the root. */
  private readonly next: Map<string, number>[] = [new Map()];
  /** Where each state goes when its character does not continue: the longest suffix that is also a prefix. */
  private readonly fail: number[] = [0];
  /** A word that ends at the state, itself or through its suffixes. */
  private readonly ends: (string | null)[] = [null];
  /** The words as normalised, without duplicates or empty ones. */
  readonly words: string[];

  constructor(words: Iterable<string>) {
    this.words = [...new Set([...words].map(normalizeForBannedWords).filter(Boolean))];
    for (const word of this.words) {
      let state = 0;
      for (const char of word) {
        let to = this.next[state].get(char);
        if (to === undefined) {
          to = this.next.push(new Map()) - 1;
          this.fail.push(0);
          this.ends.push(null);
          this.next[state].set(char, to);
        }
        state = to;
      }
      this.ends[state] ??= word;
    }
    const queue = [...this.next[0].values()];
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head];
      for (const [char, to] of this.next[state]) {
        let back = this.fail[state];
        while (back !== 0 && !this.next[back].has(char)) back = this.fail[back];
        this.fail[to] = this.next[back].get(char) ?? 0;
        this.ends[to] ??= this.ends[this.fail[to]];
        queue.push(to);
      }
    }
  }

  /** The first banned word the text holds once normalised, or null. */
  find(text: string): string | null {
    if (this.words.length === 0) return null;
    let state = 0;
    for (const char of normalizeForBannedWords(text)) {
      while (state !== 0 && !this.next[state].has(char)) state = this.fail[state];
      state = this.next[state].get(char) ?? 0;
      const word = this.ends[state];
      if (word !== null) return word;
    }
    return null;
  }
}
