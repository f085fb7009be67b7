import { workerData } from "node:worker_threads";
import { type ReadSettings, readDocument } from "./read-document.js";
import { serveJobs } from "./serve.js";

// The worker's bounds come once, with its start; every job is read the same way.
const settings = workerData as ReadSettings;
serveJobs((bytes, ocr) => readDocument(bytes, settings, ocr));
