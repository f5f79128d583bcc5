import { emptyWord, ShellSyntaxError, type Command, type Pipeline, type Redirect, type ShellScript, type Simple, type Word } from './shell-syntax.js';

/**
 * A POSIX-ish shell parser, just deep enough for a permission policy: separators, pipes,
 * subshells and groups, quoting, `$( )`, backticks, `<( )`, redirections and here-documents.
 * What it does not understand (`case`, function definitions, arrays) is a syntax error, and
 * the policy treats a command it cannot read as one a human must look at.
 */
export function parseShell(source: string): ShellScript {
  return new Parser(source).script(undefined);
}

const WORD_END = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);
const REDIRECT = /^(?:&>>|&>|\d*(?:>>|>\||>&|>|<<<|<<-|<<|<>|<&|<))/;

type PendingHeredoc = { delimiter: string; stripTabs: boolean; expand: boolean; redirect: Redirect };

class Parser {
  private pos = 0;
  private heredocs: PendingHeredoc[] = [];

  constructor(private readonly src: string) {}

  script(end: ')' | '}' | undefined): ShellScript {
    const out: ShellScript = [];
    for (;;) {
      this.skipSeparators();
      const c = this.src[this.pos];
      if (c === undefined) {
        if (end) throw new ShellSyntaxError(`missing '${end}'`);
        return out;
      }
      if (c === ')' || (c === '}' && end === '}')) {
        if (c !== end) throw new ShellSyntaxError(`unexpected '${c}'`);
        this.pos++;
        return out;
      }
      out.push(this.pipeline());
    }
  }

  private pipeline(): Pipeline {
    const start = this.pos;
    const commands = [this.command()];
    for (;;) {
      this.skipBlanks();
      if (this.src[this.pos] !== '|' || this.src[this.pos + 1] === '|') break;
      this.pos += this.src[this.pos + 1] === '&' ? 2 : 1;
      this.skipBlanks(true);
      commands.push(this.command());
    }
    return { commands, source: this.src.slice(start, this.pos).trim() };
  }

  private command(): Command {
    this.skipBlanks();
    const start = this.pos;
    const c = this.src[this.pos];
    const opensGroup = c === '(' || (c === '{' && /[\s]/.test(this.src[this.pos + 1] ?? ''));
    if (!opensGroup) return this.simple();
    this.pos++;
    const body = this.script(c === '(' ? ')' : '}');
    const redirects: Redirect[] = [];
    for (this.skipBlanks(); REDIRECT.test(this.rest()); this.skipBlanks()) redirects.push(this.redirect());
    return { type: 'group', body, redirects, source: this.src.slice(start, this.pos).trim() };
  }

  private simple(): Simple {
    const start = this.pos;
    const words: Word[] = [];
    const redirects: Redirect[] = [];
    for (;;) {
      this.skipBlanks();
      const c = this.src[this.pos];
      if (c === undefined || c === '\n' || c === ';' || (c === '&' && !this.rest().startsWith('&>')) || c === '|' || c === ')') break;
      if (c === '(') throw new ShellSyntaxError(`unexpected '(' after '${words.at(-1)?.text ?? ''}'`);
      if (c === '#') {
        this.skipComment();
        break;
      }
      // Inside `[[ … ]]`, < and > compare strings.
      const inTest = words[0]?.text === '[[' && !words.some((w) => w.text === ']]');
      if (inTest && (c === '<' || c === '>')) {
        this.pos++;
        words.push({ ...emptyWord(), text: c });
      } else if ((c === '<' || c === '>') && this.src[this.pos + 1] === '(') words.push(this.processSubstitution());
      else if (REDIRECT.test(this.rest())) redirects.push(this.redirect());
      else words.push(this.word());
    }
    if (words.length === 0 && redirects.length === 0) throw new ShellSyntaxError(`expected a command at '${this.rest().slice(0, 10)}'`);
    return { type: 'simple', words, redirects, source: this.src.slice(start, this.pos).trim() };
  }

  private redirect(): Redirect {
    const op = REDIRECT.exec(this.rest())?.[0] ?? '';
    this.pos += op.length;
    this.skipBlanks();
    const target = this.word();
    const bare = op.replace(/^\d+/, '');
    if ((bare === '>&' || bare === '<&') && /^(\d+|-)$/.test(target.text)) return { op: 'dup', target };
    const redirect: Redirect = { op: bare === '>&' ? '&>' : bare, target };
    if (bare === '<<' || bare === '<<-') {
      this.heredocs.push({ delimiter: target.text, stripTabs: bare === '<<-', expand: !target.quoted, redirect });
    }
    return redirect;
  }

  private processSubstitution(): Word {
    this.pos += 2;
    return { ...emptyWord(), text: '/dev/fd/pipe', dynamic: true, process: this.script(')') };
  }

  word(): Word {
    const word = emptyWord();
    const start = this.pos;
    if (this.src[this.pos] === '~') word.tilde = true;
    for (;;) {
      const c = this.src[this.pos];
      if (c === undefined || WORD_END.has(c)) break;
      if (c === '\\') {
        if (this.src[this.pos + 1] !== '\n') {
          word.text += this.src[this.pos + 1] ?? '';
          word.quoted = true;
        }
        this.pos += 2;
      } else if (c === "'") {
        const close = this.src.indexOf("'", this.pos + 1);
        if (close < 0) throw new ShellSyntaxError('unclosed single quote');
        word.text += this.src.slice(this.pos + 1, close);
        word.quoted = true;
        this.pos = close + 1;
      } else if (c === '"') {
        this.pos++;
        word.quoted = true;
        this.doubleQuoted(word, '"');
      } else if (c === '$') this.dollar(word, false);
      else if (c === '`') this.backtick(word);
      else {
        if (c === '*' || c === '?' || c === '[') word.glob = true;
        word.text += c;
        this.pos++;
      }
    }
    if (this.pos === start) throw new ShellSyntaxError(`expected a word at '${this.rest().slice(0, 10)}'`);
    return word;
  }

