// The card for a pending request, wherever it is answered (the chat's dock,
// the "Needs you" inbox): a question's choices, a plan's three choices, or
// Allow / Deny for a tool.
import { AskCard } from './ask-card';
import { PermissionCard, type Answer, type RequestCard } from './permission-card';
import { PlanCard } from './plan-card';
import type { PermissionRequest } from './protocol';

/** agent names the chat's agent (the tool card says who asks). */
export function requestCard(req: PermissionRequest, respond: (a: Answer) => void, agent?: string): RequestCard {
  if (req.toolName === 'AskUserQuestion') return new AskCard(req, respond);
  if (req.toolName === 'ExitPlanMode') return new PlanCard(req, respond);
  return new PermissionCard(req, respond, agent);
}
