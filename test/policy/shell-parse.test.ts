import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseShell } from '../../src/policy/shell-parse.js';
import { ShellSyntaxError, simpleCommands, type ShellScript, type Simple } from '../../src/policy/shell-syntax.js';

const only = (script: ShellScript): Simple => {
  const command = script[0]?.commands[0];
  assert.ok(command?.type === 'simple');
  return command;
};
const texts = (source: string) => only(parseShell(source)).words.map((w) => w.text);

describe('parseShell', () => {
  test('quote removal: single, double, backslash, $\'…\', adjacent parts', () => {
    assert.deepEqual(texts(`echo 'a b' "c \\"d\\"" e\\ f $'g\\th' x"y"'z'`), ['echo', 'a b', 'c "d"', 'e f', 'g\th', 'xyz']);
  });

  test('expansions are kept as written and flagged; single quotes keep them literal', () => {
    const [, plain, quoted, literal, inner] = only(parseShell(`echo $HOME "\${X}/y" '$Z' a/$B`)).words;
    assert.deepEqual([plain?.text, plain?.dynamic, plain?.leadingDynamic], ['$HOME', true, true]);
    assert.deepEqual([quoted?.text, quoted?.leadingDynamic], ['${X}/y', true]);
    assert.deepEqual([literal?.text, literal?.dynamic], ['$Z', false]);
    assert.deepEqual([inner?.dynamic, inner?.leadingDynamic], [true, false]);
  });

  test('separators, pipes and groups', () => {
    const script = parseShell('a | b |& c && (d; e) || { f; } & g\nh');
    assert.deepEqual(script.map((p) => p.source), ['a | b |& c', '(d; e)', '{ f; }', 'g', 'h']);
    assert.deepEqual(simpleCommands(script).map((c) => c.words[0]?.text), ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
  });

  test('command and process substitutions are parsed as scripts, nested too', () => {
    const script = parseShell('echo "$(a "$(b)")" `c` <(d) >(e)');
    assert.deepEqual(simpleCommands(script).map((c) => c.words[0]?.text), ['echo', 'a', 'b', 'c', 'd', 'e']);
  });

  test('redirections: fd numbers, duplication, &>, and words glued to operators', () => {
    const { redirects, words } = only(parseShell('cmd 2>err.log >out 2>&1 &>>all <in x>y'));
    assert.deepEqual(redirects.map((r) => [r.op, r.target.text]), [['>', 'err.log'], ['>', 'out'], ['dup', '1'], ['&>>', 'all'], ['<', 'in'], ['>', 'y']]);
    assert.deepEqual(words.map((w) => w.text), ['cmd', 'x']);
  });

  test('here-documents: the body is not a command; an unquoted one is still expanded', () => {
    const script = parseShell("cat <<EOF; cat <<-'END'\nrm -rf $(pwd)\nEOF\n\trm -rf /\n\tEND\nls");
    assert.deepEqual(simpleCommands(script).map((c) => c.words[0]?.text), ['cat', 'pwd', 'cat', 'ls']);
    const second = script[1]?.commands[0];
    assert.equal(second?.type === 'simple' && second.redirects[0]?.body?.text, '\trm -rf /');
  });

  test('comments and line continuations', () => {
    assert.deepEqual(texts('ls \\\n -la # rm -rf /'), ['ls', '-la']);
    assert.deepEqual(texts('echo a#b'), ['echo', 'a#b']);
  });

  for (const [source, message] of [
    ['echo "x', 'unclosed double quote'],
    ["echo 'x", 'unclosed single quote'],
    ['echo $(ls', "missing ')'"],
    ['(ls', "missing ')'"],
    ['ls )', "unexpected ')'"],
    ['echo `ls', 'unclosed backquote'],
    ['f() { ls; }', "unexpected '(' after 'f'"],
    ['a && | b', "expected a command at '| b'"],
  ] as const) {
    test(`syntax error: ${JSON.stringify(source)}`, () => {
      assert.throws(() => parseShell(source), (error: unknown) => error instanceof ShellSyntaxError && error.message === message);
    });
  }
});
