/**
 * The offline model's name, apart from its server: every agent needs the name at start-up,
 * and only the one that serves the model needs node:http and the script machinery, later.
 */

/** The offline model's id: what requests name and responses echo. */
export const OFFLINE_MODEL = 'offline-demo';
/** How the offline model must be shown to people, so nobody mistakes it for Claude. */
export const OFFLINE_MODEL_LABEL = 'offline-demo (scripted offline demo model, not Claude)';

/** A model id as it should be displayed. */
export function modelLabel(model: string): string {
  return model === OFFLINE_MODEL ? OFFLINE_MODEL_LABEL : model;
}