  /** The inside of "…", or a whole here-document body when `close` is undefined. */
  doubleQuoted(word: Word, close: '"' | undefined): void {
    for (;;) {
      const c = this.src[this.pos];
      if (c === undefined) {
        if (close) throw new ShellSyntaxError('unclosed double quote');
        return;
      }
      if (c === close) {
        this.pos++;
        return;
      }
      if (c === '\\' && '$`"\\\n'.includes(this.src[this.pos + 1] ?? 'x')) {
        if (this.src[this.pos + 1] !== '\n') word.text += this.src[this.pos + 1];
        this.pos += 2;
      } else if (c === '$') this.dollar(word, true);
      else if (c === '`') this.backtick(word);
      else {
        word.text += c;
        this.pos++;
      }
    }
  }

  private dollar(word: Word, inDouble: boolean): void {
    const start = this.pos;
    const next = this.src[this.pos + 1] ?? '';
    if (next === "'" && !inDouble) {
      this.ansiC(word);
      return;
    }
    if (this.rest().startsWith('$((')) this.pos = this.matching(this.pos + 1, '(', ')');
    else if (next === '(') {
      this.pos += 2;
      word.subs.push(this.script(')'));
    } else if (next === '{') this.pos = this.matching(this.pos + 1, '{', '}');
    else if (/[A-Za-z_]/.test(next)) this.pos += 1 + (/^[A-Za-z_][A-Za-z0-9_]*/.exec(this.src.slice(this.pos + 1))?.[0].length ?? 0);
    else if (/[0-9@*#?$!-]/.test(next)) this.pos += 2;
    else {
      word.text += '$';
      this.pos++;
      return;
    }
    this.markDynamic(word);
    word.text += this.src.slice(start, this.pos);
  }

  private ansiC(word: Word): void {
    const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"' };
    this.pos += 2;
    for (;;) {
      const c = this.src[this.pos];
      if (c === undefined) throw new ShellSyntaxError("unclosed $'…' quote");
      this.pos++;
      if (c === "'") break;
      if (c === '\\') {
        const e = this.src[this.pos++] ?? '';
        word.text += escapes[e] ?? `\\${e}`;
      } else word.text += c;
    }
    word.quoted = true;
  }

  private backtick(word: Word): void {
    let inner = '';
    for (this.pos++; this.src[this.pos] !== '`'; this.pos++) {
      const c = this.src[this.pos];
      if (c === undefined) throw new ShellSyntaxError('unclosed backquote');
      if (c === '\\' && '$`\\'.includes(this.src[this.pos + 1] ?? 'x')) inner += this.src[++this.pos];
      else inner += c;
    }
    this.pos++;
    this.markDynamic(word);
    word.subs.push(new Parser(inner).script(undefined));
    word.text += '`…`';
  }

  private markDynamic(word: Word): void {
    if (!word.dynamic && word.text === '' && !word.tilde) word.leadingDynamic = true;
    word.dynamic = true;
  }

  /** The index just past the bracket matching the one at `open`. */
  private matching(open: number, left: string, right: string): number {
    let depth = 0;
    for (let i = open; i < this.src.length; i++) {
      if (this.src[i] === left) depth++;
      else if (this.src[i] === right && --depth === 0) return i + 1;
    }
    throw new ShellSyntaxError(`missing '${right}'`);
  }

  private skipSeparators(): void {
    for (;;) {
      this.skipBlanks();
      const c = this.src[this.pos];
      if (c === '\n') this.newline();
      else if (c === ';' || c === '&') this.pos += this.src[this.pos + 1] === c ? 2 : 1;
      else if (c === '|' && this.src[this.pos + 1] === '|') this.pos += 2;
      else if (c === '#') this.skipComment();
      else return;
    }
  }

  /** Blanks and line continuations; newlines too after a `|`, where a command must follow. */
  private skipBlanks(newlines = false): void {
    for (;;) {
      const c = this.src[this.pos];
      if (c === ' ' || c === '\t') this.pos++;
      else if (c === '\\' && this.src[this.pos + 1] === '\n') this.pos += 2;
      else if (c === '\n' && newlines) this.newline();
      else return;
    }
  }

  private skipComment(): void {
    while (this.pos < this.src.length && this.src[this.pos] !== '\n') this.pos++;
  }

  /** Past a newline, the bodies of the here-documents opened on the line come first. */
  private newline(): void {
    this.pos++;
    for (const doc of this.heredocs.splice(0)) {
      const lines: string[] = [];
      while (this.pos < this.src.length) {
        const eol = this.src.indexOf('\n', this.pos);
        const line = this.src.slice(this.pos, eol < 0 ? undefined : eol);
        this.pos = eol < 0 ? this.src.length : eol + 1;
        if ((doc.stripTabs ? line.replace(/^\t+/, '') : line) === doc.delimiter) break;
        lines.push(line);
      }
      const body = emptyWord();
      const text = lines.join('\n');
      if (doc.expand) new Parser(text).doubleQuoted(body, undefined);
      else body.text = text;
      doc.redirect.body = body;
    }
  }

  private rest(): string {
    return this.src.slice(this.pos, this.pos + 8);
  }
}
