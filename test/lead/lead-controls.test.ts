import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { stepLead } from '../../src/lead/step.js';
import { initialLeadState } from '../../src/lead/state.js';
import { LeadStepper } from '../../src/lead/stepper.js';
import { LeadControls, LeadModel, nextLeadMode } from '../../src/lead/lead-controls.js';
import { Refused } from '../../src/lib/refused.js';
import { Conversation } from '../../src/agent/conversation.js';
import type { LeadSession } from '../../src/lead/session.js';
import type { ModelSettings } from '../../src/model/settings.js';

describe("the lead's own mode", () => {
  test('Shift+Tab cycle: default → accept-edits → plan → default; bypass leads back to default', () => {
    assert.equal(nextLeadMode('default'), 'accept-edits');
    assert.equal(nextLeadMode('accept-edits'), 'plan');
    assert.equal(nextLeadMode('plan'), 'default');
    assert.equal(nextLeadMode('bypass'), 'default');
  });

  test('a mode set is the state the lead goes by, shown, and told its model without starting a turn', () => {
    const { state, effects } = stepLead(initialLeadState('human', 'default'), { type: 'lead_mode', mode: 'plan' });
    assert.equal(state.mode, 'plan');
    assert.deepEqual(effects[0], { type: 'emit', event: { type: 'lead_mode', mode: 'plan' } });
    assert.equal(effects[1]?.type === 'tell_model' && effects[1].later, true);
    assert.equal(stepLead(state, { type: 'lead_mode', mode: 'plan' }).effects.length, 1, 'the same mode again tells the model nothing');
  });

  test('the controls step the lead; bypass is refused, whoever asks', async () => {
    const stepper = new LeadStepper(initialLeadState('human', 'default'));
    const emitted: string[] = [];
    stepper.runEffectsWith((effect) => void (effect.type === 'emit' && emitted.push(effect.event.type)));
    const conversation = new Conversation();
    const session = { id: 'session-aaaaaaaaaa', restart: () => undefined } as unknown as LeadSession;
    const controls = new LeadControls({ stepper, loop: { busy: false, conversation, useContextWindow: () => undefined }, model: new LeadModel({ model: 'x', turn: async () => { throw new Error('no'); } }), settings: { offline: true, model: 'offline-demo' } as ModelSettings, offlineURL: undefined, session });
    await controls.setMode('accept-edits');
    assert.equal(controls.mode, 'accept-edits');
    await assert.rejects(controls.setMode('bypass'), (error: unknown) => error instanceof Refused && /bypass only by starting the lead/.test(error.message));
    assert.equal(controls.mode, 'accept-edits');
    await assert.rejects(controls.setModel('claude-haiku-4-5'), /offline, the lead runs the offline model only/);
    assert.deepEqual(emitted, ['lead_mode']);
  });

  test("/model: the next turns go to the new model, whose window the lead's compaction goes by; a --context-window given still holds", async () => {
    const online = { offline: false, model: 'claude-sonnet-5-5', apiKey: 'dummy', baseURL: 'http://127.0.0.1:9', contextWindow: undefined } as ModelSettings;
    for (const [settings, expected] of [[online, 200_000], [{ ...online, contextWindow: 64_000 }, 64_000]] as const) {
      const stepper = new LeadStepper(initialLeadState('human', 'default'));
      const labels: string[] = [];
      stepper.runEffectsWith((effect) => void (effect.type === 'emit' && effect.event.type === 'lead_model' && labels.push(effect.event.model)));
      const windows: number[] = [];
      const model = new LeadModel({ model: 'claude-sonnet-5-5', turn: async () => { throw new Error('no'); } });
      const session = { id: 'session-aaaaaaaaaa' } as unknown as LeadSession;
      const controls = new LeadControls({ stepper, loop: { busy: false, conversation: new Conversation(), useContextWindow: (tokens) => void windows.push(tokens) }, model, settings, offlineURL: undefined, session });
      await assert.rejects(controls.setModel('not a model'), Refused);
      assert.equal(await controls.setModel('claude-haiku-4-5'), 'claude-haiku-4-5');
      assert.equal(model.model, 'claude-haiku-4-5');
      assert.deepEqual(windows, [expected]);
      assert.deepEqual(labels, ['claude-haiku-4-5']);
    }
  });

  test('/clear empties the conversation into a new session; refused mid-turn', async () => {
    const stepper = new LeadStepper(initialLeadState('human'));
    stepper.runEffectsWith(() => undefined);
    const conversation = new Conversation();
    conversation.appendUser([{ type: 'text', text: 'hello' }]);
    const ids: string[] = [];
    const session = { get id() { return ids.at(-1) ?? 'session-aaaaaaaaaa'; }, restart: (id: string) => void ids.push(id) } as unknown as LeadSession;
    const parts = { stepper, model: new LeadModel({ model: 'x', turn: async () => { throw new Error('no'); } }), settings: { offline: true, model: 'offline-demo' } as ModelSettings, offlineURL: undefined, session };
    await assert.rejects(new LeadControls({ ...parts, loop: { busy: true, conversation, useContextWindow: () => undefined } }).clear(), /interrupt it \(Esc\) first/);
    assert.equal(conversation.messages.length, 1);
    const id = await new LeadControls({ ...parts, loop: { busy: false, conversation, useContextWindow: () => undefined } }).clear();
    assert.equal(conversation.messages.length, 0);
    assert.match(id, /^session-/);
    assert.notEqual(id, 'session-aaaaaaaaaa');
  });

  test('/resume goes on with an earlier session: its records replace the conversation, new ones journal on in it; refused mid-turn, for this session, or for none', async () => {
    const stepper = new LeadStepper(initialLeadState('human'));
    const emitted: string[] = [];
    stepper.runEffectsWith((effect) => void (effect.type === 'emit' && effect.event.type === 'lead_session' && emitted.push(effect.event.id)));
    const conversation = new Conversation();
    conversation.appendUser([{ type: 'text', text: 'the new session' }]);
    const earlier = [
      { type: 'user' as const, content: [{ type: 'text' as const, text: 'the old question' }] },
      { type: 'assistant' as const, content: [{ type: 'text' as const, text: 'the old answer' }] },
    ];
    let current = 'session-bbbbbbbbbb';
    const session = {
      get id() {
        return current;
      },
      resumeInto: async (id: string) => {
        if (id !== 'session-aaaaaaaaaa') throw new Refused(`no session '${id}' in this team (/resume lists them)`);
        current = id;
        return { earlier, problems: [] };
      },
    } as unknown as LeadSession;
    const parts = { stepper, model: new LeadModel({ model: 'x', turn: async () => { throw new Error('no'); } }), settings: { offline: true, model: 'offline-demo' } as ModelSettings, offlineURL: undefined, session };
    await assert.rejects(new LeadControls({ ...parts, loop: { busy: true, conversation, useContextWindow: () => undefined } }).resume('session-aaaaaaaaaa'), /interrupt it \(Esc\) first, then \/resume/);
    const controls = new LeadControls({ ...parts, loop: { busy: false, conversation, useContextWindow: () => undefined } });
    await assert.rejects(controls.resume('session-bbbbbbbbbb'), /the lead is in session session-bbbbbbbbbb already/);
    await assert.rejects(controls.resume('session-cccccccccc'), /no session 'session-cccccccccc'/);
    assert.equal(conversation.messages.length, 1, 'refusals change nothing');
    assert.deepEqual(await controls.resume('session-aaaaaaaaaa'), { records: 2, problems: 0 });
    assert.deepEqual(conversation.messages.map((m) => JSON.stringify(m.content)), [JSON.stringify(earlier[0]?.content), JSON.stringify(earlier[1]?.content)]);
    assert.deepEqual(emitted, ['session-aaaaaaaaaa']);
  });
});
