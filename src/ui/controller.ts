import type { Key } from 'ink';
import { resumeChoices, resumeTarget, resumedSession } from './resume-command.js';
import { errorMessage as message } from '../lib/index.js';
import { runCommand } from './command-runner.js';
import { isCommandLine, parseCommand } from './commands.js';
import { interpretKey, type Effect } from './keys.js';
import { splitKeyChunk } from './key-chunk.js';
import type { ReplRuntime } from './runtime.js';
import { showRule, type PermissionRule, grantOnApproval } from '../policy/index.js';
import { submit } from './submit.js';
import { previewRequest } from '../present/index.js';
import { hiddenFromAgents } from '../team/index.js';
import type { Store } from './store.js';
import { LEAD, didYouMean, type PermissionMode } from '../protocol/index.js';
import { costText, modelItems, statusText } from './lead-commands.js';
import type { NewItem } from './state/types.js';
import { viewable } from './state/view.js';
import { ViewFollower } from './view-follower.js';


/** What a key may need of the terminal beyond the state: /clear wipes the screen. */
export type Screen = { clear(): void };

/**
 * Connects the store to the runtime: the runtime's events become actions, keys become actions
 * and effects, and effects are carried out here (prompts, commands, decisions, stopping).
 * `done` resolves once the team has stopped after /quit or Ctrl+C.
 */
export class ReplController {
  readonly done: Promise<void>;
  private finish!: () => void;
  private stopping: Promise<void> | undefined;
  private forcing = false;
  private disconnect: (() => void) | undefined;
  /** The log of the teammate being viewed, if one is. */
  private readonly viewFollower: ViewFollower;

  constructor(
    private readonly runtime: ReplRuntime,
    private readonly store: Store,
  ) {
    this.done = new Promise((resolve) => (this.finish = resolve));
    this.viewFollower = new ViewFollower(runtime.store.agentLogs, store, (text) => this.append('error', text));
  }

  /** Start listening to the runtime and ticking the clock (ages and countdowns); returns the undo. */
  connect(tickMs = 1000): () => void {
    const unsubscribe = this.runtime.events.subscribe((event) => this.store.dispatch({ type: 'lead_event', event }));
    const timer = setInterval(() => this.store.dispatch({ type: 'tick', now: Date.now() }), tickMs);
    // The task board, whoever changes it (the lead's model, a teammate, `teams task` elsewhere).
    const board = this.runtime.store.tasks
      .watch(
        (tasks) => this.store.dispatch({ type: 'tasks', tasks }),
        (error) => this.append('error', `the task board: ${error.message}`),
      )
      .catch((error: unknown) => {
        this.append('error', `cannot follow the task board: ${message(error)}`);
        return undefined;
      });
    this.disconnect = () => {
      clearInterval(timer);
      unsubscribe();
      this.viewFollower.stop();
      void board.then((subscription) => subscription?.close());
    };
    return this.disconnect;
  }

  handleKey(input: string, key: Key, screen: Screen): void {
    const keys = splitKeyChunk(input, key);
    if (keys.length > 1) {
      for (const one of keys) this.handleKey(one.input, one.key, screen);
      return;
    }
    const { actions, effects } = interpretKey(this.store.getState(), input, key);
    for (const action of actions) this.store.dispatch(action);
    for (const effect of effects) this.run(effect, screen);
  }

  run(effect: Effect, screen: Screen): void {
    switch (effect.type) {
      case 'line':
        return this.line(effect.text, screen);
      case 'decide': {
        const { requestId, approve, note, always } = effect;
        void submit(this.runtime, { op: 'decide', request_id: requestId, approve, ...(note === undefined ? {} : { note }), ...(always === undefined ? {} : { always }) }).then(
          (record) => {
            const how = approve ? (always ? 'approved always (this session)' : 'approved') : 'rejected';
            this.append('info', `${how} ${record.kind} request ${requestId} from ${record.from}${note ? `: ${note}` : ''}`);
          },
          (error: unknown) => this.store.dispatch({ type: 'decide_failed', requestId, message: message(error) }),
        );
        return;
      }
      case 'preview':
        return this.preview(effect.requestId);
      case 'allow_rule':
        return this.allowRule(effect.requestId, effect.rule);
      case 'interrupt':
        return this.interrupt(effect.agent);
      case 'view':
        return this.showView(effect.name, screen);
      case 'lead_mode':
        return this.leadMode(effect.mode);
      case 'resume':
        return this.resume(effect.session, screen);
      case 'toggle_detail':
        screen.clear();
        this.store.dispatch({ type: 'toggle_detail' });
        return;
      case 'stop':
        return this.stop();
      case 'force_stop':
        return this.forceStop();
    }
  }

