// Presentation shared by the REPL and the CLI: tables, previews of a request, transcripts.
// Other folders import this folder only through this file (.dependency-cruiser.cjs).
export { age, compactionLine, formatAudit, formatMembers, formatMessage, formatRequests, formatWorktrees } from './format.js';
export { dollars } from './dollars.js';
export type { PreviewKind, PreviewLine } from './preview.js';
export { previewRequest } from './request-preview.js';
export { eventSentence, formatTranscriptEntry, formatTranscriptLive } from './transcript-format.js';
export { EMPTY_FOLD, foldLog } from './transcript.js';
export type { TranscriptEntry, TranscriptFold } from './transcript.js';
