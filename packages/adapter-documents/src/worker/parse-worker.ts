import { type ReadSettings, readDocument } from "./read-document.js";
import { type ServeSettings, serveJobs } from "./serve.js";

// The process's bounds come once, as its argument; every job is read the same way.
const settings = JSON.parse(process.argv[2] ?? "{}") as ReadSettings & ServeSettings;
serveJobs(settings, (bytes, ocr) => readDocument(bytes, settings, ocr));
