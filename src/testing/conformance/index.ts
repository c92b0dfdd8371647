// The ACP conformance kit: check any ACP agent, weft's or not, the way weft checks itself.

export {
  checkAcpAgent,
  type CheckAcpAgentOptions,
  type CheckReport,
  expectAcpAgentToConform,
  formatReport,
  formatResult,
  formatSummary,
  SCENARIO_IDS,
  SCENARIO_TIERS,
  type ScenarioResult,
} from "./check-acp-agent.js";
export type { Tier } from "./scenario.js";
