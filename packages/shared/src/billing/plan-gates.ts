import { featureSlugs, freePlanCode } from './catalogue.js';

// What the gates need to know about an organization's plan.
export type PlanFacts = {
  // FLOTILLA_BILLING: off means every organization is on an unlimited custom plan.
  billingEnabled: boolean;
  billingCode: string;
  // Whether the organization pays for its plan (not the free plan).
  isPaid: boolean;
  // Feature slugs the plan provides and add-ons the subscription holds (active ones only).
  features: readonly string[];
};

export type PlanGate = 'safe-roles' | 'operator-role' | 'deactivation' | 'private-support' | 'saml';

export type GateAnswer = { allowed: true } | { allowed: false; reason: string };

const allowed: GateAnswer = { allowed: true };
const refused = (reason: string): GateAnswer => ({ allowed: false, reason });

// The one place that says what a plan allows; the console and the server both ask it.
export const planAllows = (facts: PlanFacts, gate: PlanGate): GateAnswer => {
  if (!facts.billingEnabled) return allowed;
  const paid = facts.isPaid && facts.billingCode !== freePlanCode;
  const has = (slug: string): boolean => facts.features.includes(slug);
  switch (gate) {
    case 'safe-roles':
      if (!paid) return refused('Upgrade your plan to use limited roles');
      return has(featureSlugs.safeRolesPreview)
        ? allowed
        : refused('Limited roles need the safe roles preview add-on');
    case 'operator-role':
      return paid ? allowed : refused('Upgrade your plan to use the operator role');
    case 'deactivation':
      return paid ? allowed : refused('Upgrade your plan to enable deactivation');
    case 'private-support':
      return paid ? allowed : refused('Private support is only for paying customers');
    case 'saml':
      return has(featureSlugs.saml)
        ? allowed
        : refused('Your plan does not include SAML single sign-on');
  }
};

// The gate a fleet role needs, if any: limited (safe) roles need the preview add-on and a paid
// plan, the operator role a paid plan.
export const gateOfFleetRole = (role: string): PlanGate | undefined => {
  if (role === 'safe-developer' || role === 'safe-operator') return 'safe-roles';
  if (role === 'operator') return 'operator-role';
  return undefined;
};
