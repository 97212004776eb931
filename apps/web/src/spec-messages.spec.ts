import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

// Every Chinese message of the spec's validation rules (§5) and error catalogues (§8) is said somewhere in this app.
// The list beside this file holds them, one a line, placeholders as {name}; it is checked against the app's code and,
// against what the spec says (it lives beside the repository, in ../shared/spec, or where SPEC_DIR points).

const LIST = join(__dirname, 'spec-messages.txt');
const SPEC_FILES = ['public-side.md', 'admin-and-startup.md'];
const SPEC_DIR = [process.env['SPEC_DIR'], join(__dirname, '../../../../shared/spec')].find((dir): dir is string => Boolean(dir) && SPEC_FILES.every((file) => existsSync(join(dir!, file))));

const CJK = '\\u4e00-\\u9fff';
const WIDE = '\\u3000-\\u303f\\uff01-\\uff5e';
const WORD = `[${CJK}${WIDE}0-9A-Za-z:/{}]`;
/**
 * A message: a run holding Chinese, which may go on past a space into a figure (5MB), a placeholder ({reason}, X) or a
 * bracketed one ((status)) when Chinese or a placeholder follows.
 */
const MESSAGE = new RegExp(`${WORD}*[${CJK}]${WORD}*(?: (?:X MB|\\d+MB|\\([a-z]+\\)|\\{[a-z]+\\})(?:${WORD}| (?=[${CJK}]))*)*`, 'g');

/** The Chinese messages of the given sections of one spec document, placeholders written as {name}. */
function specMessages(markdown: string, sections: string[]): string[] {
  const found: string[] = [];
  for (const section of sections) {
    const body = new RegExp(`^## ${section}\\. [^\\n]*\\n([\\s\\S]*?)(?=^## |$(?![\\s\\S]))`, 'm').exec(markdown)?.[1] ?? '';
    for (const run of body.match(MESSAGE) ?? []) {
      // "A / B" and "A or B" are two messages; "，请重试" on its own extends the one before it ("(and with ，请重试)").
      for (const piece of run.split(/ \/ | or /)) {
        const message = piece.trim().replace(/ X /g, ' {X} ').replace(/\(([a-z]+)\)/g, '({$1})');
        if (message.startsWith('，') && found.length > 0) found.push(found[found.length - 1] + message);
        else found.push(message);
      }
    }
  }
  return [...new Set(found)];
}

/**
 * The message as a pattern over source code: a placeholder stands for a template expression or a short literal, and
 * a figure may be written as the constant that holds it (最多只能上传${IMAGE_LIMITS.images}张图片).
 */
function pattern(message: string): RegExp {
  const literal = (part: string) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\d+/g, (figure) => `(?:${figure}|\\$\\{[^}]*\\})`);
  return new RegExp(message.split(/\{[A-Za-z]+\}/).map(literal).join(' ?(?:\\$\\{[^}]*\\}|[^\'"`\\s]{1,20}?) ?'));
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.spec\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [readFileSync(path, 'utf8')] : [];
  });
}

const listed = readFileSync(LIST, 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter(Boolean);

describe("the spec's messages (§5 and §8 of both documents)", () => {
  const code = sources(__dirname).join('\n');

  it.each(listed)('says %s', (message) => {
    expect(code).toMatch(pattern(message));
  });

  it('lists exactly what the spec says', () => {
    expect(SPEC_DIR).toBeDefined();
    const said = SPEC_FILES.flatMap((file) => specMessages(readFileSync(join(SPEC_DIR!, file), 'utf8'), ['5', '8']));
    expect([...new Set(said)].sort()).toEqual([...listed].sort());
  });

  it('matches a placeholder against a template expression or a figure', () => {
    expect("`最多只能再添加${free}张图片`").toMatch(pattern('最多只能再添加{n}张图片'));
    expect("'文件大小不能超过100MB'").toMatch(pattern('文件大小不能超过{size}'));
    expect('`请求失败 (${status})`').toMatch(pattern('请求失败 ({status})'));
    expect('`最多只能上传${IMAGE_LIMITS.images}张图片`').toMatch(pattern('最多只能上传9张图片'));
    expect("'最多只能添加9张图片'").not.toMatch(pattern('最多只能再添加{n}张图片'));
  });
});
