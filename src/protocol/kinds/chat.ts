import * as z from 'zod';
import { envelopeOf } from '../fields.js';
import { defineKind } from './spec.js';

/** Free text between members: to one (`message`) or to everyone else (`broadcast`, to "*"). */

const text = z.string().min(1, 'text is empty');
const summary = z.string().max(200, 'summary is longer than 200 characters');

export const message = defineKind(envelopeOf('message', { text, summary }), {
  direction: 'any',
  role: { class: 'chat' },
  notice: (e) => `From ${e.from}: ${e.text}`,
  line: (e) => e.text,
});

export const broadcast = defineKind(envelopeOf('broadcast', { text, summary }), {
  direction: 'any',
  role: { class: 'chat' },
  notice: (e) => `From ${e.from} (to everyone): ${e.text}`,
  line: (e) => e.text,
});
