// The ACP conformance kit: check any ACP agent, weft's or not, the way weft checks itself.

export { checkAcpAgent, type CheckAcpAgentOptions, type CheckReport, expectAcpAgentToConform, formatReport, SCENARIO_IDS, type ScenarioResult } from "./check-acp-agent.js";
