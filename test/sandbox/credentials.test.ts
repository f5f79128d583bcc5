import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { credentialPaths } from '../../src/sandbox/credentials.js';
import { launcherFor } from '../../src/sandbox/launcher.js';
import { realShellIO } from '../../src/tools/shell.js';
import { FULL_GRANT } from '../../src/policy/grant.js';

// Outside /tmp, which the sandbox replaces with a private one.
const base = mkdtempSync('/var/tmp/teams-credentials-');
after(() => rmSync(base, { recursive: true, force: true }));
const home = join(base, 'home');
const work = join(home, 'project');
mkdirSync(join(home, '.ssh'), { recursive: true });
mkdirSync(join(home, 'keys'));
mkdirSync(work);
writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY\n');
writeFileSync(join(home, '.netrc'), 'machine x login me password SECRET\n');
writeFileSync(join(home, 'keys', 'aws'), '[default]\naws_secret_access_key=SECRET\n');
symlinkSync(join(home, 'keys'), join(home, '.aws'));
writeFileSync(join(home, '.npmrc'), 'registry=https://registry.npmjs.org/\n');

describe('credentials under the home directory', () => {
  test('found where they exist, a directory apart from a file, a link where it leads; not one that holds the working directory', () => {
    assert.deepEqual(credentialPaths(home, work), { dirs: [join(home, '.ssh'), join(home, 'keys')], files: [join(home, '.netrc')] });
    assert.deepEqual(credentialPaths(home, join(home, '.ssh', 'sub')).dirs, [join(home, 'keys')]);
    assert.deepEqual(credentialPaths(join(base, 'nobody'), work), { dirs: [], files: [] });
  });

  test('a sandboxed command, even one granted everything, reads none of them; other files in the home stay readable', async (t) => {
    const saved = process.env.HOME;
    process.env.HOME = home;
    t.after(() => (process.env.HOME = saved));
    const shell = realShellIO({ timeoutMs: 20_000, launch: launcherFor({ kind: 'bwrap', network: 'on', bwrap: 'bwrap' }, () => ({ writable: true, hidden: [] })) });
    const read = await shell.exec(`cat ${home}/.ssh/id_ed25519 ${home}/.netrc ${home}/.aws/aws ${home}/keys/aws; ls -A ${home}/.ssh; cat ${home}/.npmrc`, { cwd: work, grant: FULL_GRANT });
    assert.doesNotMatch(read.stdout, /PRIVATE KEY|SECRET/, read.stdout);
    assert.match(read.stdout, /registry=/);
    // Without the sandbox the same command reads them all: the check can fail.
    const plain = await realShellIO().exec(`cat ${home}/.ssh/id_ed25519 ${home}/.netrc`, { cwd: work });
    assert.match(plain.stdout, /PRIVATE KEY[\s\S]*SECRET/);
  });

  test("the credential stores git and other tools keep under ~/.config, ~/.cache, ~/.local are covered too", () => {
    const other = join(base, 'other-home');
    const stores = ['.config/git/credentials', '.config/containers/auth.json', '.terraform.d/credentials.tfrc.json', '.cache/huggingface/token', '.huggingface/token'];
    for (const store of stores) {
      mkdirSync(join(other, store, '..'), { recursive: true });
      writeFileSync(join(other, store), 'SECRET\n');
    }
    mkdirSync(join(other, '.local/share/keyrings'), { recursive: true });
    const found = credentialPaths(other, join(base, 'elsewhere'));
    assert.deepEqual(found.files.sort(), stores.map((store) => join(other, store)).sort());
    assert.deepEqual(found.dirs, [join(other, '.local/share/keyrings')]);
  });

  test("the human's own teams settings (user layer) are hidden from every command, wherever TEAMS_CONFIG_DIR puts them", async () => {
    const config = join(base, 'user-config');
    mkdirSync(config);
    writeFileSync(join(config, 'settings.json'), '{"permissions": {"allow": ["Bash(SECRET:*)"]}}\n');
    const env = { ...process.env, TEAMS_CONFIG_DIR: config };
    const shell = realShellIO({ timeoutMs: 20_000, launch: launcherFor({ kind: 'bwrap', network: 'none', bwrap: 'bwrap' }, () => ({ writable: true, hidden: [] }), env) });
    const read = await shell.exec(`cat ${config}/settings.json; ls -A ${config}`, { cwd: work, grant: FULL_GRANT });
    assert.doesNotMatch(read.stdout, /SECRET|settings\.json/, read.stdout);
    const plain = await realShellIO().exec(`cat ${config}/settings.json`, { cwd: work });
    assert.match(plain.stdout, /SECRET/, 'without the sandbox the file reads: the check can fail');
  });
});
