import type { AgentLoop } from '../agent/index.js';
import { errorMessage, type EventStream } from '../lib/index.js';
import { LEAD } from '../protocol/index.js';
import type { TeamStore } from '../store/index.js';
import type { TeamBus } from '../team/index.js';
import type { LeadDecisions } from './decisions.js';
import type { LeadEffect } from './effects.js';
import type { LeadEvent } from './events.js';
import type { LeadHooks } from './hooks.js';
import type { EffectRunner } from './stepper.js';
import type { LeadTeammates } from './teammates.js';

/** The modules that carry out the lead's effects, each on what it owns. */
export type LeadExecutors = {
  /** What the REPL and `teams run` render: emitted here and nowhere else. */
  events: EventStream<LeadEvent>;
  store: TeamStore;
  bus: TeamBus;
  loop: AgentLoop;
  teammates: LeadTeammates;
  decisions: LeadDecisions;
  hooks: LeadHooks;
};

/**
 * Runs each effect of the lead's steps (effects.ts) by the module that owns what it touches.
 * Only a send is waited for: the effects after it (a teammate shown as kept working, say) come
 * once it is in the mailbox. Everything else starts and returns at once.
 */
export function leadEffectRunner(x: LeadExecutors): EffectRunner {
  /**
   * Something refused or failed on the lead's side that no caller waits for: shown at once, and
   * audited. Reporting never throws: a log that cannot be written is one more problem shown.
   */
  const problem = (what: string | undefined, reason: string, audited: boolean): void => {
    x.events.emit({ type: 'problem', text: what === undefined ? reason : `${what}: ${reason}` });
    if (!audited || what === undefined) return;
    x.store.audit.append({ event: 'problem', agent: LEAD, what, reason }).catch((error: unknown) => x.events.emit({ type: 'problem', text: `the audit log was not written: ${errorMessage(error)}` }));
  };
  return (effect: LeadEffect) => {
    switch (effect.type) {
      case 'emit':
        return x.events.emit(effect.event);
      case 'problem':
        return problem(effect.what, effect.reason, effect.audited);
      case 'tell_model':
        return effect.later ? x.loop.enqueue(effect.text) : x.loop.push(effect.text);
      case 'expect_exit':
        return x.teammates.expectExit(effect.name);
      case 'approvals_changed':
        return x.decisions.arrived();
      case 'offer_work':
        return x.teammates.board.offerTo(effect.name);
      case 'check_idle':
        return x.hooks.checkIdle(effect.envelope, effect.seen);
      case 'check_completion':
        return x.hooks.checkCompletion(effect.envelope, effect.seen);
      case 'notify_hooks':
        return x.hooks.notify(effect.event, effect.envelope);
      case 'task_created':
        return x.hooks.taskCreated(effect.task);
      case 'send': {
        const { draft, unsent } = effect;
        return x.bus.send(draft).then(
          () => undefined,
          (error: unknown) => {
            if (unsent === undefined) throw error;
            problem(unsent, String(error), true);
          },
        );
      }
    }
  };
}
