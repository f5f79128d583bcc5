import type { LeadEffect } from './effects.js';
import type { LeadInput, LeadState } from './state.js';
import { stepLead } from './step.js';

/** Runs one effect: returns a promise only when the next effect must wait for it. */
export type EffectRunner = (effect: LeadEffect) => Promise<void> | void;

/**
 * Holds the lead's state and steps it, the one place it changes: each input is applied at once
 * (so an input that comes while effects of an earlier one run sees the state they left), then
 * its effects run in order. Effects that finish at once run in the same tick as the input,
 * so an event emitted by a step is seen with the state that step left.
 */
export class LeadStepper {
  private run: EffectRunner | undefined;

  constructor(private current: LeadState) {}

  /** What the lead knows now. */
  get state(): LeadState {
    return this.current;
  }

  /** The runner is given once every module it drives exists (they step the lead too). */
  runEffectsWith(run: EffectRunner): void {
    this.run = run;
  }

  /** Resolves once the input's effects have run; rejects with the first that failed, after which the rest do not run. */
  step(input: LeadInput): Promise<void> {
    const { state, effects } = stepLead(this.current, input);
    this.current = state;
    return this.runAll(effects);
  }

  private async runAll(effects: LeadEffect[]): Promise<void> {
    const run = this.run;
    if (run === undefined) throw new Error('the lead stepped before its effects could run');
    for (const effect of effects) {
      const pending = run(effect);
      if (pending !== undefined) await pending;
    }
  }
}
