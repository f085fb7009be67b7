import { runRepositoryContract } from "@psm/core/testing";
import { afterAll } from "vitest";
import { openSqliteStorage } from "./index.js";
import { removeTempDbs, tempDbFile } from "./test-support/temp-db.js";

// A fresh file per case keeps open() cheap and the cases independent.
runRepositoryContract("sqlite", { open: async () => openSqliteStorage({ file: tempDbFile() }) });

afterAll(removeTempDbs);
