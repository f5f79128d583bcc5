// The offline model: a scripted Messages-API endpoint on loopback, so every test and keyless run
// drives the real SDK.
// Other folders import this folder only through this file (.dependency-cruiser.cjs).
export { OFFLINE_MODEL, modelLabel } from './model-id.js';
export { loadScript } from './script.js';
export { startOfflineServer } from './server.js';
