// Who an agent acts for. The runtime hands it to every node and tool of a run, so a tool can
// check what the person may do, and a store can be scoped to them.

/** The person (or service) a run acts for. */
export interface Principal {
  /** A stable identifier, such as a user id or an email address. */
  id: string;
  /** A name to show. */
  name?: string | undefined;
  /** Roles or scopes granted to it, for tools that check them. */
  roles?: readonly string[] | undefined;
  /** Anything else an integrator wants nodes and tools to see. */
  attributes?: Readonly<Record<string, unknown>> | undefined;
}
