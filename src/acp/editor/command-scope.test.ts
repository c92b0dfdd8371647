import { describe, expect, it } from "vitest";

import { commandApprovalScope, commandScope } from "./command-scope.js";

describe("commandScope", () => {
  it("takes the program and its subcommand words as the prefix, up to two, stopping at a flag, a path or --", () => {
    expect(commandScope("npm test")).toEqual({ prefix: "npm test", exact: false, within: [] });
    expect(commandScope("npm test -- --watch")).toEqual({ prefix: "npm test", exact: false, within: [] });
    expect(commandScope("  git status  ")).toEqual({ prefix: "git status", exact: false, within: [] });
    expect(commandScope("git commit -m 'fix the build'")).toEqual({ prefix: "git commit", exact: false, within: [] });
    expect(commandScope("npm run build")).toEqual({ prefix: "npm run build", exact: false, within: ["npm run"] });
    expect(commandScope("npm run build:prod --silent")).toEqual({ prefix: "npm run build:prod", exact: false, within: ["npm run"] });
    expect(commandScope("docker compose up web")).toEqual({ prefix: "docker compose up", exact: false, within: ["docker compose"] });
    expect(commandScope("./node_modules/.bin/vitest run src")).toEqual({ prefix: "./node_modules/.bin/vitest run src", exact: false, within: ["./node_modules/.bin/vitest run"] });
  });

  it("gives the whole command, to be granted word for word, to a program without a subcommand and to programs that run others or destroy", () => {
    expect(commandScope("ls -la")).toEqual({ prefix: "ls -la", exact: true, within: [] });
    expect(commandScope("make")).toEqual({ prefix: "make", exact: true, within: [] });
    expect(commandScope("rm -rf x")).toEqual({ prefix: "rm -rf x", exact: true, within: [] });
    expect(commandScope("rm build")).toEqual({ prefix: "rm build", exact: true, within: [] });
    expect(commandScope("sudo npm test")).toEqual({ prefix: "sudo npm test", exact: true, within: [] });
    expect(commandScope("env npm test")).toEqual({ prefix: "env npm test", exact: true, within: [] });
    expect(commandScope("bash run tests")).toEqual({ prefix: "bash run tests", exact: true, within: [] });
    expect(commandScope("/usr/bin/sudo ls")).toEqual({ prefix: "/usr/bin/sudo ls", exact: true, within: [] });
    expect(commandScope('echo "a  b"')).toEqual({ prefix: 'echo "a  b"', exact: true, within: [] });
  });

  it("has no scope for a compound, piped, redirected or substituted command, or one the shell would expand", () => {
    const hostile = [
      "npm test && rm -rf x",
      "npm test; rm -rf x",
      "npm test || rm -rf x",
      "npm test & rm -rf x",
      "npm test | sh",
      "npm test > /etc/passwd",
      "npm test >> out.txt",
      "npm test < input",
      "npm test 2>&1",
      "npm test $(rm -rf x)",
      "npm test `rm -rf x`",
      "npm test $HOME",
      "npm test ${HOME}",
      "npm test\nrm -rf x",
      "npm test\rrm -rf x",
      "npm test \\; rm",
      "(npm test)",
      "{ npm test; }",
      "npm test *",
      "npm test ~/x",
      "npm test # comment",
      "npm test 'unbalanced",
      'npm test "unbalanced',
      "PATH=/tmp/evil npm test",
      "FOO=1 npm test",
      "-rf npm",
      "npm test\u0000rm",
      "npm test\u00a0rm",
      "npm tést",
      "",
      "   ",
      `npm test ${"x".repeat(1000)}`,
    ];
    for (const command of hostile) {
      expect(commandScope(command), JSON.stringify(command)).toBeUndefined();
    }
  });

  it("does not take a quoted word as a subcommand", () => {
    expect(commandScope('npm "test" x')).toEqual({ prefix: 'npm "test" x', exact: true, within: [] });
    expect(commandScope("npm te'st'")).toEqual({ prefix: "npm te'st'", exact: true, within: [] });
    expect(commandScope("git 'status' -s")).toEqual({ prefix: "git 'status' -s", exact: true, within: [] });
  });
});

describe("commandApprovalScope", () => {
  it("keys a prefix and a whole command apart, and names them for the person", () => {
    expect(commandApprovalScope("npm test -- --watch")).toEqual({ key: "prefix:npm test", label: "`npm test …`", within: [] });
    expect(commandApprovalScope("npm run build")).toEqual({ key: "prefix:npm run build", label: "`npm run build …`", within: ["prefix:npm run"] });
    expect(commandApprovalScope("rm -rf x")).toEqual({ key: "exact:rm -rf x", label: "`rm -rf x`" });
    expect(commandApprovalScope("npm test && rm -rf x")).toBeUndefined();
  });

  it("a grant for `npm test` is not a grant for `npm testing` or `npm test-evil`", () => {
    expect(commandApprovalScope("npm testing")?.key).toBe("prefix:npm testing");
    expect(commandApprovalScope("npm test-evil")?.key).toBe("prefix:npm test-evil");
    expect(commandApprovalScope("npm testing")?.within).toEqual([]);
  });
});
