import { hasFlag, splitArgs, type Invocation } from './shell-argv.js';
import { literalWord, type Redirect, type Word } from './shell-syntax.js';

/**
 * The paths a command changes, by what it does to them. Only commands whose arguments are
 * plainly paths are listed; the rest of the danger rules name whole commands instead.
 */
export type PathEffect = 'write' | 'delete' | 'permissions';
export type Target = { effect: PathEffect; word: Word };

const WRITE_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);

export function redirectTargets(redirects: readonly Redirect[]): Target[] {
  return redirects.filter((r) => WRITE_REDIRECTS.has(r.op)).map((r) => ({ effect: 'write', word: r.target }));
}

const all = (effect: PathEffect, words: readonly Word[]): Target[] => words.map((word) => ({ effect, word }));

/** cp/mv/ln/install: the destination is `-t DIR` or the last operand. */
function copyTargets(inv: Invocation, sourcesToo: boolean): Target[] {
  const { operands, values } = splitArgs(inv.args, 'tS', ['--target-directory', '--suffix']);
  const dir = values.get('-t') ?? values.get('--target-directory');
  const sources = dir === undefined ? operands.slice(0, -1) : operands;
  const destination = dir === undefined ? operands.at(-1) : literalWord(dir);
  return [...(destination ? all('write', [destination]) : []), ...(sourcesToo ? all('delete', sources) : [])];
}

type Rule = (inv: Invocation) => Target[];

const RULES: Record<string, Rule> = {
  rm: (inv) => all('delete', splitArgs(inv.args).operands),
  rmdir: (inv) => all('delete', splitArgs(inv.args).operands),
  unlink: (inv) => all('delete', splitArgs(inv.args).operands),
  shred: (inv) => all('delete', splitArgs(inv.args, 'ns').operands),
  mv: (inv) => copyTargets(inv, true),
  cp: (inv) => copyTargets(inv, false),
  ln: (inv) => copyTargets(inv, false),
  install: (inv) => copyTargets(inv, false),
  rsync: (inv) => copyTargets(inv, false).filter((t) => !t.word.text.includes(':')),
  touch: (inv) => all('write', splitArgs(inv.args, 'dtr').operands),
  mkdir: (inv) => all('write', splitArgs(inv.args, 'm').operands),
  truncate: (inv) => all('write', splitArgs(inv.args, 'sr').operands),
  tee: (inv) => all('write', splitArgs(inv.args).operands),
  dd: (inv) => all('write', inv.args.filter((w) => w.text.startsWith('of=')).map((w) => ({ ...w, text: w.text.slice(3) }))),
  chmod: (inv) => permissionTargets(inv),
  chown: (inv) => permissionTargets(inv),
  chgrp: (inv) => permissionTargets(inv),
  sed: (inv) => {
    const { options, operands } = splitArgs(inv.args, 'ef', ['--expression', '--file']);
    if (!hasFlag(options, 'i', ['--in-place'])) return [];
    return all('write', hasFlag(options, 'ef', ['--expression', '--file']) ? operands : operands.slice(1));
  },
  curl: (inv) => {
    const { values } = splitArgs(inv.args, 'o', ['--output']);
    const out = values.get('-o') ?? values.get('--output');
    return out === undefined ? [] : all('write', [literalWord(out)]);
  },
  wget: (inv) => {
    const { values } = splitArgs(inv.args, 'OP', ['--output-document', '--directory-prefix']);
    const paths = [values.get('-O') ?? values.get('--output-document'), values.get('-P') ?? values.get('--directory-prefix')];
    return all('write', paths.filter((p): p is string => p !== undefined && p !== '-').map(literalWord));
  },
};

/** chmod MODE FILE…, chown OWNER FILE…; with --reference every operand is a file. */
function permissionTargets(inv: Invocation): Target[] {
  const { options, operands } = splitArgs(inv.args);
  const files = options.some((o) => o.startsWith('--reference')) ? operands : operands.slice(1);
  return all('permissions', files);
}

export function commandTargets(inv: Invocation): Target[] {
  return Object.hasOwn(RULES, inv.name) ? (RULES[inv.name] as Rule)(inv) : [];
}
