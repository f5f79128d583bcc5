import type { Word } from './shell-syntax.js';

/**
 * What a simple command really runs once its env assignments, shell keywords and wrappers
 * (`env`, `command`, `nohup`, `timeout`, `xargs`, `sudo` …) are peeled off, so that
 * `FOO=1 sudo -u x env rm -rf y` is judged as `rm -rf y` run through sudo.
 */
export type Invocation = {
  /** The command's base name (`/bin/rm` → `rm`); empty when only assignments or keywords were given. */
  name: string;
  args: Word[];
  /** The wrappers peeled off, outermost first. */
  wrappers: string[];
  /** Names assigned in the environment before the command (`LC_ALL=C grep …`). */
  assignments: string[];
};

// `time` and the rest start a pipeline or a compound command's body; what follows runs.
const LEADING_KEYWORDS = new Set(['!', 'time', 'if', 'then', 'elif', 'else', 'do', 'while', 'until', 'fi', 'done']);

type WrapperSpec = {
  /** Short options taking a value (`-u root`, `-uroot`). */
  short: string;
  /** Long options taking a separate value (`--user root`). */
  long?: string[];
  /** Operands to skip before the command (`timeout 5s cmd`). */
  operands?: number;
  /** `env`: NAME=value operands before the command. */
  assignments?: boolean;
  /** Options after which nothing runs: `command -v rm` only looks rm up. */
  lookup?: string;
};

const WRAPPERS: Record<string, WrapperSpec> = {
  env: { short: 'uCS', long: ['--unset', '--chdir', '--split-string'], assignments: true },
  command: { short: '', lookup: 'vV' },
  builtin: { short: '' },
  exec: { short: 'a' },
  nohup: { short: '' },
  nice: { short: 'n', long: ['--adjustment'] },
  time: { short: '' },
  timeout: { short: 'sk', long: ['--signal', '--kill-after'], operands: 1 },
  stdbuf: { short: 'ioe', long: ['--input', '--output', '--error'] },
  ionice: { short: 'cnp', long: ['--class', '--classdata', '--pid'] },
  setsid: { short: '' },
  xargs: { short: 'ILnPdEsa', long: ['--max-args', '--max-procs', '--delimiter', '--arg-file', '--max-chars'] },
  sudo: { short: 'ugChprtUDTR', long: ['--user', '--group', '--host', '--prompt', '--role', '--type', '--chdir'] },
  doas: { short: 'uC' },
};

/** Wrappers that run the command as another user. */
export const PRIVILEGE_WRAPPERS = new Set(['sudo', 'doas']);

export function baseName(word: Word): string {
  return word.text.slice(word.text.lastIndexOf('/') + 1);
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

export function invocation(words: readonly Word[]): Invocation {
  let i = 0;
  const assignments: string[] = [];
  const wrappers: string[] = [];
  for (;;) {
    const word = words[i];
    if (word === undefined) return { name: '', args: [], wrappers, assignments };
    // Quotes do not stop "rm" from being rm, but do stop 'FOO=1' or 'if' from being syntax.
    const name = baseName(word);
    if (!word.quoted && ASSIGNMENT.test(word.text)) {
      assignments.push(word.text.slice(0, word.text.indexOf('=')));
      i++;
    } else if (!word.quoted && LEADING_KEYWORDS.has(word.text)) i++;
    else if (Object.hasOwn(WRAPPERS, name)) {
      const spec = WRAPPERS[name] as WrapperSpec;
      const after = skipOptions(words, i + 1, spec);
      if (after === undefined) return { name, args: words.slice(i + 1), wrappers, assignments };
      wrappers.push(name);
      i = after;
    } else return { name, args: words.slice(i + 1), wrappers, assignments };
  }
}

/** The index of the wrapped command, or undefined when the wrapper runs nothing. */
function skipOptions(words: readonly Word[], from: number, spec: WrapperSpec): number | undefined {
  let i = from;
  for (; i < words.length; i++) {
    const text = (words[i] as Word).text;
    if (text === '--') {
      i++;
      break;
    }
    if (!text.startsWith('-') || text === '-') break;
    if (text.startsWith('--')) {
      if (!text.includes('=') && spec.long?.includes(text)) i++;
      continue;
    }
    const letters = text.slice(1);
    if (spec.lookup && [...letters].some((l) => spec.lookup?.includes(l))) return undefined;
    const valueAt = [...letters].findIndex((l) => spec.short.includes(l));
    if (valueAt >= 0 && valueAt === letters.length - 1) i++;
  }
  i += spec.operands ?? 0;
  if (spec.assignments) while (i < words.length && ASSIGNMENT.test((words[i] as Word).text)) i++;
  return i < words.length ? i : undefined;
}

/**
 * Split a command's arguments into option words and operands. `valued` lists the short
 * options whose value may be the next word (`-t DIR`), `longValued` the long ones
 * (`--output FILE`; `--output=FILE` needs no listing); `--` ends the options.
 */
export function splitArgs(
  args: readonly Word[],
  valued = '',
  longValued: readonly string[] = [],
): { options: string[]; operands: Word[]; values: Map<string, string> } {
  const options: string[] = [];
  const operands: Word[] = [];
  const values = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as Word;
    if (word.text === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (!word.text.startsWith('-') || word.text === '-') {
      operands.push(word);
      continue;
    }
    options.push(word.text);
    if (word.text.startsWith('--')) {
      const eq = word.text.indexOf('=');
      if (eq > 0) values.set(word.text.slice(0, eq), word.text.slice(eq + 1));
      else if (longValued.includes(word.text)) values.set(word.text, args[++i]?.text ?? '');
      continue;
    }
    const letter = [...word.text.slice(1)].find((l) => valued.includes(l));
    if (letter === undefined) continue;
    const attached = word.text.slice(word.text.indexOf(letter) + 1);
    values.set(`-${letter}`, attached || (args[++i]?.text ?? ''));
  }
  return { options, operands, values };
}

/** Whether a short flag letter appears among the options (`-rf` has `r`), or one of the long forms. */
export function hasFlag(options: readonly string[], letters: string, long: readonly string[] = []): boolean {
  return options.some((o) =>
    o.startsWith('--') ? long.some((l) => o === l || o.startsWith(`${l}=`)) : [...o.slice(1)].some((c) => letters.includes(c)),
  );
}
