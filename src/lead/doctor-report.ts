import { probeSandbox, describeSeccomp, bwrapProgram, INSTALL_HINT, describeBounds } from '../sandbox/index.js';
import { describeHookPowers } from '../hooks/index.js';
import type { TeamConfig } from '../store/index.js';
import type { TeamPaths } from '../team/index.js';
import { readControlToken } from './control.js';
import { describeStateRoots } from './doctor-state-roots.js';
import { loadProjectHooks, loadProjectSandbox } from './project-settings.js';

export type DoctorReport = {
  lines: Array<[label: string, text: string]>;
  /** Why teammates cannot start here (no sandbox), with the install command; undefined when they can. */
  blocker?: string;
};

/**
 * What this machine gives the team: whether agents' commands can be sandboxed (so approvals
 * bind), with and without network, their bounds, the team and whether a lead runs, hooks granted
 * more than the sandbox's default, and the state roots hidden. `teams doctor` and /doctor print it.
 */
export function doctorReport(paths: TeamPaths, team: TeamConfig | undefined, cwd: string): DoctorReport {
  const bwrap = bwrapProgram();
  const withNetwork = probeSandbox(bwrap, 'on');
  const withoutNetwork = probeSandbox(bwrap, 'none');
  const lines: Array<[string, string]> = [
    ['node', process.version],
    ['sandbox', withNetwork.ok ? `active: ${withNetwork.version} (${bwrap})` : `UNAVAILABLE: ${withNetwork.reason}`],
    // The probe loads the filter where there is one: a sandbox that came up has it.
    ['seccomp', withNetwork.ok ? describeSeccomp() : `not loaded: ${withNetwork.reason}`],
    ['sandbox, no network', withoutNetwork.ok ? 'available (--sandbox-network none)' : `unavailable: ${withoutNetwork.reason}`],
    ...describeBounds(loadProjectSandbox(paths.home)),
    ['team', team ? `${team.name} (${paths.root})` : `none yet in ${paths.home}`],
    ...(team?.sandbox ? [['last lead started with', team.sandbox] as [string, string]] : []),
    ['lead', readControlToken(paths.controlToken) ? 'running (control socket ready)' : 'not running'],
    // Hooks run sandboxed, read-only and offline; the ones granted more are the human's to review.
    ...describeHookPowers(loadProjectHooks(paths.home)).map((powered): [string, string] => ['hook with more power', powered]),
    ...describeStateRoots(cwd, paths),
  ];
  return withNetwork.ok ? { lines } : { lines, blocker: `teammates cannot start here except in bypass mode: ${INSTALL_HINT}` };
}

/** The report as aligned lines. */
export function doctorText(report: DoctorReport): string {
  return report.lines.map(([label, text]) => `${label.padEnd(24)}${text}`).join('\n');
}
