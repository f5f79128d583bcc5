import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { after } from 'node:test';
import { join } from 'node:path';
import { waitFor } from '../helpers/wait.js';
import { tempHome } from '../helpers/temp.js';

export const hasTmux = spawnSync('tmux', ['-V']).status === 0;

/** `teams` in a real terminal: a tmux session on its own server socket, driven by send-keys. */
export class Terminal {
  /** Its own server, its socket in the test's temp home: removed with it. */
  constructor(private readonly socket: string) {}

  start(command: string): void {
    this.tmux('new-session', '-d', '-s', 'main', '-x', '120', '-y', '40', command);
  }

  tmux(...args: string[]): string {
    return execFileSync('tmux', ['-S', this.socket, ...args], { encoding: 'utf8' });
  }

  /** What the screen shows now, with the scrollback above it. */
  screen(): string {
    return this.tmux('capture-pane', '-p', '-J', '-S', '-300', '-t', 'main');
  }

  /** Keys by tmux name (Enter, Tab, Escape, C-c) or literal text. */
  keys(...keys: string[]): void {
    this.tmux('send-keys', '-t', 'main', ...keys);
  }

  text(text: string): void {
    this.tmux('send-keys', '-t', 'main', '-l', text);
  }

  async shows(what: string | RegExp, timeoutMs = 20_000): Promise<void> {
    const found = (screen: string) => (typeof what === 'string' ? screen.includes(what) : what.test(screen));
    try {
      await waitFor(() => found(this.screen()) || undefined, `the terminal to show ${what}`, timeoutMs);
    } catch (error) {
      // What the screen shows at the deadline, not when the wait began.
      throw new Error(`${error instanceof Error ? error.message : String(error)}; it shows:\n${this.screen()}\nstderr: ${this.stderr()}`);
    }
  }

  /** Ctrl+C twice on an empty line, as a person leaves: the first asks for the second. */
  async quit(): Promise<void> {
    this.keys('C-c');
    await this.shows('Press Ctrl+C again to exit');
    this.keys('C-c');
  }

  /** Where teams' stderr goes, so a failure can say what teams said. */
  stderrPath: string | undefined;

  stderr(): string {
    return this.stderrPath && existsSync(this.stderrPath) ? readFileSync(this.stderrPath, 'utf8') : '';
  }

  kill(): void {
    spawnSync('tmux', ['-S', this.socket, 'kill-server']);
  }
}


/** After a real-terminal test: its tmux server, and every process group it started, gone. */
export function endTerminal(terminal: Terminal, pids: readonly number[]): void {
  terminal.kill();
  for (const pid of pids) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone, as it should be
    }
  }
}

/**
 * A real terminal on its own tmux server in a fresh temp home, for one suite (call it in the
 * describe): after the suite, the server and every process group in `pids` are gone, and the home.
 */
export function terminalInTempHome(prefix: string): { home: string; terminal: Terminal; pids: number[] } {
  const { home, cleanup } = tempHome(prefix);
  const terminal = new Terminal(join(home, 'tmux.sock'));
  const pids: number[] = [];
  after(() => {
    endTerminal(terminal, pids);
    cleanup();
  });
  return { home, terminal, pids };
}
