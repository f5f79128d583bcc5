import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnTeammateTool } from '../../src/tools/spawn-teammate.js';
import { planApprovalRequestTool } from '../../src/tools/plan-approval-request.js';
import { sendMessageTool } from '../../src/tools/send-message.js';
import { leadTools, teammateTools, type AnyTool, type LeadToolIO, type TeammateToolIO, type ToolIO } from '../../src/tools/toolsets.js';

test('a tool fits only a toolset whose team offers what it needs (checked by the compiler)', () => {
  // @ts-expect-error spawn_teammate needs the lead's team
  const teammateSpawns: AnyTool<TeammateToolIO>[] = [spawnTeammateTool];
  // @ts-expect-error plan submission needs a teammate's team
  const leadSubmits: AnyTool<LeadToolIO>[] = [planApprovalRequestTool];
  // @ts-expect-error the lead's toolset cannot run with only the common team
  const common: AnyTool<ToolIO>[] = leadTools({ reviewPlans: false });
  // @ts-expect-error nor a teammate's
  const common2: AnyTool<ToolIO>[] = teammateTools({ planMode: true });
  const shared: AnyTool<LeadToolIO>[] = [sendMessageTool];
  assert.equal([teammateSpawns, leadSubmits, common, common2, shared].length, 5);
});