  /**
   * `a`, then a rule for the project: one op saves it to the settings file (the lead reads it at
   * each of its calls, and sends running teammates their new rules before any decision), then
   * approves the request itself and every other pending command the rule covers, a line each.
   * A rule that cannot be saved approves nothing.
   */
  private allowRule(requestId: string, rule: PermissionRule): void {
    const tool = this.store.getState().queue.find((r) => r.request_id === requestId)?.tool;
    // The rule grants what approving this call grants: the network too when the call asked for it.
    const network = tool !== undefined && rule.tool === 'bash' && grantOnApproval(tool.name, tool.input).network;
    void this.runtime.submit({ op: 'permissions_add', rule: showRule(rule), network, request_id: requestId }).then(
      ({ message: saved }) => this.append('info', saved),
      (error: unknown) => this.store.dispatch({ type: 'decide_failed', requestId, message: `rule not saved: ${message(error)}` }),
    );
  }

  /** `v` on a permission request: what it will do, its file read as the agents' file tools would read it. */
  private preview(requestId: string): void {
    const record = this.store.getState().queue.find((r) => r.request_id === requestId);
    if (!record) return;
    const { cwd, paths } = this.runtime.options;
    void previewRequest(record, { cwd, hidden: paths ? hiddenFromAgents(paths) : [] }).then(
      (lines) => {
        if (lines) this.store.dispatch({ type: 'preview_loaded', requestId, lines });
      },
      (error: unknown) => this.append('error', `preview of ${requestId}: ${message(error)}`),
    );
  }

  /** Esc: the lead's turn, if it has one under way, or the viewed teammate's, by a signed control message. */
  private interrupt(agent: string): void {
    void this.runtime.submit({ op: 'interrupt', name: agent }).then(
      () => agent !== LEAD && this.append('info', `interrupting ${agent}`),
      (error: unknown) => this.append('error', `could not interrupt ${agent}: ${message(error)}`),
    );
  }

  /**
   * Show another agent's session: the screen is cleared and a fresh <Static> prints its
   * transcript. Only the shown teammate's log is followed; a hidden one is read no further
   * until shown again, from where its view stopped.
   */
  showView(name: string, screen: Screen): void {
    const state = this.store.getState();
    if (name === state.view) return;
    const names = viewable(state);
    if (!names.includes(name)) {
      const hint = didYouMean(name, names, (n) => `/view ${n}`);
      return this.append('error', `no member '${name}' to view${hint ? ` (${hint})` : ''}; the team: ${names.join(', ')}`);
    }
    this.viewFollower.stop();
    screen.clear();
    this.store.dispatch({ type: 'view', name });
    if (name !== LEAD) this.viewFollower.follow(name);
  }

  /** /quit, Ctrl+C, or a signal: the shutdown handshake with every teammate, then done. */
  stop(): void {
    this.store.dispatch({ type: 'quit_requested' });
    this.stopping ??= this.ended(this.runtime.submit({ op: 'quit', reason: 'the human closed the REPL' }));
  }

  /** A second Ctrl+C: teammates' process groups are ended now. */
  forceStop(): void {
    if (this.forcing) return;
    this.forcing = true;
    this.store.dispatch({ type: 'force_requested' });
    // ended() shows a failed stop itself.
    void this.ended(this.runtime.submit({ op: 'quit', force: true }));
  }

  private async ended(stopped: Promise<unknown>): Promise<void> {
    try {
      await stopped;
    } catch (error) {
      this.append('error', `stopping the team failed: ${message(error)}`);
    }
    this.disconnect?.();
    this.store.dispatch({ type: 'stopped' });
    this.finish();
  }

