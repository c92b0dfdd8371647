// The hostile paths suite with an editor that offers fs: reads and writes go through fs/*, which
// the test editor answers on the real disk, following links as an editor would.

import { describeHostilePaths } from "../../../test/contracts/hostile-paths.js";

describeHostilePaths({ name: "through the editor's fs", access: "editor" });
