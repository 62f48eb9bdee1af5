// The benchmark's floor row (bench/lib/sdk-floor.mjs): each mapped call answered with a canned copy of our
// server's answer, and no upstream request. What it costs is what the SDK alone costs.
import { serveFloor } from './sdk-floor.mjs';

serveFloor();