  private line(text: string, screen: Screen): void {
    const view = this.store.getState().view;
    if (!isCommandLine(text) && view !== LEAD) return this.tell(view, text);
    if (!isCommandLine(text)) {
      this.store.dispatch({ type: 'append', items: [{ kind: 'user', text }] });
      this.runtime.submit({ op: 'prompt', text }).catch((error: unknown) => this.append('error', `not sent to the lead: ${message(error)}`));
      return;
    }
    const parsed = parseCommand(text);
    if (!parsed.ok) return this.append('error', parsed.error);
    const command = parsed.command;
    if (command.name === 'quit') return this.stop();
    if (command.name === 'view') return this.showView(command.agent ?? LEAD, screen);
    if (command.name === 'clear') return this.clear(screen);
    if (command.name === 'resume') return this.resume(command.session, screen);
    if (command.name === 'resume_list') return this.pickSession();
    if (command.name === 'cost' || command.name === 'status' || command.name === 'model_shown') {
      const state = this.store.getState();
      const items: NewItem[] = command.name === 'model_shown' ? modelItems(state) : [{ kind: 'output', text: command.name === 'cost' ? costText(state) : statusText(state, this.runtime) }];
      this.store.dispatch({ type: 'append', items: [{ kind: 'user', text }, ...items] });
      return;
    }
    this.store.dispatch({ type: 'append', items: [{ kind: 'user', text }] });
    // runCommand() answers a failure with an error item: it does not reject.
    void runCommand(command, this.runtime).then((items) => this.store.dispatch({ type: 'append', items }));
  }

  /**
   * /clear, as in Claude Code: the lead starts a fresh conversation in a new session (its event
   * says which), and the screen starts over; teammates keep running. Refused mid-turn.
   */
  private clear(screen: Screen): void {
    void this.runtime.submit({ op: 'clear' }).then(
      (reply) => {
        screen.clear();
        this.store.dispatch({ type: 'clear' });
        this.store.dispatch({ type: 'session_spending', spent: {} });
        this.append('info', reply.message);
      },
      (error: unknown) => this.append('error', `/clear: ${message(error)}`),
    );
  }

  /**
   * /resume <n|id>: the lead goes on with an earlier session (its event says which); the screen
   * starts over with that conversation, as --resume opens it. Refused mid-turn.
   */
  private resume(given: string, screen: Screen): void {
    const { store } = this.runtime;
    void resumeTarget(store, given)
      .then((session) => this.runtime.submit({ op: 'resume', session }).then(async (reply) => ({ reply, ...(await resumedSession(store, session, this.store.getState().members)) })))
      .then(
        ({ reply, items, spent }) => {
          screen.clear();
          this.store.dispatch({ type: 'clear' });
          this.store.dispatch({ type: 'session_spending', spent });
          this.store.dispatch({ type: 'append', items });
          this.append('info', reply.message);
        },
        (error: unknown) => this.append('error', `/resume: ${message(error)}`),
      );
  }

  /** /resume alone: the picker of the lead's recent sessions (its keys are keys.ts's). */
  private pickSession(): void {
    void resumeChoices(this.runtime.store, this.store.getState().sessionId).then(
      (choices) => (choices.length === 0 ? this.append('info', 'no earlier session of the lead in this team') : this.store.dispatch({ type: 'open_picker', choices })),
      (error: unknown) => this.append('error', `/resume: ${message(error)}`),
    );
  }

  /** Shift+Tab: the lead's mode, set through the lead (its event updates the header). */
  private leadMode(mode: PermissionMode): void {
    void this.runtime.submit({ op: 'lead_mode', mode }).catch((error: unknown) => this.append('error', `the lead's mode: ${message(error)}`));
  }

  /** Typed in a teammate's view: the human's words, to that teammate. Shown once sent. */
  private tell(name: string, text: string): void {
    void this.runtime.submit({ op: 'tell', name, text }).then(
      () => this.store.dispatch({ type: 'append', items: [{ kind: 'user', text: `(to ${name}) ${text}` }] }),
      (error: unknown) => this.append('error', `not sent to ${name}: ${message(error)}`),
    );
  }

  private append(kind: 'info' | 'error', text: string): void {
    this.store.dispatch({ type: 'append', items: [{ kind, text }] });
  }
}
