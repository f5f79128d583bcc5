/**
 * The shape the policy sees a shell command as: a script of pipelines of commands, words
 * after quote removal with what could still change them when the shell runs (expansions,
 * globs, `~`) flagged, and every nested script (`$( )`, backticks, `<( )`, subshells) kept.
 */

export type Word = {
  /** The value after quote removal; expansions are kept as written (`$HOME`, `$(…)`). */
  text: string;
  /** Some part of it was quoted or escaped, so it is never a keyword or an operator. */
  quoted: boolean;
  /** It contains an expansion outside single quotes: its value is only known at run time. */
  dynamic: boolean;
  /** It starts with an expansion, so not even its first directory is known. */
  leadingDynamic: boolean;
  /** It starts with an unquoted `~`: the home directory. */
  tilde: boolean;
  /** It contains an unquoted `*`, `?` or `[`. */
  glob: boolean;
  /** Command substitutions inside it, which run before the command does. */
  subs: ShellScript[];
  /** A process substitution `<( )` or `>( )`: the word is the path of a pipe to that script. */
  process?: ShellScript;
};

export type Redirect = {
  /** `>`, `>>`, `>|`, `&>`, `&>>`, `<>`, `<`, `<<`, `<<-`, `<<<`, or `dup` for `2>&1`-like copies. */
  op: string;
  target: Word;
  /** A here-document's body, as a double-quoted string when its delimiter was unquoted. */
  body?: Word;
};

export type Simple = { type: 'simple'; words: Word[]; redirects: Redirect[]; source: string };
export type Group = { type: 'group'; body: ShellScript; redirects: Redirect[]; source: string };
export type Command = Simple | Group;
export type Pipeline = { commands: Command[]; source: string };
export type ShellScript = Pipeline[];

export class ShellSyntaxError extends Error {
  override name = 'ShellSyntaxError';
}

export function emptyWord(): Word {
  return { text: '', quoted: false, dynamic: false, leadingDynamic: false, tilde: false, glob: false, subs: [] };
}

/** A plain word, as when a wrapper's argument is re-read as a command (`find -exec`). */
export function literalWord(text: string): Word {
  return { ...emptyWord(), text };
}

/** Every simple command in a script, nested ones included, in source order. */
export function simpleCommands(script: ShellScript): Simple[] {
  const out: Simple[] = [];
  const visitWord = (word: Word) => {
    for (const sub of word.subs) out.push(...simpleCommands(sub));
    if (word.process) out.push(...simpleCommands(word.process));
  };
  const visitRedirects = (redirects: Redirect[]) => {
    for (const r of redirects) {
      visitWord(r.target);
      if (r.body) visitWord(r.body);
    }
  };
  for (const pipeline of script) {
    for (const command of pipeline.commands) {
      if (command.type === 'group') out.push(...simpleCommands(command.body));
      else {
        out.push(command);
        command.words.forEach(visitWord);
      }
      visitRedirects(command.redirects);
    }
  }
  return out;
}
