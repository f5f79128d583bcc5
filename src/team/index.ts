// What the lead and its teammates share about one team: its paths, the message bus, decisions as
// drafts, the token budget.
// Other folders import this folder only through this file (.dependency-cruiser.cjs).
export { budgetProblem, describeUsage, memberCost, pricedTurn } from './budget.js';
export { SendRefused, TeamBus } from './bus.js';
export { decisionDraft } from './decisions.js';
export { controlSocketPath, hiddenFromAgents, requirePaths, teamPaths, userConfigDir } from './paths.js';
export type { TeamPaths } from './paths.js';
export { refuseWorkdirInStateRoot } from './workdir-check.js';
