import { render } from 'ink-testing-library';
import type { LeadRuntime } from '../../src/lead/lead.js';
import { createRepl, stateFor } from '../../src/ui/app.js';
import { plain } from './terminal.js';

/** The REPL rendered around a real lead runtime, connected, with the keyboard and screen a test drives. */
export async function renderLiveRepl(runtime: LeadRuntime) {
  const { store, controller, element } = createRepl(runtime, await stateFor(runtime));
  const disconnect = controller.connect();
  const view = render(element);
  const screen = () => plain(view.lastFrame());
  const type = (...keys: string[]) => keys.forEach((k) => view.stdin.write(k));
  const text = (words: string) => type(...words.split(''));
  return { store, controller, disconnect, screen, type, text };
}
