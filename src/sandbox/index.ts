// What the operating system enforces: bubblewrap, seccomp, limits, hidden state roots and the
// launcher every command goes through.
// Other folders import this folder only through this file (.dependency-cruiser.cjs).
export { describeBounds } from './describe-bounds.js';
export { launcherFor } from './launcher.js';
export type { Launch, Launcher } from './launcher.js';
export { DEFAULT_LIMITS, SandboxLimits } from './limits.js';
export { probeSandbox } from './probe.js';
export { describeSeccomp } from './seccomp.js';
export { INSTALL_HINT, SANDBOX_NETWORKS, SandboxNetwork, SandboxSettings, bwrapProgram, describeStatus, sandboxFor } from './settings.js';
export type { SandboxStatus } from './settings.js';
export { spawnLaunch } from './spawn-launch.js';
export { hiddenStateAround, stateRootsAround } from './state-roots.js';
