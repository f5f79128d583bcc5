import { EventEmitter } from 'node:events';

/** Escape sequences out, so assertions read what a person would. */
export function plain(text: string | undefined): string {
  // eslint-disable-next-line no-control-regex
  return (text ?? '').replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\u001b[\]P^_][^\u0007\u001b]*(\u0007|\u001b\\)/g, '');
}

/** A terminal for Ink's real (non-debug) renderer: it records every byte written. */
export class FakeStdout extends EventEmitter {
  columns = 100;
  rows = 40;
  isTTY = true;
  written = '';
  write(chunk: string): boolean {
    this.written += chunk;
    return true;
  }
  asStream(): NodeJS.WriteStream {
    return this as unknown as NodeJS.WriteStream;
  }
}

/** Keyboard input for Ink: what is written is read back on 'readable', as a TTY in raw mode would. */
export class FakeStdin extends EventEmitter {
  isTTY = true;
  private chunks: string[] = [];
  setEncoding(): void {}
  setRawMode(): void {}
  ref(): void {}
  unref(): void {}
  resume(): void {}
  pause(): void {}
  read(): string | null {
    return this.chunks.shift() ?? null;
  }
  write(data: string): void {
    this.chunks.push(data);
    this.emit('readable');
  }
  asStream(): NodeJS.ReadStream {
    return this as unknown as NodeJS.ReadStream;
  }
}

export const KEYS = { enter: '\r', tab: '\t', shiftTab: '\u001b[Z', escape: '\u001b', up: '\u001b[A', down: '\u001b[B', backspace: '\u007f', ctrlC: '\u0003' } as const;

/** Count non-overlapping occurrences. */
export function occurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}
