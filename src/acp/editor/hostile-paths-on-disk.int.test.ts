// The hostile paths suite with an editor that offers no fs: the file tools read and write the disk.

import { describeHostilePaths } from "../../../test/contracts/hostile-paths.js";

describeHostilePaths({ name: "on disk", access: "disk" });
