import { Refused } from '../lib/index.js';
import { type ModelClient, type ModelSettings, contextWindowOf, modelIdProblem, openModel } from '../model/index.js';
import { newSessionId, type PermissionMode } from '../protocol/index.js';
import { closeInterruptedTools, type AgentLoop } from '../agent/index.js';
import type { LeadSession } from './session.js';
import type { LeadStepper } from './stepper.js';

/** The model the lead's loop calls: one client at a time, swapped by `/model` between turns. */
export class LeadModel {
  constructor(private current: Pick<ModelClient, 'turn' | 'model'>) {}

  get model(): string {
    return this.current.model;
  }

  readonly turn: ModelClient['turn'] = (request, onEvent) => this.current.turn(request, onEvent);

  use(client: Pick<ModelClient, 'turn' | 'model'>): void {
    this.current = client;
  }
}

/**
 * What Shift+Tab may set the lead to: bypass is never reached by a key or another terminal's
 * op, only by starting the lead in it (--permission-mode bypass).
 */
const CYCLED_MODES: readonly PermissionMode[] = ['default', 'accept-edits', 'plan'];

/** Shift+Tab's next mode, as in Claude Code: default → accept-edits → plan → default; from bypass, default. */
export function nextLeadMode(mode: PermissionMode): PermissionMode {
  return CYCLED_MODES[(CYCLED_MODES.indexOf(mode) + 1) % CYCLED_MODES.length] ?? 'default';
}

/**
 * The human's changes to the lead itself, between its turns: its permission mode (through the
 * lead's step, the one place its state changes), its model, and a fresh conversation in a new
 * session. Teammates are untouched by all three.
 */
export class LeadControls {
  constructor(
    private readonly parts: {
      stepper: LeadStepper;
      loop: Pick<AgentLoop, 'busy' | 'conversation' | 'useContextWindow'>;
      model: LeadModel;
      settings: ModelSettings;
      /** The offline server the lead runs, if it runs one: a new client of it costs nothing. */
      offlineURL: string | undefined;
      session: LeadSession;
    },
  ) {}

  get mode(): PermissionMode {
    return this.parts.stepper.state.mode;
  }

  async setMode(mode: PermissionMode): Promise<void> {
    if (!CYCLED_MODES.includes(mode)) throw new Refused(`the lead's mode can be set to ${CYCLED_MODES.join(', ')}; bypass only by starting the lead with --permission-mode bypass`);
    await this.parts.stepper.step({ type: 'lead_mode', mode });
  }

  /** The lead's model for its next turns; the turn under way finishes with the one it started with. */
  async setModel(model: string): Promise<string> {
    const problem = modelIdProblem(model);
    if (problem) throw new Refused(problem);
    const { settings } = this.parts;
    // Offline every agent runs the scripted model: a Claude id would be shown and priced while the script answered.
    if (settings.offline) throw new Refused(`offline, the lead runs the offline model only (${settings.model})`);
    const opened = await openModel({ ...settings, model, offlineURL: this.parts.offlineURL ?? settings.offlineURL });
    this.parts.model.use(opened.client);
    // Compaction and the reply's room go by the new model's window (a --context-window given still holds).
    this.parts.loop.useContextWindow(contextWindowOf(model, settings.contextWindow));
    await this.parts.stepper.step({ type: 'lead_model', model, label: opened.label });
    return model;
  }

  /**
   * `/clear`: the lead's conversation starts afresh in a new session, as in Claude Code; the
   * old one stays on disk for `--resume`. Refused while a turn runs: Esc it first.
   */
  async clear(): Promise<string> {
    const { loop, session } = this.parts;
    if (loop.busy) throw new Refused("the lead's turn is under way: interrupt it (Esc) first, then /clear");
    // Every record of the old session is in its journal before the sink moves on.
    await loop.conversation.settled();
    session.restart(newSessionId());
    loop.conversation.clear();
    await this.parts.stepper.step({ type: 'lead_session', id: session.id });
    return session.id;
  }

  /**
   * `/resume <id>`: the lead goes on with an earlier session's conversation, as `--resume` would
   * start it, journaling on in it; this one stays on disk. Refused while a turn runs.
   */
  async resume(id: string): Promise<{ records: number; problems: number }> {
    const { loop, session } = this.parts;
    if (loop.busy) throw new Refused("the lead's turn is under way: interrupt it (Esc) first, then /resume");
    if (id === session.id) throw new Refused(`the lead is in session ${id} already`);
    await loop.conversation.settled();
    const { earlier, problems } = await session.resumeInto(id);
    loop.conversation.load(earlier);
    // A call the journal asked for and never answered is answered as interrupted, as at --resume.
    closeInterruptedTools(loop.conversation);
    await this.parts.stepper.step({ type: 'lead_session', id });
    return { records: earlier.length, problems: problems.length };
  }
}
