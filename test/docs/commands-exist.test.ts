import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/program.js';
import { COMMAND_NAMES } from '../../src/ui/commands.js';
import { PACKAGE_ROOT } from '../../src/lib/index.js';
import { anchorsOf, codeOf, linksOf } from './markdown.js';

/**
 * The docs name commands; the code defines them. Every `teams <command>` (with its
 * subcommand and --options) and every `/command` written in the README's or the docs' code
 * must exist in commander's own table and the REPL's own, and every relative link must land
 * on a file (and heading) that exists, so the docs cannot drift from the code unseen.
 */

const PAGES = [
  'README.md',
  join('.teams', 'README.md'),
  ...readdirSync(join(PACKAGE_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name)),
];
const read = (page: string): string => readFileSync(join(PACKAGE_ROOT, page), 'utf8');

/** Absolute paths such as `/tmp` are written in code spans too; they are no slash command. */
const FILESYSTEM_ROOTS = new Set(['bin', 'dev', 'etc', 'home', 'opt', 'proc', 'tmp', 'usr', 'var']);

/** `teams` or `node bin/teams.js` as a command, then what follows it up to a shell separator or a comment. */
const INVOCATION = /(?:^|[\s(;|&$])(?:teams|node bin\/teams\.js)(?=[\s`]|$)([^|;&#]*)/g;
/** A `/name` that stands alone: not a path (no slash after it), not part of a word before it. */
const SLASH_COMMAND = /(?:^|[\s(`])\/([a-z][a-z-]*)(?=$|[\s`),.;:])/g;

type Invocation = { page: string; words: string[]; text: string };

function invocations(page: string, code: string): Invocation[] {
  return [...code.matchAll(INVOCATION)].map((match) => {
    // A quoted argument is one word, whatever it holds (`--prompt "add a --verbose flag"`).
    const args = (match[1] ?? '').replace(/"[^"]*"|'[^']*'/g, 'ARG').trim();
    return { page, text: match[0].trim(), words: args.split(/\s+/).filter(Boolean) };
  });
}

/** A word that can be a command name: not an option, a placeholder, a quoted argument or an ellipsis. */
const isName = (word: string): boolean => /^[a-z][a-z-]*$/.test(word);

function longOptions(command: Command): Set<string> {
  return new Set(command.options.map((option) => option.long).filter((long): long is string => long !== undefined));
}

/**
 * What `teams <words>` names, checked against the program: its command (and subcommand), and
 * every --option it gives. A word like `diff/merge/discard` names each of them.
 */
function problemsOf(program: Command, { page, words, text }: Invocation): string[] {
  const where = `${page}: \`${text}\``;
  const globals = new Set([...longOptions(program), '--help', '--version']);
  const byName = (parent: Command, name: string) => parent.commands.find((command) => command.name() === name || command.aliases().includes(name));
  const [first = '', second = ''] = words;
  const firstWord = first.replace(/[),.:]+$/, '');
  // `teams --continue`: the REPL, the default command, takes the options.
  let command = byName(program, 'repl');
  let rest = words;
  if (isName(firstWord.split('/')[0] ?? '')) {
    const names = firstWord.split('/');
    const missing = names.filter((name) => !byName(program, name));
    if (missing.length > 0) return missing.map((name) => `${where}: no command '${name}' in \`teams --help\``);
    if (names.length > 1) return [];
    command = byName(program, firstWord);
    rest = words.slice(1);
    if (command && command.commands.length > 0 && isName(second)) {
      const sub = byName(command, second);
      if (!sub) return [`${where}: no command '${firstWord} ${second}' (${firstWord} has ${command.commands.map((c) => c.name()).join(', ')})`];
      command = sub;
      rest = words.slice(2);
    }
  }
  if (!command) return [`${where}: the program has no default command`];
  const known = new Set([...longOptions(command), ...globals]);
  return rest
    .map((word) => word.replace(/^\[+/, ''))
    .filter((word) => word.startsWith('--'))
    .map((word) => word.split('=')[0]?.replace(/[\]),.:`]+$/, '') ?? word)
    .filter((option) => !known.has(option))
    .map((option) => `${where}: \`teams ${command.name()}\` has no option ${option}`);
}

describe('the docs name only what exists', () => {
  const pages = PAGES.map((page) => ({ page, text: read(page), code: codeOf(read(page)) }));

  test('every `teams` command, subcommand and option named in the docs is in the program', () => {
    const { program } = buildProgram();
    const named = pages.flatMap(({ page, code }) => code.flatMap((piece) => invocations(page, piece)));
    // The README alone names most of them: a parser that found nothing would pass vacuously.
    assert.ok(named.length > 50, `only ${named.length} invocations found`);
    assert.deepEqual(named.flatMap((invocation) => problemsOf(program, invocation)), []);
  });

  test('every /command named in the docs is one the REPL knows', () => {
    const known = new Set<string>(COMMAND_NAMES);
    const named = pages.flatMap(({ page, code }) =>
      code.flatMap((piece) => [...piece.matchAll(SLASH_COMMAND)].map((match) => ({ page, name: match[1] ?? '' }))),
    );
    assert.ok(named.length > 20, `only ${named.length} slash commands found`);
    const unknown = named.filter(({ name }) => !known.has(name) && !FILESYSTEM_ROOTS.has(name)).map(({ page, name }) => `${page}: /${name}`);
    assert.deepEqual(unknown, []);
  });

  test('the README shows every slash command and every top-level command', () => {
    const readme = pages.find(({ page }) => page === 'README.md');
    assert.ok(readme);
    const shown = readme.code.join('\n');
    const { program } = buildProgram();
    const missing = [
      ...COMMAND_NAMES.filter((name) => !new RegExp(`/${name}\\b`).test(shown)).map((name) => `/${name}`),
      ...program.commands.map((command) => command.name()).filter((name) => !new RegExp(`teams ${name}\\b`).test(shown)).map((name) => `teams ${name}`),
    ];
    assert.deepEqual(missing, []);
  });

  test('every relative link lands on a file, and on a heading of it when it names one', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const { page, text } of pages) {
      for (const link of linksOf(text)) {
        if (/^[a-z][a-z+.-]*:/i.test(link)) continue;
        checked += 1;
        const [path = '', anchor] = link.split('#');
        const target = path === '' ? join(PACKAGE_ROOT, page) : resolve(dirname(join(PACKAGE_ROOT, page)), decodeURI(path));
        if (!existsSync(target)) {
          broken.push(`${page}: ${link} (no ${relative(PACKAGE_ROOT, target)})`);
          continue;
        }
        if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(anchor)) {
          broken.push(`${page}: ${link} (no heading #${anchor} in ${relative(PACKAGE_ROOT, target)})`);
        }
      }
    }
    assert.ok(checked > 30, `only ${checked} relative links found`);
    assert.deepEqual(broken, []);
  });
});
