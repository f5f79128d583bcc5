// Teammates on other machines (`teams host`): the trust handed over out of band, the signed
// orders and reports, the host process and the lead's remote spawner.
// Other folders import this folder only through this file (.dependency-cruiser.cjs).
export { HostRunner } from './host-runner.js';
export { hostKey, hostPins, teamAnchor } from './host-files.js';
export { parseTrustToken, trustToken } from './trust-token.js';
export { RemoteHosts } from './remote-hosts.js';
export { hostLiveness, judgeHosts } from './host-liveness.js';
