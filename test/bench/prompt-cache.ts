import { costOf, type TokenUsage } from '../../src/model/usage.js';
import { cacheFigures, runToolSession } from '../helpers/tool-session.js';
import type { BenchSection, Figure } from './section.js';

/**
 * What caching the conversation saves in a working session: 60 model calls, each asking
 * for a file whose text (4,000 characters) joins the conversation, run through the real
 * ModelClient against the offline server (whose prompt cache keeps to the API's rules),
 * with the rolling breakpoint and without it (the baseline: tools and system only).
 * Priced as Sonnet: the offline server echoes the model id the client asks for.
 */

const CALLS = 60;
const RESULT_CHARS = 4000;
const MODEL = 'claude-sonnet-5-5';
const TARGET_SHARE = 0.85;

const tokens = (n: number) => n.toLocaleString('en-US');
const percent = (share: number) => `${(share * 100).toFixed(1)} %`;

function figuresOf(label: string, usages: readonly TokenUsage[]): { figures: Figure[]; fromThird: number } {
  const all = cacheFigures(usages);
  const fromThird = cacheFigures(usages.slice(2)).readShare;
  const cost = costOf(MODEL, all);
  return {
    fromThird,
    figures: [
      {
        label: `${label}: input tokens full price / cache write / cache read`,
        value: `${tokens(all.input_tokens)} / ${tokens(all.cache_write_tokens)} / ${tokens(all.cache_read_tokens)}`,
      },
      { label: `${label}: cost at ${MODEL} prices`, value: cost === undefined ? 'no price' : `$${cost.toFixed(3)}` },
      { label: `${label}: input read from cache, all calls / from call 3`, value: `${percent(all.readShare)} / ${percent(fromThird)}` },
    ],
  };
}

export const promptCacheSections: BenchSection[] = [
  {
    name: `prompt cache: a ${CALLS}-call tool session, conversation cached vs tools + system only`,
    async run(): Promise<Figure[]> {
      const session = { calls: CALLS, resultChars: RESULT_CHARS, model: MODEL };
      const baseline = figuresOf('baseline (tools + system)', await runToolSession({ ...session, cacheConversation: false }));
      const cached = figuresOf('conversation cached', await runToolSession({ ...session, cacheConversation: true }));
      const share = cached.figures.at(-1);
      if (share !== undefined) {
        share.target = `≥ ${percent(TARGET_SHARE)} from call 3`;
        share.met = cached.fromThird >= TARGET_SHARE;
      }
      return [...baseline.figures, ...cached.figures];
    },
  },
];
